// Patroni (PostgreSQL HA) with its ZooKeeper DCS: /<namespace>/<scope>/{leader, members/<name>, config, status,
// failover, sync, initialize, history}, the namespace being `service` unless configured. Formats: Patroni's
// patroni/dcs/__init__.py (Member, ClusterConfig, Failover, SyncState, TimelineHistory) and patroni/dcs/zookeeper.py.
// A member's lag is the leader's position (`status`, or `optime/leader` from Patroni before 2.1) less the member's
// `xlog_location`, as patroni/utils.py cluster_as_json computes it for `patronictl list`.
import { humanBytes, isObject, jsonObject, num, objectRows, rawDecoded, rows, show, str, utf8 } from './decoding';
import type { Decoded, DecodeContext, SystemDecoder, DecodedField, Translate } from './types';

const KEY = /(?:^|\/)service\/([^/]+)\/(leader|members\/[^/]+|config|status|failover|sync|initialize|history|optime\/leader)$/;

const LEADER_ROLES = new Set(['master', 'primary', 'standby_leader']);

/** An LSN as Patroni writes it (bytes since the WAL's start), or undefined for anything a lag could not trust. */
const lsnOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/** The key's directory (`/service/<scope>/`), from a path the pattern matched with `key`. */
const scopeDirectory = (path: string, key: string) => path.slice(0, path.length - key.length);

/**
 * The leader's last written position, as Patroni's ZooKeeper get_status reads it: `status`'s optime, or when there is
 * no status node the legacy `optime/leader`. Unknown (not read, not a number) is undefined: no lag is better than a guess.
 */
function leaderPosition(directory: string, context: DecodeContext | undefined): number | undefined {
  const status = context?.get(`${directory}status`);
  if (status === undefined) return undefined;
  if (status !== null) return lsnOf(jsonObject(status)?.optime);
  const optime = context?.get(`${directory}optime/leader`);
  const text = optime ? utf8(optime) : undefined;
  return text !== undefined && /^\d{1,16}$/.test(text) ? lsnOf(Number(text)) : undefined;
}

const base = (role: string, summary: string, fields: DecodedField[], icon: string): Decoded =>
  ({ system: 'patroni', systemName: 'Patroni', role, summary, fields, icon });

function member(scope: string, name: string, data: Uint8Array, t: Translate, leaderLsn: number | undefined): Decoded {
  const json = jsonObject(data);
  if (!json || (str(json.conn_url) === undefined && str(json.api_url) === undefined)) {
    return rawDecoded('patroni', 'Patroni', t('Patroni member'), t('not a member record (JSON with conn_url or api_url)'), t);
  }
  const role = str(json.role) ?? '?';
  const state = str(json.state) ?? '?';
  const lsn = num(json.xlog_location);
  const isLeader = LEADER_ROLES.has(role);
  const ownLsn = lsnOf(json.xlog_location);
  // The status is written every loop, the member key only when it changed: a member ahead of it has no lag.
  const lag = !isLeader && ownLsn !== undefined && leaderLsn !== undefined ? Math.max(0, leaderLsn - ownLsn) : undefined;
  const parts = [role, state];
  if (lag !== undefined) parts.push(t('lag {0}', humanBytes(lag)));
  else {
    if (json.timeline !== undefined) parts.push(t('timeline {0}', show(json.timeline)));
    if (lsn !== undefined) parts.push(t('LSN {0}', lsn));
  }
  const fields: DecodedField[] = rows([['scope', scope], ['member', name], ['role', role], ['state', state], ['conn_url', json.conn_url],
    ['api_url', json.api_url], ['version', json.version], ['timeline', json.timeline], ['xlog_location', lsn],
    ['lag', lag], ['leader_optime', lag === undefined ? undefined : leaderLsn], ['replication_state', json.replication_state],
    ['pending_restart', json.pending_restart], ['scheduled_restart', json.scheduled_restart]]);
  if (isObject(json.tags)) fields.push({ label: 'tags', value: '', children: objectRows(json.tags) });
  return base(t('Patroni member'), parts.join(' · '), fields, isLeader ? 'star-full' : 'database');
}

function decode(path: string, data: Uint8Array, t: Translate, context?: DecodeContext): Decoded | undefined {
  const m = KEY.exec(path);
  if (!m) return undefined;
  const [, scope, key] = m;
  if (key.startsWith('members/')) return member(scope, key.slice('members/'.length), data, t, leaderPosition(scopeDirectory(path, key), context));
  const text = utf8(data);
  if (text === undefined) return rawDecoded('patroni', 'Patroni', t('Patroni key'), t('not UTF-8 text'), t);
  if (key === 'leader') {
    // The leader key holds the leader member's name; it is ephemeral (the session is the lease).
    if (!text || text.includes('\n') || text.startsWith('{')) return rawDecoded('patroni', 'Patroni', t('Patroni leader'), t('not a member name'), t);
    return { ...base(t('Patroni leader'), t('leader {0}', text), rows([['scope', scope], ['leader', text]]), 'star-full'), election: 'leader' };
  }
  if (key === 'initialize') {
    if (!/^\d+$/.test(text)) return rawDecoded('patroni', 'Patroni', t('Patroni initialize key'), t('not a system identifier'), t);
    return base(t('Patroni initialize key'), t('system identifier {0}', text), rows([['scope', scope], ['sysid', text]]), 'key');
  }
  if (key === 'optime/leader') {
    if (!/^\d+$/.test(text)) return rawDecoded('patroni', 'Patroni', t('Patroni leader optime'), t('not a number'), t);
    return base(t('Patroni leader optime'), t('LSN {0}', text), rows([['optime', text]]), 'history');
  }
  if (key === 'history') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return rawDecoded('patroni', 'Patroni', t('Patroni timeline history'), t('not JSON'), t);
    }
    if (!Array.isArray(value)) return rawDecoded('patroni', 'Patroni', t('Patroni timeline history'), t('not a JSON array'), t);
    const entries = value.filter(Array.isArray).slice(-200);
    return base(t('Patroni timeline history'), t('{0} timelines', entries.length),
      entries.map((e: unknown[]) => ({ label: show(e[0]), value: e.slice(1).map(show).join(' · ') })), 'history');
  }
  const json = jsonObject(data);
  const roles: Record<string, string> = { config: t('Patroni dynamic configuration'), status: t('Patroni status'), failover: t('Patroni failover request'), sync: t('Patroni synchronous replication state') };
  const role = roles[key];
  if (!json) return rawDecoded('patroni', 'Patroni', role, t('not a JSON object'), t);
  let summary: string;
  if (key === 'config') summary = t('ttl {0} · loop_wait {1}', show(json.ttl ?? '?'), show(json.loop_wait ?? '?'));
  else if (key === 'status') summary = t('optime {0}', show(json.optime ?? '?'));
  else if (key === 'failover') summary = t('from {0} to {1}', show(json.leader ?? '?'), show(json.member ?? json.candidate ?? '?'));
  else summary = t('leader {0} · sync standby {1}', show(json.leader ?? '?'), show(json.sync_standby ?? '-'));
  return base(role, summary, [{ label: 'scope', value: scope }, ...objectRows(json)], key === 'config' ? 'settings-gear' : key === 'sync' ? 'sync' : 'info');
}

export const patroniDecoder: SystemDecoder = {
  system: 'patroni',
  claims: (path) => KEY.test(path),
  contextPaths(path) {
    const key = KEY.exec(path)?.[2];
    if (!key?.startsWith('members/')) return [];
    const directory = scopeDirectory(path, key);
    return [`${directory}status`, `${directory}optime/leader`];
  },
  decode,
};
