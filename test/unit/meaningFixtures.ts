// Fixtures for the meaning decoders, built from each system's published format (named per fixture), with a small
// protobuf writer of our own for HBase and Hadoop.

const utf8 = (s: string) => new TextEncoder().encode(s);
export const bytes = (s: string): Uint8Array => utf8(s);

function varint(value: bigint | number): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? byte | 0x80 : byte);
  } while (v);
  return out;
}

/** A protobuf field: a number (varint), a string or bytes (length-delimited). */
export type PbField = [number, number | bigint | string | Uint8Array];
export function pb(...fields: PbField[]): Uint8Array {
  const out: number[] = [];
  for (const [n, v] of fields) {
    if (typeof v === 'number' || typeof v === 'bigint') out.push(...varint((n << 3) | 0), ...varint(v));
    else {
      const b = typeof v === 'string' ? utf8(v) : v;
      out.push(...varint((n << 3) | 2), ...varint(b.length), ...b);
    }
  }
  return Uint8Array.from(out);
}

/** HBase's framing (RecoverableZooKeeper.appendMetaData + ProtobufMagic): 0xFF, int32 length, metadata, "PBUF", message. */
export function hbaseFramed(metadata: string, message: Uint8Array): Uint8Array {
  const meta = utf8(metadata);
  const head = [0xff, (meta.length >>> 24) & 0xff, (meta.length >>> 16) & 0xff, (meta.length >>> 8) & 0xff, meta.length & 0xff];
  return Uint8Array.from([...head, ...meta, 0x50, 0x42, 0x55, 0x46, ...message]);
}

// HBase.proto ServerName { host_name = 1; port = 2; start_code = 3 }
const serverName = pb([1, 'hm1.example'], [2, 16000], [3, 1700000000123n]);

/** Every fixture: the path, the bytes, and what its meaning must say. */
export interface Fixture { name: string; path: string; data: Uint8Array; system: string; summary: string; election?: string }

