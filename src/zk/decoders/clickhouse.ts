// ClickHouse replicated tables (ReplicatedMergeTree): under a table's ZooKeeper path, replicas/<r>/{host,is_active,
// is_lost,log_pointer}, the replication log and queues (log-N, queue-N: ReplicatedMergeTreeLogEntry's text,
// "format version: N"), leader_election, blocks (dedup ids → part names) and quorum/status
// (ReplicatedMergeTreeQuorumEntry). Formats: ClickHouse's src/Storages/MergeTree/ReplicatedMergeTreeLogEntry.cpp,
// ReplicatedMergeTreeAddress.cpp and ReplicatedMergeTreeQuorumEntry.h, as documented in its source.
import { rawDecoded, rows, utf8 } from './decoding';
import type { Decoded, SystemDecoder, DecodedField, Translate } from './types';

const REPLICA_FILE = /\/replicas\/([^/]+)\/(host|is_active|is_lost|log_pointer)$/;
const LOG_ENTRY = /\/(?:log\/log|replicas\/[^/]+\/queue\/queue)-(\d{10})$/;
const LEADER = /\/leader_election\/(leader_election-\d{10})$/;
const BLOCK = /\/blocks\/([^/]+)$/;
const QUORUM = /\/quorum\/status$/;
const PATTERNS = [REPLICA_FILE, LOG_ENTRY, LEADER, BLOCK, QUORUM];

const base = (role: string, summary: string, fields: DecodedField[], icon: string): Decoded =>
  ({ system: 'clickhouse', systemName: 'ClickHouse', role, summary, fields, icon });

/** `key: value` lines (ClickHouse's ReadBuffer text formats); lines without ": " are returned apart. */
function keyValues(text: string): { pairs: [string, string][]; other: string[] } {
  const pairs: [string, string][] = [];
  const other: string[] = [];
  for (const line of text.split('\n').slice(0, 500)) {
    const colon = line.indexOf(': ');
    if (colon > 0) pairs.push([line.slice(0, colon), line.slice(colon + 2)]);
    else if (line) other.push(line);
  }
  return { pairs, other };
}

/** Log entry kinds as ClickHouse writes them, after the header lines. */
const ENTRY_KINDS = ['get', 'attach', 'merge', 'mutate', 'drop', 'drop_range', 'clear_column', 'clear_index', 'replace_range',
  'alter', 'sync_pinned_part_uuids', 'clone_part_from_shard', 'drop_part', 'merge_parts'];

function logEntry(data: Uint8Array, t: Translate): Decoded {
  const text = utf8(data);
  const version = text === undefined ? null : /^format version: (\d+)\n/.exec(text);
  if (!text || !version) return rawDecoded('clickhouse', 'ClickHouse', t('ClickHouse replication log entry'), t('no "format version: N" header'), t);
  const lines = text.split('\n').slice(0, 500);
  const kindLine = lines.findIndex((l) => ENTRY_KINDS.includes(l.trim()) || /^(merge|mutate)$/.test(l.trim()));
  const kind = kindLine >= 0 ? lines[kindLine].trim() : undefined;
  const { pairs } = keyValues(lines.slice(0, kindLine >= 0 ? kindLine : lines.length).join('\n'));
  // After the kind: part names (for get/attach the new part; for merge the source parts, "into", the result),
  // then `key: value` lines again (part_type, quorum, deduplicate…).
  const tail = keyValues(kindLine >= 0 ? lines.slice(kindLine + 1).join('\n') : '');
  const after = tail.other;
  const into = after.indexOf('into');
  const part = into >= 0 ? after[into + 1] : after[0];
  const fields: DecodedField[] = [...pairs.map(([label, value]) => ({ label, value })), ...rows([['type', kind], ['new part', part]]),
    ...tail.pairs.map(([label, value]) => ({ label, value }))];
  if (into > 0) fields.push({ label: 'source parts', value: String(into), children: after.slice(0, into).map((p, i) => ({ label: String(i), value: p })) });
  const source = pairs.find(([k]) => k === 'source replica')?.[1];
  const summary = [kind, part, source ? t('from {0}', source) : undefined].filter(Boolean).join(' · ');
  return base(t('ClickHouse replication log entry'), summary, fields, 'git-commit');
}

