import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { looksLikeLockQueue } from '../../src/zk/analysis';
import { participantsOf, QueueNode } from '../../src/zk/analysis/queueRules';
import { parseName, recognizeQueue } from '../../src/zk/analysis/recipes';
import { curatorSemaphore, kazooSemaphore } from '../../src/zk/analysis/semaphores';

const seq = (n: number) => String(n).padStart(10, '0');
const uuid = (c: string) => `${c.repeat(8)}-${c.repeat(4)}-${c.repeat(4)}-${c.repeat(4)}-${c.repeat(12)}`;
const hex32 = (c: string) => c.repeat(32);

/** Nodes in the (arbitrary) order the server lists them; owner = a distinct session per name unless given. */
function nodes(dir: string, names: string[], owners: Record<string, bigint> = {}): QueueNode[] {
  return names.map((name, i) => ({ name, path: `${dir}/${name}`, ctime: 1000 + i, owner: owners[name] ?? BigInt(0x100 + i), data: Buffer.from(name.slice(0, 4)) }));
}

function analyse(dir: string, names: string[], owners: Record<string, bigint> = {}) {
  const recognition = recognizeQueue(names, dir);
  assert.ok(recognition, `not recognised: ${names.join(', ')}`);
  const participants = participantsOf(recognition.recipe, recognition.family, nodes(dir, names, owners));
  return { recipe: recognition.recipe, participants, order: participants.map((p) => p.name), roles: participants.map((p) => p.role), waits: participants.map((p) => p.waitsFor.map((w) => w.slice(dir.length + 1))) };
}

