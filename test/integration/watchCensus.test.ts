// The watch census against a real 3-member ensemble (issue 35): the herd recipe's waiters flagged and a kazoo queue
// not; a session leaking thousands of data watches found on top with its client address whichever member it is on
// (through the words and through the AdminServer); hostile path names shown through the visible-text rules; and a
// member whose whitelist leaves out the watch words (and that has no AdminServer) refusing while the census still
// answers for the others and says why.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { takeCensus } from '../../src/zk/census';
import type { CensusComparison, WatchCensus } from '../../src/zk/census';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { HOSTILE_NAMES, RAW_HIDDEN } from '../support/fixtures/hostileFixture';
import { freePort } from '../support/ports';
import { startKazoo } from '../support/thirdParty/kazoo';
import { ThirdPartyClient } from '../support/thirdParty/driver';
import { waitFor } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startEnsemble, ZkCluster } from '../support/servers/zkServer';

interface CliRun { code: number; stdout: string; stderr: string }

function runCli(cli: string, args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 180000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** The client's own address as the server sees it (`127.0.0.1:<its local port>`). */
function clientAddressOf(c: OtherClient): string {
  const socket = (c.client as unknown as { connectionManager: { socket: { localAddress: string; localPort: number } } }).connectionManager.socket;
  return `${socket.localAddress}:${socket.localPort}`;
}

const EPH_SEQ = zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL;

describe('watch census of a 3-member ensemble', () => {
  let zk: ZkCluster;
  let cli: string;
  /** An AdminServer port nobody listens on: the CLI asks the members by words (their real ports differ per member). */
  let noAdmin: string;
  const clients: OtherClient[] = [];
  const drivers: ThirdPartyClient[] = [];

  before(async () => {
    [cli, zk] = await Promise.all([sharedCliBundle(), startEnsemble(3, { adminServer: true })]);
    noAdmin = String(await freePort());
  });
  after(async () => {
    for (const c of clients) c.close();
    for (const d of drivers) await d.close();
    await zk?.stop();
  });

  async function client(connectString: string): Promise<OtherClient> {
    const c = await connectOtherClient(connectString, 20000);
    clients.push(c);
    return c;
  }

  const census = async (...extra: string[]): Promise<{ run: CliRun; json: WatchCensus }> => {
    const run = await runCli(cli, ['watches', zk.connectString, '--json', '--admin-port', noAdmin, ...extra]);
    assert.ok(run.code === 0 || run.code === 1, run.stdout + run.stderr);
    return { run, json: JSON.parse(run.stdout) as WatchCensus };
  };

  test('the herd recipe\'s waiters are flagged and named; a kazoo queue is not', { timeout: 300000 }, async () => {
    // The herd recipe: each contender its own session and node; every waiter getChildren with a watch on the lock.
    const sessions = await Promise.all(zk.members.concat(zk.members).slice(0, 5).map((m) => client(m.address)));
    const kazoo = await startKazoo(zk.connectString);
    drivers.push(kazoo);
    try {
      await herdAndKazoo(sessions, kazoo);
    } finally {
      await kazoo.close();
      for (const s of sessions) s.close();
    }
  });

  async function herdAndKazoo(sessions: OtherClient[], kazoo: ThirdPartyClient): Promise<void> {
    await sessions[0].mkdirp('/herd');
    const nodes: string[] = [];
    for (const s of sessions) nodes.push(await s.create('/herd/lock-', '', EPH_SEQ));
    for (const s of sessions.slice(1)) await s.watch('/herd', 'getChildren');
    kazoo.acquire('k1', 'mutex', '/kazoo-lock');
    await kazoo.waitForEvent('k1', 'acquired', 60000);
    for (const id of ['k2', 'k3']) {
      kazoo.acquire(id, 'mutex', '/kazoo-lock');
      await kazoo.waitForEvent(id, 'waiting', 60000);
    }
    // A kazoo waiter sets its watch a moment after its node appears: ask until both are seen.
    const { json } = await waitFor('the kazoo waiters seen watching', async () => {
      const c = await census();
      return c.json.herd.find((h) => h.lock === '/kazoo-lock')?.watchingPredecessor === 2 ? c : undefined;
    }, 120000, 500);
    const herd = json.herd.find((h) => h.lock === '/herd');
    assert.ok(herd, JSON.stringify(json.herd));
    assert.deepEqual([herd.risk, herd.waiters, herd.unseen, herd.watchingPredecessor], ['herd', 4, 4, 0], JSON.stringify(herd));
    assert.deepEqual(herd.named.map((w) => w.session).sort(), sessions.slice(1).map((s) => s.sessionId).sort());
    assert.deepEqual(herd.named.map((w) => w.node).sort(), nodes.slice(1).sort());
    for (const w of herd.named) assert.ok(/^127\.0\.0\.1:\d+$/.test(w.clientAddress ?? ''), JSON.stringify(w));
    const kazooQueue = json.herd.find((h) => h.lock === '/kazoo-lock')!;
    assert.deepEqual([kazooQueue.risk, kazooQueue.waiters, kazooQueue.unseen], ['none', 2, 0], JSON.stringify(kazooQueue));
    // Child watches are derived and labelled so.
    assert.ok(json.servers.every((s) => s.childWatchesDerived === true && (s.childWatches ?? 0) >= 0), JSON.stringify(json.servers));
    assert.ok((json.totals.childWatches ?? 0) >= 4);
    const human = await runCli(cli, ['watches', zk.connectString, '--admin-port', noAdmin]);
    assert.match(human.stdout, /HERD: \/herd \(plain-lock\): 4 waiters, 0 watch their predecessor, 4 seen watching nothing/);
    assert.match(human.stdout, /no herd: \/kazoo-lock/);
    // Fan-out as it happened (mntr, 3.6+): the holder's node goes, and the members count the 4 waiters woken.
    const childrenFired = (c: WatchCensus) => c.servers.reduce((sum, m) => sum + (m.fanOut?.find((f) => f.event === 'children')?.watchersFired ?? 0), 0);
    const before = childrenFired(json);
    await sessions[0].remove(nodes[0]);
    await waitFor('the wake-ups counted by every member', async () => {
      const c = await census();
      return childrenFired(c.json) >= before + 4 ? c : undefined;
    }, 60000, 500);
    assert.equal(childrenFired((await census()).json), before + 4, 'one release woke every waiter: the herd, as it happened');
    assert.match((await runCli(cli, ['watches', zk.connectString, '--admin-port', noAdmin])).stdout, /fan-out since each member started/);
  }

  test('a session leaking thousands of data watches is on top with its client address, whichever member it is on', { timeout: 300000 }, async () => {
    const setup = await client(zk.connectString);
    await setup.mkdirp('/leak');
    const n = 3000;
    await Promise.all(Array.from({ length: n }, (_, i) => setup.create(`/leak/n${i}`, '')));
    for (const member of [zk.members[2], zk.members[0]]) {
      const leaker = await client(member.address);
      const modest = await client(zk.connectString);
      await Promise.all(Array.from({ length: n }, (_, i) => leaker.watch(`/leak/n${i}`, i % 2 ? 'exists' : 'getData')));
      await Promise.all([modest.watch('/leak/n1'), modest.watch('/leak/n2')]);
      const { run, json } = await census('--top', '3');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(json.sessions[0], {
        id: leaker.sessionId, clientAddress: clientAddressOf(leaker), server: member.address, watches: n, prefixes: [{ prefix: '/leak', watches: n }],
      });
      assert.deepEqual(json.sessions.slice(1).map((x) => [x.id, x.watches]), [[modest.sessionId, 2]]);
      assert.deepEqual(json.paths.slice(0, 2), [{ path: '/leak/n1', watchers: 2 }, { path: '/leak/n2', watchers: 2 }]);
      // Through the AdminServer (each member its own port): the same session on top.
      const viaAdmin = await takeCensus(zk.members.map((m) => ({ host: '127.0.0.1', port: m.clientPort, adminPort: m.adminPort })), { top: 1, answerTimeoutMs: 60000 });
      assert.ok(viaAdmin);
      assert.deepEqual(viaAdmin.servers.map((s) => s.via), ['admin', 'admin', 'admin']);
      assert.deepEqual([viaAdmin.sessions[0].id, viaAdmin.sessions[0].clientAddress, viaAdmin.sessions[0].server], [leaker.sessionId, clientAddressOf(leaker), member.address]);
      leaker.close();
      modest.close();
    }
  });

  test('--compare reads a saved census and ranks the sessions and paths whose watches grew', { timeout: 300000 }, async () => {
    const steady = await client(zk.members[0].address);
    const growing = await client(zk.members[1].address);
    await Promise.all([steady.watch('/leak/n10'), growing.watch('/leak/n20')]);
    const saved = path.join(fs.mkdtempSync(path.join(zk.baseDir, 'census-')), 'before.json');
    const first = await census('--top', '50');
    fs.writeFileSync(saved, first.run.stdout);
    await Promise.all(Array.from({ length: 200 }, (_, i) => growing.watch(`/leak/n${100 + i}`)));
    await steady.watch('/leak/n20');
    const { json } = await census('--top', '50', '--compare', saved);
    const compare = (json as WatchCensus & { compare: CensusComparison }).compare;
    assert.deepEqual(compare.sessions.map((s) => [s.id, s.before, s.now, s.grew]), [[growing.sessionId, 1, 201, 200], [steady.sessionId, 1, 2, 1]]);
    assert.deepEqual(compare.paths.find((p) => p.path === '/leak/n20'), { path: '/leak/n20', before: 1, now: 2, grew: 1 });
    const human = await runCli(cli, ['watches', zk.connectString, '--admin-port', noAdmin, '--compare', saved]);
    assert.match(human.stdout, new RegExp(`grown since the census of [^\\n]+\\nsessions\\n[^\\n]+\\n${growing.sessionId} `));
    const bad = await runCli(cli, ['watches', zk.connectString, '--compare', path.join(zk.baseDir, 'missing.json')]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--compare .*missing\.json: ENOENT/);
    steady.close();
    growing.close();
  });

  test('hostile path names go through the visible-text rules in the human output', { timeout: 120000 }, async () => {
    const names = [HOSTILE_NAMES.rtlOverride, HOSTILE_NAMES.zeroWidth, HOSTILE_NAMES.isolates];
    const watchers = await Promise.all(zk.members.map((m) => client(m.address)));
    await watchers[0].mkdirp('/hostile');
    for (const name of names) await watchers[0].create(`/hostile/${name}`, '');
    for (const w of watchers) for (const name of names) await w.watch(`/hostile/${name}`, 'getData');
    const run = await runCli(cli, ['watches', zk.connectString, '--admin-port', noAdmin, '--top', '5']);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.deepEqual(lines.filter((l) => RAW_HIDDEN.test(l)), []);
    assert.ok(lines.some((l) => l.includes('/hostile/invoice-[U+202E]gnp.exe')), run.stdout);
    assert.ok(lines.some((l) => l.includes('/hostile/adm[U+200B]in[U+200D][U+FEFF]')), run.stdout);
    // JSON keeps the names exact (escaped, still the same strings).
    const { json } = await census('--top', '5');
    assert.ok(json.paths.some((p) => p.path === `/hostile/${HOSTILE_NAMES.rtlOverride}` && p.watchers === 3), JSON.stringify(json.paths));
    for (const w of watchers) w.close();
  });

  test('a member that refuses the watch words (no AdminServer either) is said in words; the others still answer', { timeout: 300000 }, async () => {
    const refusing = zk.members[2];
    const cfg = path.join(refusing.dir, 'zoo.cfg');
    fs.writeFileSync(cfg, fs.readFileSync(cfg, 'utf8')
      .replace(/^4lw\.commands\.whitelist=.*$/m, '4lw.commands.whitelist=srvr,mntr,cons,ruok,wchs')
      .replace(/^admin\.enableServer=.*$/m, 'admin.enableServer=false'));
    await refusing.restart();
    const leaker = await client(zk.members[0].address);
    await Promise.all(Array.from({ length: 500 }, (_, i) => leaker.watch(`/leak/n${i}`)));
    const elsewhere = await client(refusing.address);
    await elsewhere.watch('/leak/n1');
    const { run, json } = await census();
    assert.equal(run.code, 1, 'an incomplete census exits 1');
    assert.equal(json.complete, false);
    const row = json.servers.find((s) => s.server === refusing.address)!;
    assert.equal(row.dataWatches, undefined);
    assert.equal(row.childWatches, undefined);
    assert.deepEqual(row.silences.map((s) => [s.what, s.reason, s.detail]), [['watches', 'refused', 'wchp']]);
    assert.ok(row.silences[0].adminServer, 'what the AdminServer said is kept');
    assert.ok(json.servers.filter((s) => s !== row).every((s) => s.dataWatches !== undefined && s.silences.length === 0), JSON.stringify(json.servers));
    assert.deepEqual([json.sessions[0].id, json.sessions[0].server, json.sessions[0].watches], [leaker.sessionId, zk.members[0].address, 500]);
    const human = await runCli(cli, ['watches', zk.connectString, '--admin-port', noAdmin]);
    assert.equal(human.code, 1);
    assert.ok(human.stdout.includes(`${refusing.address}: watches not listed: 'wchp' is not in its 4lw.commands.whitelist; its AdminServer could not say either (`), human.stdout);
  });
});
