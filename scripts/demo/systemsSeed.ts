// Demo nodes of systems that keep their state in ZooKeeper, under <root>/systems, so the tree shows what they mean
// (src/zk/decoders). Each value has the shape the system itself writes (named per group); the hosts are invented.

const text = (value: string) => Buffer.from(value, 'utf8');
const json = (value: unknown) => text(JSON.stringify(value));

function kafkaNodes(): [string, Buffer][] {
  const broker = (id: number) => json({
    features: {}, listener_security_protocol_map: { PLAINTEXT: 'PLAINTEXT' }, endpoints: [`PLAINTEXT://kafka-${id}.demo:9092`],
    jmx_port: -1, port: 9092, host: `kafka-${id}.demo`, version: 5, timestamp: '1764115200000', rack: `rack-${id}`,
  });
  // Kafka's ZkData.scala: BrokerIdZNode v5, ControllerZNode, ControllerEpochZNode, TopicZNode v3, TopicPartitionStateZNode.
  return [
    ['kafka/brokers/ids/1', broker(1)], ['kafka/brokers/ids/2', broker(2)], ['kafka/brokers/ids/3', broker(3)],
    ['kafka/controller', json({ version: 1, brokerid: 2, timestamp: '1764115200000' })],
    ['kafka/controller_epoch', text('7')],
    ['kafka/brokers/topics/orders', json({ partitions: { 0: [1, 2], 1: [2, 3], 2: [3, 1] }, topic_id: 'hOJ1qz7dQ8yVf1bWbq0xXw', adding_replicas: {}, removing_replicas: {}, version: 3 })],
    ['kafka/brokers/topics/orders/partitions/0/state', json({ controller_epoch: 7, leader: 1, version: 1, leader_epoch: 4, isr: [1, 2] })],
  ];
}

function patroniNodes(): [string, Buffer][] {
  // Patroni's ZooKeeper DCS (/service/<scope>/…): member JSON, the leader's name, the dynamic config, the status.
  const member = (name: string, role: string, state: string, lsn: number) => json({
    conn_url: `postgres://${name}.demo:5432/postgres`, api_url: `http://${name}.demo:8008/patroni`, state, role,
    version: '3.0.2', xlog_location: lsn, timeline: 3,
  });
  return [
    ['patroni/service/orders-db/leader', text('pg-1')],
    ['patroni/service/orders-db/members/pg-1', member('pg-1', 'primary', 'running', 83_886_440)],
    ['patroni/service/orders-db/members/pg-2', member('pg-2', 'replica', 'streaming', 83_886_440)],
    ['patroni/service/orders-db/members/pg-3', member('pg-3', 'replica', 'streaming', 67_109_224)],
    ['patroni/service/orders-db/config', json({ ttl: 30, loop_wait: 10, retry_timeout: 10, maximum_lag_on_failover: 1_048_576 })],
    ['patroni/service/orders-db/status', json({ optime: 83_886_440, slots: {}, retain_slots: [] })],
  ];
}

function clickhouseNodes(): [string, Buffer][] {
  // ReplicatedMergeTree's replica files (StorageReplicatedMergeTree) and its leader election.
  const table = 'clickhouse/tables/01/shop/orders';
  const replica = (name: string, active: boolean): [string, Buffer][] => [
    [`${table}/replicas/${name}/host`, text(`host: ${name}.demo\nport: 9009\ntcp_port: 9000\ndatabase: shop\ntable: orders\nscheme: http\n`)],
    [`${table}/replicas/${name}/log_pointer`, text('42')],
    ...(active ? [[`${table}/replicas/${name}/is_active`, text('3f6c1b9e-5d2a-4c1e-9a57-0d9e2b7c4a11')] as [string, Buffer]] : []),
  ];
  return [...replica('ch-1', true), ...replica('ch-2', false), [`${table}/replicas/ch-2/is_lost`, text('0')]];
}

/** The demo's system nodes, relative to the demo root. */
export function systemNodes(): [string, Buffer][] {
  return [...kafkaNodes(), ...patroniNodes(), ...clickhouseNodes()].map(([relative, data]) => [`systems/${relative}`, data]);
}