describe('recognising queues from child names', () => {
  const cases: [string, string[], string][] = [
    ['curator mutex', [`_c_${uuid('a')}-lock-${seq(1)}`, `_c_${uuid('b')}-lock-${seq(0)}`], 'curator-mutex'],
    ['curator read/write', [`_c_${uuid('a')}-__READ__${seq(1)}`, `_c_${uuid('b')}-__WRIT__${seq(0)}`], 'curator-rwlock'],
    ['curator leader latch', [`_c_${uuid('a')}-latch-${seq(3)}`], 'curator-leader-latch'],
    ['curator semaphore lease dir', [`_c_${uuid('a')}-lease-${seq(3)}`], 'curator-semaphore'],
    ['curator semaphore parent', ['leases', 'locks'], 'curator-semaphore'],
    ['kazoo lock', [`${hex32('a')}__lock__${seq(0)}`], 'kazoo-lock'],
    ['kazoo read/write', [`${hex32('a')}__lock__${seq(0)}`, `${hex32('b')}__rlock__${seq(1)}`], 'kazoo-rwlock'],
    ['kazoo semaphore', [hex32('a'), hex32('b')], 'kazoo-semaphore'],
    ['ZooKeeper WriteLock', [`x-72057594037927936-${seq(0)}`, `x-72057594037927937-${seq(1)}`], 'zk-write-lock'],
    ['ZooKeeper LeaderElectionSupport', [`n_${seq(0)}`, `n_${seq(1)}`], 'zk-leader-election'],
    ['go-zookeeper', [`_c_${hex32('d')}-lock-${seq(0)}`], 'go-zookeeper-lock'],
    ['Solr election', [`72057594037927936-127.0.0.1:8983_solr-n_${seq(0)}`, `72057594037927937-core_node2-n_${seq(1)}`], 'solr-election'],
    ['plain lock', [`lock-${seq(0)}`, `lock-${seq(1)}`], 'plain-lock'],
    ['plain guid lock', [`f00d-lock-${seq(0)}`], 'plain-lock'],
    ['plain read/write', [`read-${seq(0)}`, `write-${seq(1)}`], 'plain-rwlock'],
    ['unknown sequential', [`job-${seq(0)}`, `job-${seq(1)}`], 'unknown'],
  ];
  for (const [what, names, recipe] of cases) {
    test(what, () => assert.equal(looksLikeLockQueue(names), recipe));
  }

  test('elections are told from locks by the path where names are the same', () => {
    const names = [`_c_${uuid('a')}-lock-${seq(0)}`];
    assert.equal(recognizeQueue(names, '/app/leader')?.recipe, 'curator-leader-selector');
    assert.equal(recognizeQueue(names, '/app/mutex')?.recipe, 'curator-mutex');
    assert.equal(recognizeQueue([`${hex32('a')}__lock__${seq(0)}`], '/svc/election')?.recipe, 'kazoo-election');
  });

  test('kazoo semaphore leases whose uuid ends in ten digits are leases, not sequential names', () => {
    // uuid4().hex ends in ten decimal digits about once in a hundred leases.
    const digitTail = (c: string, tail: string) => `${c.repeat(22)}${tail}`;
    assert.equal(looksLikeLockQueue([digitTail('a', '0123456789')]), 'kazoo-semaphore');
    assert.equal(looksLikeLockQueue([hex32('b'), digitTail('c', '9876543210')]), 'kazoo-semaphore');
    assert.equal(looksLikeLockQueue([digitTail('d', '1111111111'), digitTail('e', '2222222222')]), 'kazoo-semaphore');
    // One 22-digit hex prefix with sequence numbers after it is a queue of sequential names.
    assert.equal(looksLikeLockQueue([digitTail('f', seq(0)), digitTail('f', seq(1))]), 'unknown');
  });

  test('ordinary folders are not queues', () => {
    assert.equal(looksLikeLockQueue([]), undefined);
    assert.equal(looksLikeLockQueue(['config', 'brokers', 'topics']), undefined);
    assert.equal(looksLikeLockQueue(['a', 'b', 'c', `job-${seq(1)}`]), undefined);
  });

  test('a child with no sequence number sorted after the contenders is no participant; one a client would wait on stays', () => {
    const plain = analyse('/l', [`f00d-lock-${seq(1)}`, 'sub-queue', `beef-lock-${seq(0)}`, 'config']);
    assert.deepEqual(plain.order, [`beef-lock-${seq(0)}`, `f00d-lock-${seq(1)}`]);
    // Curator sorts a name without its marker by the whole name: '00-early' comes before '0000000001' ('-' < '0').
    const first = '00-early';
    const curator = analyse('/c', [`_c_${uuid('a')}-lock-${seq(1)}`, first, `_c_${uuid('b')}-lock-${seq(2)}`, 'zz-folder']);
    assert.deepEqual(curator.order, [first, `_c_${uuid('a')}-lock-${seq(1)}`, `_c_${uuid('b')}-lock-${seq(2)}`]);
    assert.deepEqual(curator.waits[1], [first]);
  });

  test('sequence numbers, negative after overflow, and GUIDs are parsed', () => {
    assert.deepEqual(parseName(`_c_${uuid('a')}-lock-${seq(42)}`)?.sequence, 42);
    assert.equal(parseName(`lock--000000005`)?.sequence, -5);
    assert.equal(parseName(`x-123-${seq(7)}`)?.guid, '123');
    assert.equal(parseName(`${hex32('e')}__rlock__${seq(7)}`)?.kind, 'read');
  });
});

