// Hadoop HA's ActiveStandbyElector: /hadoop-ha/<nameservice>/ActiveStandbyElectorLock (ephemeral: who is active)
// and ActiveBreadCrumb (persistent: who was, for fencing). HDFS writes ActiveNodeInfo (HAZKInfo.proto:
// nameserviceId = 1, namenodeId = 2, hostname = 3, port = 4, zkfcPort = 5); YARN's ResourceManager writes
// ActiveRMInfoProto (yarn_server_resourcemanager_recovery.proto: clusterid = 1, rmId = 2) under
// /yarn-leader-election/<cluster>.
import { hostPort, rawDecoded, rows } from './decoding';
import { int, readMessage, text } from './protobufReader';
import type { Decoded, SystemDecoder, Translate } from './types';

const NODE = /\/(ActiveStandbyElectorLock|ActiveBreadCrumb)$/;

function decode(path: string, data: Uint8Array, t: Translate): Decoded | undefined {
  const m = NODE.exec(path);
  if (!m) return undefined;
  const lock = m[1] === 'ActiveStandbyElectorLock';
  const role = lock ? t('Hadoop HA elector lock') : t('Hadoop HA breadcrumb (last active)');
  const message = readMessage(data);
  const nameservice = message && text(message, 1);
  const nodeId = message && text(message, 2);
  if (!message || nameservice === undefined || nodeId === undefined) {
    return data.length ? rawDecoded('hadoop', 'Hadoop', role, t('not an ActiveNodeInfo message'), t) : undefined;
  }
  const hostname = text(message, 3);
  const port = int(message, 4);
  const base = { system: 'hadoop' as const, systemName: 'Hadoop', role, icon: lock ? 'lock' : 'history', ...(lock ? { election: 'lock' as const } : {}) };
  if (hostname === undefined) {
    // ResourceManager: only the cluster and the RM id.
    return { ...base, summary: lock ? t('active {0} ({1})', nodeId, nameservice) : t('last active {0} ({1})', nodeId, nameservice),
      fields: rows([['clusterid', nameservice], ['rmId', nodeId]]) };
  }
  const where = hostPort(hostname, port?.toString());
  return {
    ...base,
    // The breadcrumb outlives its writer: it names the last active node, to be fenced by the next one.
    summary: lock ? t('active {0} · {1}', nodeId, where) : t('last active {0} · {1}', nodeId, where),
    fields: rows([['nameserviceId', nameservice], ['namenodeId', nodeId], ['hostname', hostname], ['port', port?.toString()], ['zkfcPort', int(message, 5)?.toString()]]),
  };
}

export const hadoopDecoder: SystemDecoder = {
  system: 'hadoop',
  claims: (path) => NODE.test(path),
  decode,
};
