// Kafka (ZooKeeper mode): broker registrations, the controller, topics and partition state, admin requests and
// dynamic configs. Formats: Kafka's kafka.zk.ZkData (BrokerIdZNode versions 1–5, ControllerZNode,
// TopicZNode, TopicPartitionStateZNode, ReassignPartitionsZNode, ConfigEntityZNode) and the "ZooKeeper" section of
// Kafka's documentation. A chroot (`/kafka/brokers/…`) is allowed: the match is on the path's tail.
import { hostPort, isObject, JsonObject, jsonObject, num, objectRows, rawDecoded, rows, show, str, strOrNum, utf8 } from './decoding';
import type { Decoded, SystemDecoder, DecodedField, Translate } from './types';

const BROKER = /(?:^|\/)brokers\/ids\/(\d+)$/;
const CONTROLLER = /(?:^|\/)controller$/;
const CONTROLLER_EPOCH = /(?:^|\/)controller_epoch$/;
const TOPIC = /(?:^|\/)brokers\/topics\/([^/]+)$/;
const PARTITION_STATE = /(?:^|\/)brokers\/topics\/([^/]+)\/partitions\/(\d+)\/state$/;
const ADMIN = /(?:^|\/)admin\/(reassign_partitions|preferred_replica_election|delete_topics\/[^/]+)$/;
const CONFIG = /(?:^|\/)config\/(topics|brokers|users|clients|ips|changes)\/([^/]+)$/;
const PATTERNS = [BROKER, CONTROLLER, CONTROLLER_EPOCH, TOPIC, PARTITION_STATE, ADMIN, CONFIG];

const base = (role: string, summary: string, fields: DecodedField[], icon: string): Decoded =>
  ({ system: 'kafka', systemName: 'Kafka', role, summary, fields, icon });

function broker(id: string, json: JsonObject, t: Translate): Decoded | undefined {
  const endpoints = Array.isArray(json.endpoints) ? json.endpoints.filter((e): e is string => typeof e === 'string') : [];
  const host = str(json.host);
  const port = num(json.port);
  if (!endpoints.length && host === undefined) return undefined;
  const where = endpoints[0]?.replace(/^[^:]*:\/\//, '') ?? hostPort(host ?? '', port);
  const rack = str(json.rack);
  const fields: DecodedField[] = [
    { label: 'broker.id', value: id },
    ...rows([['version', json.version], ['host', host], ['port', port], ['jmx_port', json.jmx_port], ['rack', rack], ['timestamp', json.timestamp]]),
  ];
  if (endpoints.length) fields.push({ label: 'endpoints', value: String(endpoints.length), children: endpoints.map((e, i) => ({ label: String(i), value: e })) });
  if (isObject(json.listener_security_protocol_map)) fields.push({ label: 'listener_security_protocol_map', value: '', children: objectRows(json.listener_security_protocol_map) });
  if (isObject(json.features)) fields.push({ label: 'features', value: '', children: objectRows(json.features) });
  return base(t('Kafka broker'), rack ? t('broker {0} · {1} · rack {2}', id, where, rack) : t('broker {0} · {1}', id, where), fields, 'server');
}

function partitionState(topic: string, partition: string, json: JsonObject, t: Translate): Decoded | undefined {
  const leader = num(json.leader);
  if (leader === undefined || !Array.isArray(json.isr)) return undefined;
  const isr = json.isr.map(show).join(',');
  const fields = rows([['topic', topic], ['partition', partition], ['leader', leader], ['leader_epoch', json.leader_epoch], ['isr', `[${isr}]`],
    ['controller_epoch', json.controller_epoch], ['version', json.version], ['leader_recovery_state', json.leader_recovery_state]]);
  const summary = leader === -1 ? t('no leader · ISR [{0}]', isr) : t('leader {0} · ISR [{1}]', leader, isr);
  return base(t('Kafka partition state'), summary, fields, 'symbol-number');
}

function topic(name: string, json: JsonObject, t: Translate): Decoded | undefined {
  if (!isObject(json.partitions)) return undefined;
  const partitions = Object.entries(json.partitions);
  const fields: DecodedField[] = [
    ...rows([['topic', name], ['version', json.version], ['topic_id', json.topic_id]]),
    { label: 'partitions', value: String(partitions.length), children: partitions.slice(0, 1000).map(([p, replicas]) => ({ label: p, value: show(replicas) })) },
  ];
  for (const key of ['adding_replicas', 'removing_replicas']) {
    if (isObject(json[key]) && Object.keys(json[key]).length) fields.push({ label: key, value: '', children: objectRows(json[key]) });
  }
  return base(t('Kafka topic'), t('{0} partitions', partitions.length), fields, 'symbol-namespace');
}

function decode(path: string, data: Uint8Array, t: Translate): Decoded | undefined {
  if (CONTROLLER_EPOCH.test(path)) {
    const text = utf8(data)?.trim();
    if (text === undefined || !/^\d{1,10}$/.test(text)) return undefined;
    return base(t('Kafka controller epoch'), t('epoch {0}', text), [{ label: 'controller_epoch', value: text }], 'history');
  }
  const change = CONFIG.exec(path);
  const json = jsonObject(data);
  let match: RegExpExecArray | null;
  if ((match = BROKER.exec(path))) {
    return (json && broker(match[1], json, t)) ?? (data.length ? rawDecoded('kafka', 'Kafka', t('Kafka broker'), t('not a broker registration (JSON with host or endpoints)'), t) : undefined);
  }
  if (CONTROLLER.test(path)) {
    const id = json && num(json.brokerid);
    if (id === undefined || !json) return undefined;
    return { ...base(t('Kafka controller'), t('broker {0}', id), rows([['brokerid', id], ['version', json.version], ['timestamp', json.timestamp], ['kraftControllerEpoch', json.kraftControllerEpoch]]), 'star-full'), election: 'leader' };
  }
  if ((match = PARTITION_STATE.exec(path))) return json ? partitionState(match[1], match[2], json, t) : undefined;
  if ((match = TOPIC.exec(path))) return json ? topic(match[1], json, t) : undefined;
  if ((match = ADMIN.exec(path))) {
    if (match[1].startsWith('delete_topics/')) return base(t('Kafka topic deletion request'), match[1].slice('delete_topics/'.length), [], 'trash');
    if (!json || !Array.isArray(json.partitions)) return undefined;
    const parts = json.partitions.filter(isObject);
    const fields = parts.slice(0, 1000).map((p) => ({ label: `${show(p.topic)}-${show(p.partition)}`, value: show(p.replicas) }));
    const role = match[1] === 'reassign_partitions' ? t('Kafka partition reassignment') : t('Kafka preferred leader election');
    return base(role, t('{0} partitions', parts.length), fields, 'arrow-swap');
  }
  if (change && json) {
    const [, kind, entity] = change;
    if (kind === 'changes') {
      const entityPath = str(json.entity_path);
      return entityPath === undefined ? undefined : base(t('Kafka config change notification'), entityPath, rows([['entity_path', entityPath], ['version', json.version]]), 'bell');
    }
    if (!isObject(json.config)) return undefined;
    const entries = objectRows(json.config);
    return base(t('Kafka {0} config', kind), entries.map((e) => `${e.label}=${e.value}`).join(', ') || t('no overrides'),
      [...rows([['entity', entity], ['version', strOrNum(json.version)]]), { label: 'config', value: String(entries.length), children: entries }], 'settings-gear');
  }
  return undefined;
}

export const kafkaDecoder: SystemDecoder = {
  system: 'kafka',
  claims: (path) => PATTERNS.some((p) => p.test(path)),
  decode,
};