describe('queue order, roles and waits-for under each library', () => {
  test('Curator mutex orders by the number after the lock name, not the random prefix', () => {
    const names = [`_c_${uuid('f')}-lock-${seq(0)}`, `_c_${uuid('0')}-lock-${seq(2)}`, `_c_${uuid('8')}-lock-${seq(1)}`];
    const r = analyse('/m', names);
    assert.deepEqual(r.order, [names[0], names[2], names[1]]);
    assert.deepEqual(r.roles, ['holder', 'waiter', 'waiter']);
    assert.deepEqual(r.waits, [[], [names[0]], [names[2]]]);
    assert.deepEqual(r.participants.map((p) => p.position), [0, 1, 2]);
  });

  test('Curator read/write: readers share until the first writer; a reader behind writers waits for the FIRST one', () => {
    const r1 = `_c_${uuid('1')}-__READ__${seq(0)}`;
    const r2 = `_c_${uuid('2')}-__READ__${seq(1)}`;
    const w3 = `_c_${uuid('3')}-__WRIT__${seq(2)}`;
    const w4 = `_c_${uuid('4')}-__WRIT__${seq(3)}`;
    const r5 = `_c_${uuid('0')}-__READ__${seq(4)}`;
    const r = analyse('/rw', [r5, w4, r2, w3, r1]);
    assert.equal(r.recipe, 'curator-rwlock');
    assert.deepEqual(r.order, [r1, r2, w3, w4, r5]);
    assert.deepEqual(r.roles, ['holder', 'holder', 'waiter', 'waiter', 'waiter']);
    assert.deepEqual(r.waits, [[], [], [r2], [w3], [w3]]);
    assert.deepEqual(r.participants.map((p) => p.kind), ['read', 'read', 'write', 'write', 'read']);
  });

  test('Curator read lock taken by the write-lock holder reuses its number and holds with it', () => {
    const w = `_c_${uuid('9')}-__WRIT__${seq(5)}`;
    const rOwn = `_c_${uuid('1')}-__READ__${seq(5)}`;
    const rOther = `_c_${uuid('2')}-__READ__${seq(6)}`;
    const r = analyse('/rw', [rOther, rOwn, w], { [w]: 7n, [rOwn]: 7n, [rOther]: 8n });
    assert.deepEqual(r.order, [w, rOwn, rOther]);
    assert.deepEqual(r.roles, ['holder', 'holder', 'waiter']);
    assert.deepEqual(r.waits[2], [w]);
    assert.equal(r.participants[0].sequence, r.participants[1].sequence);
  });

  test('kazoo read/write: a reader waits for the NEAREST earlier writer, a writer for its predecessor of any kind', () => {
    const w0 = `${hex32('f')}__lock__${seq(0)}`;
    const r1 = `${hex32('a')}__rlock__${seq(1)}`;
    const w2 = `${hex32('0')}__lock__${seq(2)}`;
    const r3 = `${hex32('b')}__rlock__${seq(3)}`;
    const r = analyse('/k', [r3, w2, r1, w0]);
    assert.equal(r.recipe, 'kazoo-rwlock');
    assert.deepEqual(r.order, [w0, r1, w2, r3]);
    assert.deepEqual(r.roles, ['holder', 'waiter', 'waiter', 'waiter']);
    assert.deepEqual(r.waits, [[], [w0], [r1], [w2]]);
  });

  test('kazoo ignores names without its markers: they sort last and are nobody\'s predecessor', () => {
    const a = `${hex32('a')}__lock__${seq(1)}`;
    const foreign = `lock-${seq(0)}`;
    const b = `${hex32('b')}__lock__${seq(2)}`;
    const r = analyse('/k', [b, foreign, a]);
    assert.deepEqual(r.order, [a, b, foreign]);
    assert.deepEqual(r.waits.slice(0, 2), [[], [a]]);
    assert.equal(r.roles[0], 'holder');
  });

  test('ZooKeeper WriteLock orders by sequence whatever the session id in the name', () => {
    const names = [`x-99-${seq(3)}`, `x-5-${seq(1)}`, `x-72057594037927936-${seq(2)}`];
    const r = analyse('/w', names);
    assert.deepEqual(r.order, [names[1], names[2], names[0]]);
    assert.deepEqual(r.waits, [[], [names[1]], [names[2]]]);
  });

  test('elections: the lowest leads, every other candidate watches its predecessor', () => {
    const r = analyse('/e', [`n_${seq(9)}`, `n_${seq(4)}`, `n_${seq(7)}`]);
    assert.deepEqual(r.roles, ['leader', 'waiter', 'waiter']);
    assert.deepEqual(r.participants.map((p) => p.kind), ['candidate', 'candidate', 'candidate']);
    assert.deepEqual(r.waits, [[], [`n_${seq(4)}`], [`n_${seq(7)}`]]);
    const solr = analyse('/collections/c/leader_elect/shard1/election', [`2-core_node2-n_${seq(1)}`, `1-core_node1-n_${seq(0)}`]);
    assert.equal(solr.recipe, 'solr-election');
    assert.deepEqual(solr.order, [`1-core_node1-n_${seq(0)}`, `2-core_node2-n_${seq(1)}`]);
  });

  test('plain read/write: a reader waits for the nearest earlier writer; numeric order past overflow', () => {
    const r = analyse('/p', [`write-${seq(3)}`, `read-${seq(2)}`, `read-${seq(4)}`, `write--000000001`]);
    assert.deepEqual(r.order, [`write--000000001`, `read-${seq(2)}`, `write-${seq(3)}`, `read-${seq(4)}`]);
    assert.deepEqual(r.roles, ['holder', 'waiter', 'waiter', 'waiter']);
    assert.deepEqual(r.waits, [[], [`write--000000001`], [`read-${seq(2)}`], [`write-${seq(3)}`]]);
  });

  test('go-zookeeper and unknown queues order by sequence number', () => {
    const go = analyse('/g', [`_c_${hex32('0')}-lock-${seq(5)}`, `_c_${hex32('f')}-lock-${seq(4)}`]);
    assert.equal(go.recipe, 'go-zookeeper-lock');
    assert.deepEqual(go.order, [`_c_${hex32('f')}-lock-${seq(4)}`, `_c_${hex32('0')}-lock-${seq(5)}`]);
    const unknown = analyse('/u', [`zz-${seq(2)}`, `aa-${seq(10)}`, `mm-${seq(1)}`]);
    assert.equal(unknown.recipe, 'unknown');
    assert.deepEqual(unknown.order, [`mm-${seq(1)}`, `zz-${seq(2)}`, `aa-${seq(10)}`]);
  });

  test('data becomes a label: printable text as is, binary as hex', () => {
    const [p] = participantsOf('zk-write-lock', 'zk-write-lock', [{ name: `x-1-${seq(0)}`, path: `/w/x-1-${seq(0)}`, ctime: 1, owner: 5n, data: Buffer.from([0x12, 0x34]) }]);
    assert.equal(p.label, '0x1234');
    const [q] = participantsOf('plain-lock', 'plain', [{ name: `lock-${seq(0)}`, path: `/p/lock-${seq(0)}`, ctime: 1, owner: 5n, data: Buffer.from('10.0.0.7') }]);
    assert.equal(q.label, '10.0.0.7');
    assert.equal(q.session, '0x5');
  });
});

