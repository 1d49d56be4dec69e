// Lock history on a real server: a monitor that loses its connection records a gap and bounds what changed
// meanwhile; `zooscope locks --watch` with --for, --record and --trace writes files that load back (--replay) and
// parse as Trace Event JSON; a hand-over seen live is a flow between two holds.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { LockMonitor } from '../../src/zk/analysis';
import { followMonitor, LockRecorder, lockFigures, readRecording } from '../../src/zk/history';
import { ZkSession } from '../../src/zk/session/session';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { fourLetterWord } from '../support/ports';
import { startProxy, TcpProxy } from '../support/fakes/tcpProxy';
import { eventually } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const EPH_SEQ = zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL;
const kazooNode = (c: string) => `${c.repeat(32)}__lock__`;

interface TraceEvent { ph: string; name: string; pid: number; tid: number; ts: number; dur?: number; id?: number; args?: Record<string, unknown> }

describe('lock history on a real server', () => {
  let zk: ZkCluster;
  let cli: string;
  let a: OtherClient;
  let b: OtherClient;
  let dir: string;
  const children: ChildProcess[] = [];

  before(async () => {
    [cli, zk] = await Promise.all([sharedCliBundle(), startStandalone()]);
    a = await connectOtherClient(zk.connectString, 20000);
    b = await connectOtherClient(zk.connectString, 20000);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-lock-history-'));
  });

  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    a?.close();
    b?.close();
    await zk?.stop();
  });

  test('a monitor that loses its connection records a gap, and what changed meanwhile ends as a bound', async () => {
    await a.mkdirp('/gap/lock');
    const held = await a.create(`/gap/lock/${kazooNode('a')}`, 'a', EPH_SEQ);
    const waiting = await b.create(`/gap/lock/${kazooNode('b')}`, 'b', EPH_SEQ);
    let proxy: TcpProxy | undefined;
    let session: ZkSession | undefined;
    let monitor: LockMonitor | undefined;
    try {
      proxy = await startProxy(zk.members[0].clientPort);
      session = new ZkSession({ connectString: `127.0.0.1:${proxy.port}`, sessionTimeoutMs: 30000, requestTimeoutMs: 20000 });
      await session.open();
      monitor = new LockMonitor(session, '/gap', { serverWatches: false });
      const recorder = new LockRecorder();
      followMonitor(session, monitor, recorder);
      monitor.start();
      await eventually(() => recorder.history.open.size === 2, 20000, 'both participants recorded');
      const states: string[] = [];
      session.on('state', (s) => states.push(s));
      await proxy.refuse(true);
      proxy.cutAll();
      await eventually(() => recorder.history.gaps.length === 1, 20000, 'a gap begins');
      await a.remove(held); // the hand-over happens while the monitor cannot see it
      await proxy.refuse(false);
      await eventually(() => recorder.history.gaps[0].to !== undefined && recorder.history.closed.length === 2, 30000, 'the gap ends and the hand-over is recorded');
      const [gap] = recorder.history.gaps;
      const closed = recorder.history.closed;
      assert.ok(closed.every((i) => i.endExact === false && (i.end ?? 0) >= (gap.to ?? Infinity)), JSON.stringify({ closed, gap }));
      assert.deepEqual(closed.map((i) => `${i.kind} ${i.node}`).sort(), [`hold ${path.basename(held)}`, `wait ${path.basename(waiting)}`]);
      assert.ok(closed.every((i) => i.ended !== 'released'), 'after a gap nothing tells a release');
      const open = [...recorder.history.open.values()];
      assert.deepEqual(open.map((i) => [i.kind, i.node, i.startExact]), [['hold', path.basename(waiting), false]]);
      const [figures] = lockFigures(recorder.history);
      assert.equal(figures.bounds, true);
      assert.ok(states.includes('suspended'), states.join());
    } finally {
      monitor?.dispose();
      session?.close();
      await proxy?.close();
      await b.remove(waiting).catch(() => undefined);
    }
  });

  test('--watch --for with --record and --trace writes a recording and a trace that load back', async () => {
    await a.mkdirp('/cli/orders');
    const held = await a.create(`/cli/orders/${kazooNode('c')}`, 'worker-c', EPH_SEQ);
    const record = path.join(dir, 'for.jsonl');
    const trace = path.join(dir, 'for.trace.json');
    try {
      const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [cli, 'locks', zk.connectString, '/cli', '--watch', '--for', '1s', '--record', record, '--trace', trace, '--no-server-watches'], { timeout: 120000 }, (error, out, err) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: out, stderr: err });
        });
      });
      assert.equal(code, 0, stderr);
      assert.match(stdout, /watching \/cli: 1 queue\(s\), 1 participant\(s\)/);
      assert.match(stdout, /\/cli\/orders\s+\n?.*acquisitions\s+1/s);
      const loaded = readRecording(record);
      assert.equal(loaded.tornLastLine, false);
      assert.deepEqual([...loaded.history.open.values()].map((i) => [i.kind, i.lock, i.node, i.session]), [['hold', '/cli/orders', path.basename(held), a.sessionId]]);
      const events = (JSON.parse(fs.readFileSync(trace, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
      const hold = events.find((e) => e.ph === 'X' && e.name === 'hold');
      assert.equal(hold?.args?.lock, '/cli/orders');
      assert.equal(hold?.args?.session, a.sessionId);
      assert.equal(fs.statSync(record).mode & 0o777, 0o600);
      assert.equal(fs.statSync(trace).mode & 0o777, 0o600);
    } finally {
      await a.remove(held).catch(() => undefined);
    }
  });

  test('--watch until Ctrl-C: a hand-over seen live is recorded exactly and links two holds; --replay gives its figures', async () => {
    await a.mkdirp('/live/orders');
    const first = await a.create(`/live/orders/${kazooNode('d')}`, 'worker-d', EPH_SEQ);
    const second = await b.create(`/live/orders/${kazooNode('e')}`, 'worker-e', EPH_SEQ);
    const record = path.join(dir, 'live.jsonl');
    const trace = path.join(dir, 'live.trace.json');
    const child = spawn(process.execPath, [cli, 'locks', zk.connectString, '/live', '--watch', '--record', record, '--trace', trace, '--no-server-watches'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await eventually(() => /watching \/live/.test(stdout), 30000, `the CLI watching (${stderr})`);
      await a.remove(first);
      await eventually(() => new RegExp(`holds\\s+/live/orders/${path.basename(second)}`).test(stdout), 30000, `the hand-over printed:\n${stdout}`);
      child.kill('SIGINT');
      assert.equal(await exited, 0, stderr);
      const loaded = readRecording(record);
      const holds = [...loaded.history.intervals()].filter((i) => i.kind === 'hold');
      assert.deepEqual(holds.map((i) => i.node), [path.basename(first), path.basename(second)]);
      assert.equal(holds[0].endExact, true);
      assert.equal(holds[1].startExact, true);
      const events = (JSON.parse(fs.readFileSync(trace, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
      const flow = events.find((e) => e.ph === 's');
      const end = events.find((e) => e.ph === 'f' && e.id === flow?.id);
      const holdEvents = events.filter((e) => e.ph === 'X' && e.name === 'hold');
      const from = holdEvents.find((h) => h.tid === flow?.tid);
      const to = holdEvents.find((h) => h.tid === end?.tid);
      assert.deepEqual([from?.args?.node, to?.args?.node], [path.basename(first), path.basename(second)]);
      const replay = await new Promise<{ code: number; stdout: string }>((resolve) => {
        execFile(process.execPath, [cli, 'locks', '--replay', record, '--json'], { timeout: 60000 }, (error, out) => resolve({ code: error ? 1 : 0, stdout: out }));
      });
      assert.equal(replay.code, 0);
      const figures = (JSON.parse(replay.stdout) as { figures: { lock: string; acquisitions: number; maxQueueLength: number }[] }).figures;
      assert.deepEqual(figures.map((f) => [f.lock, f.acquisitions, f.maxQueueLength]), [['/live/orders', 2, 2]]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await b.remove(second).catch(() => undefined);
    }
  });
  test('--watch goes on with a new session after its session expired: one line says so, the history has a gap', async () => {
    await a.mkdirp('/expiry/orders');
    const record = path.join(dir, 'expiry.jsonl');
    const proxy = await startProxy(zk.members[0].clientPort);
    const sessions = async () => new Set((await fourLetterWord(zk.members[0].clientPort, 'dump')).match(/^\t(0x[0-9a-f]+)$/gm)?.map((s) => s.trim()) ?? []);
    const before = await sessions();
    const child = spawn(process.execPath, [cli, 'locks', `127.0.0.1:${proxy.port}`, '/expiry', '--watch', '--record', record, '--no-server-watches', '--timeout', '4'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let node: string | undefined;
    try {
      await eventually(() => /watching \/expiry/.test(stdout), 30000, `the CLI watching (${stderr})`);
      const cliSessions = [...(await sessions())].filter((id) => !before.has(id));
      assert.equal(cliSessions.length, 1, `the CLI's session among ${cliSessions.join(', ')}`);
      // Cut off until the server has expired its session (the server's own session list tells), then let it back.
      await proxy.refuse(true);
      proxy.cutAll();
      await eventually(async () => !(await sessions()).has(cliSessions[0]), 60000, 'the server expiring the CLI session');
      await proxy.refuse(false);
      await eventually(() => /session expired; going on with a new session/.test(stderr), 60000, `the CLI saying it goes on (${stderr})`);
      assert.equal(stderr.match(/session expired/g)?.length, 1, stderr);
      // Followed with the new session: a hold taken now is recorded.
      node = await a.create(`/expiry/orders/${kazooNode('9')}`, 'after-expiry', EPH_SEQ);
      const name = path.basename(node);
      await eventually(() => new RegExp(`holds\\s+/expiry/orders/${name}`).test(stdout), 30000, `the new hold printed:\n${stdout}\n${stderr}`);
      child.kill('SIGINT');
      assert.equal(await exited, 0, stderr);
      const loaded = readRecording(record);
      assert.equal(loaded.history.gaps.length, 1, JSON.stringify(loaded.history.gaps));
      const [gap] = loaded.history.gaps;
      assert.ok(gap.to !== undefined && gap.to > gap.from, `the gap ends with the new session's first look: ${JSON.stringify(gap)}`);
      assert.ok([...loaded.history.open.values()].some((i) => i.node === name && i.kind === 'hold'), 'the hold after the expiry is recorded');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      if (node) await a.remove(node).catch(() => undefined);
      await proxy.close();
    }
  });

  test('--watch whose reader goes away stops cleanly (exit 0) with a valid recording', async () => {
    await a.mkdirp('/gone/orders');
    const record = path.join(dir, 'gone.jsonl');
    const child = spawn(process.execPath, [cli, 'locks', zk.connectString, '/gone', '--watch', '--record', record, '--no-server-watches'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let node: string | undefined;
    try {
      await eventually(() => /watching \/gone/.test(stdout), 30000, `the CLI watching (${stderr})`);
      node = await a.create(`/gone/orders/${kazooNode('f')}`, 'worker-f', EPH_SEQ);
      const name = path.basename(node);
      // Printed, so recorded (the recording is written first); then the reader goes away.
      await eventually(() => stdout.includes(name), 30000, `the CLI printing ${name} (${stderr})`);
      child.stdout.destroy();
      // The next line the CLI writes (this change, or any before it) meets a closed pipe.
      await a.remove(node);
      assert.equal(await exited, 0, stderr);
      assert.doesNotMatch(stderr, /EPIPE|Error/);
      const loaded = readRecording(record);
      assert.equal(loaded.tornLastLine, false);
      const recorded = [...loaded.history.open.values(), ...loaded.history.closed].map((i) => i.node);
      assert.ok(recorded.includes(name), `recorded: ${recorded.join(', ')}`);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      if (node) await a.remove(node).catch(() => undefined);
    }
  });
});
