// SolrCloud: live_nodes/<host:port_context> (ephemeral, empty), collections/<c>/state.json and the legacy
// clusterstate.json (collection → shards → replicas), and the Overseer's election (overseer_elect/leader holds
// {"id": "<session>-<node>-n_<seq>"}). Formats: the Solr Reference Guide's "ZooKeeper" and "Cluster and Node
// Management" pages and Solr's ZkStateReader/DocCollection/OverseerElectionContext field names.
import { isObject, JsonObject, jsonObject, rawDecoded, rows, show, str } from './decoding';
import type { Decoded, SystemDecoder, DecodedField, Translate } from './types';

const LIVE_NODE = /(?:^|\/)live_nodes\/([^/]+)$/;
const STATE = /(?:^|\/)collections\/([^/]+)\/state\.json$/;
const CLUSTER_STATE = /(?:^|\/)clusterstate\.json$/;
const OVERSEER_LEADER = /(?:^|\/)overseer_elect\/leader$/;
const OVERSEER_CANDIDATE = /(?:^|\/)overseer_elect\/election\/([^/]+-n_\d{10})$/;
const PATTERNS = [LIVE_NODE, STATE, CLUSTER_STATE, OVERSEER_LEADER, OVERSEER_CANDIDATE];

const base = (role: string, summary: string, fields: DecodedField[], icon: string): Decoded =>
  ({ system: 'solr', systemName: 'Solr', role, summary, fields, icon });

/** `host:8983_solr` → `host:8983/solr` (Solr writes the context's slashes as underscores). */
const nodeAddress = (name: string) => name.replace(/_/, '/');

/** A collection's shards and replicas as groups, and counts for the summary. */
function collection(name: string, json: JsonObject, t: Translate): { fields: DecodedField; summary: string } {
  const shards = isObject(json.shards) ? Object.entries(json.shards).slice(0, 1000) : [];
  let replicas = 0;
  let active = 0;
  const shardFields = shards.map(([shard, value]): DecodedField => {
    const s = isObject(value) ? value : {};
    const reps = isObject(s.replicas) ? Object.entries(s.replicas).slice(0, 1000) : [];
    return {
      label: shard, value: [str(s.state), str(s.range)].filter(Boolean).join(' · '),
      children: reps.map(([core, r]) => {
        const rep = isObject(r) ? r : {};
        replicas++;
        if (rep.state === 'active') active++;
        return { label: core, value: [show(rep.node_name), show(rep.state), show(rep.type), rep.leader === 'true' ? 'leader' : ''].filter(Boolean).join(' · ') };
      }),
    };
  });
  return { fields: { label: name, value: t('{0} shards', shards.length), children: shardFields }, summary: t('{0} shards · {1} of {2} replicas active', shards.length, active, replicas) };
}

function decode(path: string, data: Uint8Array, t: Translate): Decoded | undefined {
  let m: RegExpExecArray | null;
  if ((m = LIVE_NODE.exec(path))) {
    if (data.length || !/:\d+_/.test(m[1])) return undefined; // Solr's live nodes are empty and named host:port_context
    return base(t('Solr live node'), nodeAddress(m[1]), [{ label: 'node_name', value: m[1] }], 'vm-running');
  }
  if ((m = OVERSEER_CANDIDATE.exec(path))) {
    const id = m[1];
    const node = /^\d+-(.+)-n_\d{10}$/.exec(id)?.[1];
    if (!node) return undefined;
    return { ...base(t('Solr Overseer candidate'), nodeAddress(node), rows([['id', id], ['node_name', node]]), 'person'), election: 'candidate' };
  }
  const json = jsonObject(data);
  if ((m = OVERSEER_LEADER.exec(path))) {
    const id = json && str(json.id);
    if (!id) return rawDecoded('solr', 'Solr', t('Solr Overseer leader'), t('not {"id": …} JSON'), t);
    const node = /^\d+-(.+)-n_\d{10}$/.exec(id)?.[1] ?? id;
    return { ...base(t('Solr Overseer leader'), nodeAddress(node), rows([['id', id], ['node_name', node]]), 'star-full'), election: 'leader' };
  }
  const state = STATE.exec(path);
  if (state || CLUSTER_STATE.test(path)) {
    const role = state ? t('Solr collection state') : t('Solr cluster state (legacy)');
    if (!json) return data.length ? rawDecoded('solr', 'Solr', role, t('not a JSON object'), t) : undefined;
    const collections = Object.entries(json).filter(([, v]) => isObject(v) && isObject(v.shards)).slice(0, 1000);
    if (!collections.length && Object.keys(json).length) return rawDecoded('solr', 'Solr', role, t('no collection with shards'), t);
    const decoded = collections.map(([name, v]) => collection(name, v as JsonObject, t));
    const summary = decoded.length === 1 ? decoded[0].summary : t('{0} collections', decoded.length);
    return base(role, summary, decoded.map((d) => d.fields), 'database');
  }
  return undefined;
}

export const solrDecoder: SystemDecoder = {
  system: 'solr',
  claims: (path) => PATTERNS.some((p) => p.test(path)),
  decode,
};