describe('semaphores', () => {
  test('Curator: leases hold; the internal-lock holder\'s lease waits for them; the rest queue on the internal lock', () => {
    const lease = (c: string, n: number) => `_c_${uuid(c)}-lease-${seq(n)}`;
    const lock = (c: string, n: number) => `_c_${uuid(c)}-lock-${seq(n)}`;
    const leases = nodes('/s/leases', [lease('c', 2), lease('a', 0), lease('b', 1)], { [lease('a', 0)]: 1n, [lease('b', 1)]: 2n, [lease('c', 2)]: 3n });
    const locks = nodes('/s/locks', [lock('e', 5), lock('d', 4)], { [lock('d', 4)]: 3n, [lock('e', 5)]: 4n });
    const sem = curatorSemaphore('/s/leases', leases, locks);
    assert.deepEqual(sem.participants.map((p) => [p.name, p.role]), [
      [lease('a', 0), 'holder'], [lease('b', 1), 'holder'], [lease('c', 2), 'waiter'], [lock('e', 5), 'waiter'],
    ]);
    assert.equal(sem.leases, 2);
    assert.deepEqual(sem.participants[2].waitsFor, [`/s/leases/${lease('a', 0)}`, `/s/leases/${lease('b', 1)}`]);
    assert.deepEqual(sem.participants[3].waitsFor, [`/s/locks/${lock('d', 4)}`]);
    assert.equal(sem.next, `/s/leases/${lease('c', 2)}`);
  });

  test('kazoo: lease nodes hold, the lock holder without a lease waits for one', () => {
    const leases = nodes('/k', [hex32('a'), hex32('b')], { [hex32('a')]: 1n, [hex32('b')]: 2n });
    const locks = nodes('/k-__lock__', [`${hex32('d')}__lock__${seq(1)}`, `${hex32('c')}__lock__${seq(0)}`], { [`${hex32('c')}__lock__${seq(0)}`]: 3n, [`${hex32('d')}__lock__${seq(1)}`]: 4n });
    const sem = kazooSemaphore('/k', leases, locks, 2);
    assert.deepEqual(sem.participants.map((p) => p.role), ['holder', 'holder', 'waiter', 'waiter']);
    assert.equal(sem.participants[2].name, `${hex32('c')}__lock__${seq(0)}`);
    assert.equal(sem.participants[2].waitsFor.length, 2);
    assert.deepEqual(sem.participants[3].waitsFor, [`/k-__lock__/${hex32('c')}__lock__${seq(0)}`]);
    assert.equal(sem.leases, 2);
  });
});
