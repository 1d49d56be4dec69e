import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ZkSession } from '../../src/zk/session/session';
import { SearchMatch, SearchQuery, searchTree } from '../../src/zk/search/search';
import { mapBounded } from '../../src/zk/timeouts';
import { digestId, ZnodeWriter } from '../../src/zk/write';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';

describe('searching a subtree by path and by content against a real ZooKeeper', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  let other: OtherClient;

  before(async () => {
    zk = await startStandalone({ adminServer: false });
    session = new ZkSession({ connectString: zk.connectString, requestTimeoutMs: 15000 });
    await session.open();
    other = await connectOtherClient(zk.connectString, 30000);
    await other.mkdirp('/s/app/config');
    await other.mkdirp('/s/app/locks');
    await other.create('/s/app/config/db', 'url=jdbc:postgresql://db.internal:5432/orders\nuser=orders');
    await other.create('/s/app/config/cache', 'host=Redis.internal port=6379');
    await other.create('/s/app/config/blob', Buffer.from([0xff, 0x00, 0x64, 0x62, 0x2e, 0x69, 0x6e, 0x74, 0xfe])); // "db.int" in binary noise
    await other.create('/s/app/config/unicode', 'Grüße aus Zürich — 日本語');
    for (let i = 0; i < 5; i++) await other.create(`/s/app/locks/lock-${i}`, `holder-${i}`);
    await other.create('/s/app/locks/lease-1', '');
    await other.mkdirp('/s/many');
    await mapBounded(Array.from({ length: 2000 }, (_, i) => i), 256, (i) => other.create(`/s/many/item-${i}`, i % 100 === 0 ? 'needle' : 'hay'));
  });

  after(async () => {
    session?.close();
    other?.close();
    await zk?.stop();
  });

  async function search(query: SearchQuery): Promise<{ matches: SearchMatch[]; summary: Awaited<ReturnType<typeof searchTree>> }> {
    const matches: SearchMatch[] = [];
    const summary = await searchTree(session, query, (m) => matches.push(m));
    return { matches, summary };
  }
  const paths = (ms: SearchMatch[]) => ms.map((m) => m.path).sort();

  test('by name: glob and /regex/', async () => {
    assert.deepEqual(paths((await search({ root: '/s/app', path: 'lock-*' })).matches), [0, 1, 2, 3, 4].map((i) => `/s/app/locks/lock-${i}`));
    assert.deepEqual(paths((await search({ root: '/s/app', path: '/^l(ock-[13]|ease)/' })).matches),
      ['/s/app/locks/lease-1', '/s/app/locks/lock-1', '/s/app/locks/lock-3']);
    assert.deepEqual(paths((await search({ root: '/s/app', path: 'c*' })).matches), ['/s/app/config', '/s/app/config/cache']);
  });

  test('by full path', async () => {
    assert.deepEqual(paths((await search({ root: '/s', path: '/s/app/config/*', matchFullPath: true })).matches),
      ['/s/app/config/blob', '/s/app/config/cache', '/s/app/config/db', '/s/app/config/unicode']);
  });

  test('by content: substring (bytes, also inside binary data), case-insensitive, regex, UTF-8', async () => {
    const sub = await search({ root: '/s/app', content: 'db.int' });
    assert.deepEqual(paths(sub.matches), ['/s/app/config/blob', '/s/app/config/db']);
    const db = sub.matches.find((m) => m.path === '/s/app/config/db');
    assert.equal(db?.content?.byteOffset, 'url=jdbc:postgresql://'.length);
    assert.match(db?.content?.snippet ?? '', /db\.internal:5432/);
    assert.deepEqual(paths((await search({ root: '/s/app', content: 'redis' })).matches), []);
    assert.deepEqual(paths((await search({ root: '/s/app', content: 'redis', caseSensitive: false })).matches), ['/s/app/config/cache']);
    assert.deepEqual(paths((await search({ root: '/s/app', content: '/port=\\d{4}$/' })).matches), ['/s/app/config/cache']);
    const zurich = (await search({ root: '/s/app', content: 'zürich', caseSensitive: false })).matches;
    assert.deepEqual(paths(zurich), ['/s/app/config/unicode']);
    assert.equal(zurich[0].content?.byteOffset, Buffer.byteLength('Grüße aus '));
    assert.deepEqual(paths((await search({ root: '/s/app', content: '/日本/u' })).matches), ['/s/app/config/unicode']);
  });

  test('by path and content together', async () => {
    assert.deepEqual(paths((await search({ root: '/s/app', path: 'lock-*', content: '/holder-[24]/' })).matches),
      ['/s/app/locks/lock-2', '/s/app/locks/lock-4']);
  });

  test('results stream and stop at the cap; the summary says it was truncated', async () => {
    const { matches, summary } = await search({ root: '/s/many', path: 'item-*', maxResults: 25 });
    assert.equal(matches.length, 25);
    assert.ok(summary.ok && summary.summary.truncated && summary.summary.stoppedEarly);
    const all = await search({ root: '/s/many', content: 'needle' });
    assert.equal(all.matches.length, 20);
    assert.ok(all.summary.ok && !all.summary.summary.truncated && all.summary.summary.visited === 2001);
  });

  test('progress and cancel', async () => {
    const abort = new AbortController();
    const progress: number[] = [];
    const result = await searchTree(session, { root: '/s/many', content: 'hay' }, () => undefined, {
      signal: abort.signal, window: 4, progressIntervalMs: 0, onProgress: (p) => { progress.push(p.visited); if (p.visited >= 100) abort.abort(); },
    });
    assert.ok(result.ok);
    assert.equal(result.summary.cancelled, true);
    assert.ok(result.summary.visited < 2001, `visited ${result.summary.visited}`);
    assert.ok(progress.length > 1);
  });

  test('bad queries are problems, not exceptions; unreadable nodes are listed and skipped', async () => {
    assert.deepEqual(await searchTree(session, { root: '/s' }, () => undefined), { ok: false, problem: { code: 'emptyQuery' } });
    const bad = await searchTree(session, { root: '/s', path: '/(/' }, () => undefined);
    assert.ok(!bad.ok && 'field' in bad.problem && bad.problem.code === 'badRegex' && bad.problem.field === 'path');
    const badContent = await searchTree(session, { root: '/s', content: '/[/' }, () => undefined);
    assert.ok(!badContent.ok && 'field' in badContent.problem && badContent.problem.field === 'content');

    const writer = new ZnodeWriter(session, { readOnly: false });
    assert.ok((await writer.create({ path: '/s/secret/inner', data: Buffer.from('needle'), createParents: true })).ok);
    assert.ok((await writer.setAcl('/s/secret', [{ scheme: 'digest', id: digestId('x', 'y'), perms: 31 }], -1)).ok);
    const found = await search({ root: '/s', content: 'needle' });
    assert.ok(found.summary.ok);
    assert.deepEqual(found.summary.summary.unreadable, [{ path: '/s/secret', code: 'noAuth' }]);
    assert.equal(found.matches.length, 20);
    const missing = await searchTree(session, { root: '/s/none', path: '*' }, () => undefined);
    assert.ok(missing.ok && missing.summary.error?.code === 'noNode');
  });
});
