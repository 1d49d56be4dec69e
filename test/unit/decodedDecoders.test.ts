// Each system's decoder on fixtures from its published format; what does not fit is raw with a reason or not
// recognised at all, never guessed from the path alone.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodeNode, decodedJson, mightDecode } from '../../src/zk/decoders';
import { bytes, fixtures, hbaseFramed, pb } from '../support/fixtures/decodedFixtures';

for (const f of fixtures) {
  test(`decodes ${f.name}`, () => {
    const decoded = decodeNode(f.path, f.data);
    assert.ok(decoded, 'not recognised');
    assert.equal(decoded.raw, undefined, decoded.raw?.reason);
    assert.equal(decoded.system, f.system);
    assert.equal(decoded.summary, f.summary);
    assert.equal(decoded.election, f.election);
    assert.ok(decoded.fields.length > 0 || f.system === 'solr');
  });
}

test('the fields carry what the system wrote (Kafka broker, HBase master, Dubbo parameters)', () => {
  const json = (name: string) => {
    const f = fixtures.find((x) => x.name === name)!;
    return decodedJson(decodeNode(f.path, f.data)!).fields;
  };
  assert.deepEqual(json('kafka broker v5').endpoints, { 0: 'PLAINTEXT://kafka1:9092' });
  assert.equal(json('hbase master').start_code, '1700000000123');
  assert.equal(json('hbase master').metadata, '12345@hm1.example');
  assert.equal((json('dubbo provider').parameters as Record<string, string>).methods, 'sayHello');
  assert.equal(json('hadoop elector lock').zkfcPort, '8019');
  assert.equal(json('clickhouse log entry').part_type, 'Compact');
  assert.deepEqual(json('clickhouse merge entry')['source parts'], { 0: 'all_0_0_0', 1: 'all_1_1_0' });
});

test('bytes that disagree with the path are not taken for the system', () => {
  // A node named "master" outside an HBase tree, without the 0xFF+PBUF framing: not HBase.
  assert.equal(decodeNode('/app/master', bytes('hello')), undefined);
  // Under /hbase, the same bytes are HBase's node shown raw, with the reason.
  const raw = decodeNode('/hbase/master', bytes('hello'));
  assert.equal(raw?.system, 'hbase');
  assert.match(raw?.raw?.reason ?? '', /0xFF/);
  // The framing without PBUF after the metadata.
  assert.match(decodeNode('/hbase/master', Uint8Array.from([0xff, 0, 0, 0, 1, 0x41, 0x58, 0x58, 0x58, 0x58]))?.raw?.reason ?? '', /PBUF/);
  // A metadata length larger than the data.
  assert.match(decodeNode('/hbase/master', Uint8Array.from([0xff, 0x7f, 0, 0, 0, 1, 2, 3, 4]))?.raw?.reason ?? '', /metadata length/);
  // A Kafka broker path holding something that is not a registration.
  assert.ok(decodeNode('/brokers/ids/3', bytes('[1,2]'))?.raw);
  // A ClickHouse log entry without its header.
  assert.ok(decodeNode('/t/log/log-0000000001', bytes('get\nall_1_1_0'))?.raw);
  // JSON whose id and name do not match the path is not a Curator instance.
  assert.equal(decodeNode('/discovery/orders/0b8c1f0e-5d3a-4a5e-9f0e-1c2d3e4f5a6b', bytes('{"name":"other","id":"x"}')), undefined);
  // A Solr live node with data, or a Dubbo child that is not a URL.
  assert.equal(decodeNode('/live_nodes/h:1_solr', bytes('x')), undefined);
  assert.equal(decodeNode('/dubbo/x/providers/plain-name', new Uint8Array()), undefined);
  // An ordinary node.
  assert.equal(decodeNode('/app/config', bytes('{"a":1}')), undefined);
});

test('hostile text stays data: markup, newlines and bidi characters come back unchanged in the fields', () => {
  const evil = '<img src=x onerror=alert(1)>](command:workbench.action.quit)\u202e';
  const m = decodeNode('/service/pg/leader', bytes(evil));
  assert.equal(m?.summary, `leader ${evil}`);
  const broker = decodeNode('/brokers/ids/1', bytes(JSON.stringify({ host: evil, port: 1, __proto__: { polluted: 1 } })));
  assert.equal(broker?.fields.find((f) => f.label === 'host')?.value, evil);
  const json = decodedJson(decodeNode('/service/pg/config', bytes('{"__proto__":{"polluted":1},"ttl":1}'))!);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.ok(Object.prototype.hasOwnProperty.call(json.fields, '__proto__'));
});

test('a Dubbo name with a broken percent escape is not decoded, and does not throw', () => {
  assert.equal(decodeNode('/dubbo/x/providers/dubbo%3A%2F%2F%E0%A4%A', new Uint8Array()), undefined);
});

test('the path pattern alone says which nodes are worth reading, before any bytes', () => {
  for (const f of fixtures) assert.ok(mightDecode(f.path), f.path);
  assert.equal(mightDecode('/app/config'), false);
  assert.equal(mightDecode('/queue/item-0000000001'), false);
});

test('the protobuf reader takes fixed32, fixed64 and repeated fields, and refuses group wire types', () => {
  const fixed = Uint8Array.from([(6 << 3) | 5, 1, 0, 0, 0, (7 << 3) | 1, 2, 0, 0, 0, 0, 0, 0, 0]);
  // Hadoop's reader ignores unknown fields; ours reads them without failing.
  const m = decodeNode('/hadoop-ha/ns/ActiveStandbyElectorLock', Uint8Array.from([...pb([1, 'ns'], [2, 'nn']), ...fixed]));
  assert.equal(m?.summary, 'active nn (ns)');
  assert.ok(decodeNode('/hadoop-ha/ns/ActiveStandbyElectorLock', Uint8Array.from([(1 << 3) | 3]))?.raw);
  assert.ok(decodeNode('/hbase/master', hbaseFramed('', Uint8Array.from([0x0a, 0x05, 0x01])))?.raw);
});