export const fixtures: Fixture[] = [
  // Kafka ZkData.scala BrokerIdZNode version 5 (endpoints, listener map, rack) as in Kafka's ZooKeeper docs.
  { name: 'kafka broker v5', path: '/brokers/ids/1', system: 'kafka', summary: 'broker 1 · kafka1:9092 · rack r1',
    data: bytes('{"features":{},"listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT"},"endpoints":["PLAINTEXT://kafka1:9092"],"jmx_port":-1,"port":9092,"host":"kafka1","version":5,"timestamp":"1700000000000","rack":"r1"}') },
  // BrokerIdZNode version 1: host and port only.
  { name: 'kafka broker v1 under a chroot', path: '/kafka/brokers/ids/7', system: 'kafka', summary: 'broker 7 · old:9092',
    data: bytes('{"jmx_port":-1,"timestamp":"1","host":"old","version":1,"port":9092}') },
  // ControllerZNode: {"version":1,"brokerid":N,"timestamp":"…"}.
  { name: 'kafka controller', path: '/controller', system: 'kafka', summary: 'broker 2', election: 'leader',
    data: bytes('{"version":1,"brokerid":2,"timestamp":"1700000000000"}') },
  // ControllerEpochZNode: the epoch as decimal text.
  { name: 'kafka controller epoch', path: '/controller_epoch', system: 'kafka', summary: 'epoch 12', data: bytes('12') },
  // TopicZNode version 3: partitions → replicas.
  { name: 'kafka topic', path: '/brokers/topics/orders', system: 'kafka', summary: '2 partitions',
    data: bytes('{"partitions":{"0":[1,2],"1":[2,3]},"topic_id":"x1","adding_replicas":{},"removing_replicas":{},"version":3}') },
  // TopicPartitionStateZNode.
  { name: 'kafka partition state', path: '/brokers/topics/orders/partitions/0/state', system: 'kafka', summary: 'leader 1 · ISR [1,2]',
    data: bytes('{"controller_epoch":12,"leader":1,"version":1,"leader_epoch":4,"isr":[1,2]}') },
  // ReassignPartitionsZNode.
  { name: 'kafka reassignment', path: '/admin/reassign_partitions', system: 'kafka', summary: '1 partitions',
    data: bytes('{"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[1,3]}]}') },
  // ConfigEntityZNode: {"version":1,"config":{…}}.
  { name: 'kafka topic config', path: '/config/topics/orders', system: 'kafka', summary: 'cleanup.policy=compact',
    data: bytes('{"version":1,"config":{"cleanup.policy":"compact"}}') },
  // ClickHouse ReplicatedMergeTreeAddress::writeText.
  { name: 'clickhouse replica host', path: '/clickhouse/tables/01/db/t/replicas/r1/host', system: 'clickhouse', summary: 'replica r1 · ch1:9000',
    data: bytes('host: ch1\nport: 9009\ntcp_port: 9000\ndatabase: db\ntable: t\nscheme: http\n') },
  { name: 'clickhouse is_active', path: '/clickhouse/tables/01/db/t/replicas/r1/is_active', system: 'clickhouse', summary: 'replica r1 active',
    data: bytes('6b1f3c2a-0000-4000-8000-000000000001') },
  { name: 'clickhouse is_lost', path: '/clickhouse/tables/01/db/t/replicas/r2/is_lost', system: 'clickhouse', summary: 'replica r2 lost', data: bytes('1') },
  // ReplicatedMergeTreeLogEntryData::writeText, format version 4, a GET_PART entry.
  { name: 'clickhouse log entry', path: '/clickhouse/tables/01/db/t/log/log-0000000003', system: 'clickhouse', summary: 'get · all_3_3_0 · from r1',
    data: bytes('format version: 4\ncreate_time: 2026-11-26 01:02:03\nsource replica: r1\nblock_id: all_1_2\nget\nall_3_3_0\npart_type: Compact\n') },
  // A MERGE_PARTS entry: source parts, "into", the result.
  { name: 'clickhouse merge entry', path: '/clickhouse/tables/01/db/t/replicas/r1/queue/queue-0000000009', system: 'clickhouse', summary: 'merge · all_0_1_1 · from r1',
    data: bytes('format version: 4\ncreate_time: 2026-11-26 01:02:03\nsource replica: r1\nmerge\nall_0_0_0\nall_1_1_0\ninto\nall_0_1_1\ndeduplicate: 0\n') },
  { name: 'clickhouse leader election', path: '/clickhouse/tables/01/db/t/leader_election/leader_election-0000000001', system: 'clickhouse', summary: 'replica r1', election: 'candidate', data: bytes('r1') },
  { name: 'clickhouse block', path: '/clickhouse/tables/01/db/t/blocks/all_123_456', system: 'clickhouse', summary: 'part all_3_3_0', data: bytes('all_3_3_0') },
  // ReplicatedMergeTreeQuorumEntry::writeText.
  { name: 'clickhouse quorum', path: '/clickhouse/tables/01/db/t/quorum/status', system: 'clickhouse', summary: 'part all_4_4_0 · 1 of 2 replicas',
    data: bytes('version: 1\npart_name: all_4_4_0\nrequired_number_of_replicas: 2\nactual_number_of_replicas: 1\nreplicas:\nr1\n') },
  // Patroni Member.data as its REST API writes it to members/<name>.
  { name: 'patroni member', path: '/service/pg/members/pg1', system: 'patroni', summary: 'replica · streaming · timeline 2 · LSN 50331808',
    data: bytes('{"conn_url":"postgres://10.0.0.1:5432/postgres","api_url":"http://10.0.0.1:8008/patroni","state":"streaming","role":"replica","version":"3.0.2","xlog_location":50331808,"timeline":2}') },
  { name: 'patroni leader', path: '/service/pg/leader', system: 'patroni', summary: 'leader pg0', election: 'leader', data: bytes('pg0') },
  { name: 'patroni config', path: '/service/pg/config', system: 'patroni', summary: 'ttl 30 · loop_wait 10', data: bytes('{"ttl":30,"loop_wait":10,"retry_timeout":10}') },
  { name: 'patroni sync', path: '/service/pg/sync', system: 'patroni', summary: 'leader pg0 · sync standby pg1', data: bytes('{"leader":"pg0","sync_standby":"pg1"}') },
  // HBase ZooKeeper.proto Master { master = 1 (ServerName); rpc_version = 2; info_port = 3 }.
  { name: 'hbase master', path: '/hbase/master', system: 'hbase', summary: 'hm1.example:16000', election: 'leader',
    data: hbaseFramed('12345@hm1.example', pb([1, serverName], [2, 0], [3, 16010])) },
  { name: 'hbase backup master', path: '/hbase/backup-masters/hm2.example,16000,1700000000456', system: 'hbase', summary: 'hm1.example:16000', election: 'candidate',
    data: hbaseFramed('777@hm2.example', pb([1, serverName], [3, 16010])) },
  // ZooKeeper.proto MetaRegionServer { server = 1; rpc_version = 2; state = 3 (RegionState.State OPEN = 3) }.
  { name: 'hbase meta region server', path: '/hbase/meta-region-server', system: 'hbase', summary: 'hm1.example:16000 · OPEN',
    data: hbaseFramed('', pb([1, serverName], [2, 0], [3, 3])) },
  // HBase.proto RegionServerInfo { infoPort = 1; version_info = 2 (VersionInfo { version = 1; … }) }.
  { name: 'hbase region server', path: '/hbase/rs/rs1.example,16020,1700000000789', system: 'hbase', summary: 'rs1.example:16020 · version 2.5.5',
    data: hbaseFramed('1@rs1', pb([1, 16030], [2, pb([1, '2.5.5'], [2, 'u'], [3, 'abc'])])) },
  // Hadoop HAZKInfo.proto ActiveNodeInfo { nameserviceId = 1; namenodeId = 2; hostname = 3; port = 4; zkfcPort = 5 }.
  { name: 'hadoop elector lock', path: '/hadoop-ha/ns1/ActiveStandbyElectorLock', system: 'hadoop', summary: 'active nn1 · nn1.example:8020', election: 'lock',
    data: pb([1, 'ns1'], [2, 'nn1'], [3, 'nn1.example'], [4, 8020], [5, 8019]) },
  { name: 'hadoop breadcrumb', path: '/hadoop-ha/ns1/ActiveBreadCrumb', system: 'hadoop', summary: 'last active nn2 · nn2.example:8020',
    data: pb([1, 'ns1'], [2, 'nn2'], [3, 'nn2.example'], [4, 8020], [5, 8019]) },
  // Solr: live_nodes are empty, named host:port_context.
  { name: 'solr live node', path: '/solr/live_nodes/10.0.0.5:8983_solr', system: 'solr', summary: '10.0.0.5:8983/solr', data: new Uint8Array() },
  // Solr collections/<c>/state.json (DocCollection), as the Reference Guide shows it.
  { name: 'solr state.json', path: '/collections/books/state.json', system: 'solr', summary: '1 shards · 1 of 2 replicas active',
    data: bytes('{"books":{"pullReplicas":"0","replicationFactor":"2","router":{"name":"compositeId"},"shards":{"shard1":{"range":"80000000-7fffffff","state":"active","replicas":{"core_node2":{"core":"books_shard1_replica_n1","node_name":"10.0.0.5:8983_solr","state":"active","type":"NRT","leader":"true"},"core_node4":{"core":"books_shard1_replica_n3","node_name":"10.0.0.6:8983_solr","state":"down","type":"NRT"}}}}}}') },
  // OverseerElectionContext writes {"id": "<session>-<node>-n_<seq>"} to overseer_elect/leader.
  { name: 'solr overseer leader', path: '/overseer_elect/leader', system: 'solr', summary: '10.0.0.5:8983/solr', election: 'leader',
    data: bytes('{"id":"72057594037927936-10.0.0.5:8983_solr-n_0000000000"}') },
  // Dubbo registry: a provider's URL, percent-encoded, as the child's name (URL.encode(url.toFullString())).
  { name: 'dubbo provider', path: `/dubbo/com.example.DemoService/providers/${encodeURIComponent('dubbo://10.0.0.7:20880/com.example.DemoService?anyhost=true&application=demo&interface=com.example.DemoService&methods=sayHello&side=provider&version=1.0.0')}`,
    system: 'dubbo', summary: 'dubbo://10.0.0.7:20880 · demo v1.0.0', data: bytes('10.0.0.7') },
  // Curator JsonInstanceSerializer's ServiceInstance.
  { name: 'curator service instance', path: '/discovery/orders/0b8c1f0e-5d3a-4a5e-9f0e-1c2d3e4f5a6b', system: 'curator', summary: 'orders · 10.0.0.8:8080',
    data: bytes('{"name":"orders","id":"0b8c1f0e-5d3a-4a5e-9f0e-1c2d3e4f5a6b","address":"10.0.0.8","port":8080,"sslPort":null,"payload":null,"registrationTimeUTC":1700000000000,"serviceType":"DYNAMIC","uriSpec":{"parts":[{"value":"http://","variable":false},{"value":"address","variable":true}]}}') },
];
