// Each system's decoder on fixtures from its published format; what does not fit is raw with a reason or not
// recognised at all, never guessed from the path alone.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodeMeaning, meaningJson, mightHaveMeaning } from '../../src/zk/meaning';
import { bytes, fixtures, hbaseFramed, pb } from '../support/fixtures/meaningFixtures';

for (const f of fixtures) {
  test(`decodes ${f.name}`, () => {
    const meaning = decodeMeaning(f.path, f.data);
    assert.ok(meaning, 'not recognised');
    assert.equal(meaning.raw, undefined, meaning.raw?.reason);
    assert.equal(meaning.system, f.system);
    assert.equal(meaning.summary, f.summary);
    assert.equal(meaning.election, f.election);
    assert.ok(meaning.fields.length > 0 || f.system === 'solr');
  });
}

test('the fields carry what the system wrote (Kafka broker, HBase master, Dubbo parameters)', () => {
  const json = (name: string) => {
    const f = fixtures.find((x) => x.name === name)!;
    return meaningJson(decodeMeaning(f.path, f.data)!).fields;
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
  assert.equal(decodeMeaning('/app/master', bytes('hello')), undefined);
  // Under /hbase, the same bytes are HBase's node shown raw, with the reason.
  const raw = decodeMeaning('/hbase/master', bytes('hello'));
  assert.equal(raw?.system, 'hbase');
  assert.match(raw?.raw?.reason ?? '', /0xFF/);
  // The framing without PBUF after the metadata.
  assert.match(decodeMeaning('/hbase/master', Uint8Array.from([0xff, 0, 0, 0, 1, 0x41, 0x58, 0x58, 0x58, 0x58]))?.raw?.reason ?? '', /PBUF/);
  // A metadata length larger than the data.
  assert.match(decodeMeaning('/hbase/master', Uint8Array.from([0xff, 0x7f, 0, 0, 0, 1, 2, 3, 4]))?.raw?.reason ?? '', /metadata length/);
  // A Kafka broker path holding something that is not a registration.
  assert.ok(decodeMeaning('/brokers/ids/3', bytes('[1,2]'))?.raw);
  // A ClickHouse log entry without its header.
  assert.ok(decodeMeaning('/t/log/log-0000000001', bytes('get\nall_1_1_0'))?.raw);
  // JSON whose id and name do not match the path is not a Curator instance.
  assert.equal(decodeMeaning('/discovery/orders/0b8c1f0e-5d3a-4a5e-9f0e-1c2d3e4f5a6b', bytes('{"name":"other","id":"x"}')), undefined);
  // A Solr live node with data, or a Dubbo child that is not a URL.
  assert.equal(decodeMeaning('/live_nodes/h:1_solr', bytes('x')), undefined);
  assert.equal(decodeMeaning('/dubbo/x/providers/plain-name', new Uint8Array()), undefined);
  // An ordinary node.
  assert.equal(decodeMeaning('/app/config', bytes('{"a":1}')), undefined);
});

test('hostile text stays data: markup, newlines and bidi characters come back unchanged in the fields', () => {
  const evil = '<img src=x onerror=alert(1)>](command:workbench.action.quit)\u202e';
  const m = decodeMeaning('/service/pg/leader', bytes(evil));
  assert.equal(m?.summary, `leader ${evil}`);
  const broker = decodeMeaning('/brokers/ids/1', bytes(JSON.stringify({ host: evil, port: 1, __proto__: { polluted: 1 } })));
  assert.equal(broker?.fields.find((f) => f.label === 'host')?.value, evil);
  const json = meaningJson(decodeMeaning('/service/pg/config', bytes('{"__proto__":{"polluted":1},"ttl":1}'))!);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.ok(Object.prototype.hasOwnProperty.call(json.fields, '__proto__'));
});

test('a Dubbo name with a broken percent escape is not decoded, and does not throw', () => {
  assert.equal(decodeMeaning('/dubbo/x/providers/dubbo%3A%2F%2F%E0%A4%A', new Uint8Array()), undefined);
});

test('the path pattern alone says which nodes are worth reading, before any bytes', () => {
  for (const f of fixtures) assert.ok(mightHaveMeaning(f.path), f.path);
  assert.equal(mightHaveMeaning('/app/config'), false);
  assert.equal(mightHaveMeaning('/queue/item-0000000001'), false);
});

test('the protobuf reader takes fixed32, fixed64 and repeated fields, and refuses group wire types', () => {
  const fixed = Uint8Array.from([(6 << 3) | 5, 1, 0, 0, 0, (7 << 3) | 1, 2, 0, 0, 0, 0, 0, 0, 0]);
  // Hadoop's reader ignores unknown fields; ours reads them without failing.
  const m = decodeMeaning('/hadoop-ha/ns/ActiveStandbyElectorLock', Uint8Array.from([...pb([1, 'ns'], [2, 'nn']), ...fixed]));
  assert.equal(m?.summary, 'active nn (ns)');
  assert.ok(decodeMeaning('/hadoop-ha/ns/ActiveStandbyElectorLock', Uint8Array.from([(1 << 3) | 3]))?.raw);
  assert.ok(decodeMeaning('/hbase/master', hbaseFramed('', Uint8Array.from([0x0a, 0x05, 0x01])))?.raw);
});