function decode(path: string, data: Uint8Array, t: Translate): Decoded | undefined {
  let m: RegExpExecArray | null;
  if ((m = REPLICA_FILE.exec(path))) {
    const [, replica, file] = m;
    const text = utf8(data);
    if (text === undefined) return rawDecoded('clickhouse', 'ClickHouse', t('ClickHouse replica'), t('not UTF-8 text'), t);
    if (file === 'is_active') {
      // Ephemeral while the replica's server is up; it holds the server's UUID (empty in old versions).
      const fields = rows([['replica', replica], ['server UUID', text || undefined]]);
      return base(t('ClickHouse replica activity'), t('replica {0} active', replica), fields, 'pulse');
    }
    if (file === 'is_lost') {
      if (text !== '0' && text !== '1') return rawDecoded('clickhouse', 'ClickHouse', t('ClickHouse replica'), t('is_lost is neither 0 nor 1'), t);
      return base(t('ClickHouse replica state'), text === '1' ? t('replica {0} lost', replica) : t('replica {0} not lost', replica), rows([['replica', replica], ['is_lost', text]]), text === '1' ? 'warning' : 'pass');
    }
    if (file === 'log_pointer') {
      if (!/^\d*$/.test(text)) return rawDecoded('clickhouse', 'ClickHouse', t('ClickHouse replica'), t('log_pointer is not a number'), t);
      return base(t('ClickHouse log pointer'), t('replica {0} at log entry {1}', replica, text || '0'), rows([['replica', replica], ['log_pointer', text]]), 'arrow-right');
    }
    const { pairs } = keyValues(text);
    const get = (key: string) => pairs.find(([k]) => k === key)?.[1];
    const host = get('host');
    if (host === undefined) return rawDecoded('clickhouse', 'ClickHouse', t('ClickHouse replica address'), t('no "host:" line'), t);
    const port = get('tcp_port') ?? get('port');
    return base(t('ClickHouse replica address'), t('replica {0} · {1}', replica, `${host}:${port ?? ''}`),
      [{ label: 'replica', value: replica }, ...pairs.map(([label, value]) => ({ label, value }))], 'server');
  }
  if (LOG_ENTRY.test(path)) return logEntry(data, t);
  if ((m = LEADER.exec(path))) {
    const replica = utf8(data);
    if (replica === undefined || replica.includes('\n')) return rawDecoded('clickhouse', 'ClickHouse', t('ClickHouse leader election candidate'), t('not a replica name'), t);
    return { ...base(t('ClickHouse leader election candidate'), t('replica {0}', replica), rows([['replica', replica], ['candidate', m[1]]]), 'person'), election: 'candidate' };
  }
  if ((m = BLOCK.exec(path))) {
    // A block id is <partition>_<hash>_<hash>; its data is the part it made. Anything else under blocks/ is not ours.
    const part = utf8(data);
    if (!/_\d+_\d+$/.test(m[1]) || part === undefined || !/^[\w-]+_\d+_\d+_\d+(_\d+)?$/.test(part)) return undefined;
    return base(t('ClickHouse deduplication block'), t('part {0}', part), rows([['block_id', m[1]], ['part', part]]), 'symbol-key');
  }
  if (QUORUM.test(path)) {
    const text = utf8(data);
    if (!text?.startsWith('version: ')) return rawDecoded('clickhouse', 'ClickHouse', t('ClickHouse insert quorum'), t('no "version:" header'), t);
    const { pairs, other } = keyValues(text);
    const get = (key: string) => pairs.find(([k]) => k === key)?.[1];
    const fields: DecodedField[] = [...pairs.map(([label, value]) => ({ label, value }))];
    const replicas = other.filter((l) => l !== 'replicas:');
    if (replicas.length) fields.push({ label: 'replicas', value: String(replicas.length), children: replicas.map((r, i) => ({ label: String(i), value: r })) });
    return base(t('ClickHouse insert quorum'), t('part {0} · {1} of {2} replicas', get('part_name') ?? '?', get('actual_number_of_replicas') ?? '?', get('required_number_of_replicas') ?? '?'), fields, 'organization');
  }
  return undefined;
}

export const clickhouseDecoder: SystemDecoder = {
  system: 'clickhouse',
  claims: (path) => PATTERNS.some((p) => p.test(path)),
  decode,
};
