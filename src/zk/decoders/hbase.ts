// HBase: the active master, backup masters, the meta region's server and region servers under zookeeper.znode.parent
// (/hbase by default). Each value is 0xFF, a 4-byte big-endian length, that many bytes of metadata (the writer's
// process id), then "PBUF" and a protobuf message. Formats: HBase's RecoverableZooKeeper.appendMetaData,
// ProtobufMagic.PB_MAGIC, and the messages Master, MetaRegionServer, RegionServerInfo (ZooKeeper.proto, HBase.proto)
// and ServerName (HBase.proto), field numbers as published there.
import { hostPort, rawDecoded, rows, utf8 } from './decoding';
import { ProtoMessage, readMessage, sub, text, uint } from './protobufReader';
import type { Decoded, SystemDecoder, DecodedField, Translate } from './types';

const NODE = /(?:^|\/)(master|backup-masters\/[^/]+|meta-region-server(?:-\d+)?|rs\/[^/]+)$/;
const PB_MAGIC = [0x50, 0x42, 0x55, 0x46]; // "PBUF"
const MAX_METADATA = 65536;

/** The metadata and the protobuf message after "PBUF", or the reason the bytes are not HBase's framing. */
export function hbaseFrame(data: Uint8Array, t: Translate): { metadata: string; message: ProtoMessage } | { reason: string } {
  if (data.length < 5 || data[0] !== 0xff) return { reason: t('no 0xFF metadata magic') };
  const length = new DataView(data.buffer, data.byteOffset + 1, 4).getInt32(0, false);
  if (length < 0 || length > MAX_METADATA || 5 + length + 4 > data.length) return { reason: t('metadata length {0} does not fit in {1} bytes', length, data.length) };
  const after = 5 + length;
  if (!PB_MAGIC.every((b, i) => data[after + i] === b)) return { reason: t('no "PBUF" after the metadata') };
  const message = readMessage(data.subarray(after + 4));
  if (!message) return { reason: t('the protobuf message is truncated or malformed') };
  return { metadata: utf8(data.subarray(5, after)) ?? '', message };
}

/** ServerName { host_name = 1; port = 2; start_code = 3 }. */
function serverName(message: ProtoMessage | undefined): { where: string; fields: DecodedField[] } | undefined {
  const host = message && text(message, 1);
  if (!message || host === undefined) return undefined;
  const port = uint(message, 2);
  const startCode = uint(message, 3);
  return { where: hostPort(host, port === undefined ? undefined : String(port)), fields: rows([['host_name', host], ['port', port?.toString()], ['start_code', startCode?.toString()]]) };
}

/** RegionState.State, in HBase.proto's order. */
const REGION_STATES = ['OFFLINE', 'PENDING_OPEN', 'OPENING', 'OPEN', 'PENDING_CLOSE', 'CLOSING', 'CLOSED', 'SPLITTING', 'SPLIT', 'FAILED_OPEN',
  'FAILED_CLOSE', 'MERGING', 'MERGED', 'SPLITTING_NEW', 'MERGING_NEW', 'ABNORMALLY_CLOSED'];

function decode(path: string, data: Uint8Array, t: Translate): Decoded | undefined {
  const m = NODE.exec(path);
  if (!m) return undefined;
  const node = m[1];
  const role = node === 'master' ? t('HBase active master') : node.startsWith('backup-masters/') ? t('HBase backup master')
    : node.startsWith('rs/') ? t('HBase region server') : t('HBase meta region location');
  const frame = hbaseFrame(data, t);
  if ('reason' in frame) {
    // Only an HBase-looking tree gets a raw verdict: any other node named "master" is simply not ours.
    return /(?:^|\/)hbase(?:\/|$)/.test(path) && data.length ? rawDecoded('hbase', 'HBase', role, frame.reason, t) : undefined;
  }
  const { metadata, message } = frame;
  const meta: DecodedField[] = metadata ? [{ label: 'metadata', value: metadata }] : [];
  const result = (summary: string, fields: DecodedField[], icon: string): Decoded => ({ system: 'hbase', systemName: 'HBase', role, summary, fields: [...fields, ...meta], icon });
  if (node.startsWith('rs/')) {
    // RegionServerInfo { infoPort = 1; VersionInfo version_info = 2 { version = 1; … } }; the server is in the name.
    const infoPort = uint(message, 1);
    const version = sub(message, 2);
    const versionText = version && text(version, 1);
    const name = node.slice(3).split(',');
    return result(name.length === 3 ? t('{0} · version {1}', hostPort(name[0], name[1]), versionText ?? '?') : t('version {0}', versionText ?? '?'),
      rows([['server', node.slice(3)], ['infoPort', infoPort?.toString()], ['version', versionText], ['revision', version && text(version, 3)]]), 'server');
  }
  // Master { master = 1 (ServerName); rpc_version = 2; info_port = 3 } and
  // MetaRegionServer { server = 1 (ServerName); rpc_version = 2; state = 3 (RegionState.State) } share field 1.
  const server = serverName(sub(message, 1));
  if (!server) return rawDecoded('hbase', 'HBase', role, t('no server name in the message'), t);
  if (node.startsWith('meta-region-server')) {
    const state = uint(message, 3);
    const stateName = state === undefined ? undefined : REGION_STATES[Number(state)] ?? String(state);
    return result(stateName ? `${server.where} · ${stateName}` : server.where, [...server.fields, ...rows([['rpc_version', uint(message, 2)?.toString()], ['state', stateName]])], 'table');
  }
  const master = result(server.where, [...server.fields, ...rows([['rpc_version', uint(message, 2)?.toString()], ['info_port', uint(message, 3)?.toString()]])], node === 'master' ? 'star-full' : 'server');
  return node === 'master' ? { ...master, election: 'leader' } : { ...master, election: 'candidate' };
}

export const hbaseDecoder: SystemDecoder = {
  system: 'hbase',
  claims: (path) => NODE.test(path),
  decode,
};
