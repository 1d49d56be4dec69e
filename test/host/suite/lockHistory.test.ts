// The lock panel's history inside a real VS Code against a real ZooKeeper: the panel records while it is open and a
// real hand-over (the holder's session closed, the next waiter takes the lock) reaches the timeline it sends its
// webview; Export History… writes it as a recording, Export Trace (Perfetto)… as Trace Event JSON, and Open Lock
// History… opens the recording as a read-only replay whose webview gets the same intervals.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HostMessage } from '../../../src/shared/lockQueueMessages';
import type { LockQueuePanel } from '../../../src/vscode/lockQueue/lockQueuePanel';
import type { HistoryReplayPanel } from '../../../src/vscode/lockQueue/historyReplayPanel';
import type { TestApi } from '../../../src/vscode/testApi';
import { buildLanes } from '../../../src/webview/lockQueue/timelineLayout';
import { readRecording } from '../../../src/zk/history/recordingFile';
import type { TimelineData } from '../../../src/zk/history/timeline';
import { LockQueueClients, startLockQueue } from '../../support/clients/lockQueueClients';
import { connectOtherClient } from '../../support/clients/zkClient';
import { watchPanel } from './lockPanelWatch';
import { services, testZk } from './zooscope';

const ID = 'host-history';
const BASE = `/host-history-${Date.now().toString(36)}`;

/** The first timeline the panel sends (or sent last) that passes `check`. */
function timelineWhere(panel: LockQueuePanel | HistoryReplayPanel, check: (data: TimelineData) => boolean, what: string, timeoutMs = 30000): Promise<TimelineData> {
  return new Promise((resolve, reject) => {
    const last = panel.history.timeline;
    if (last && check(last)) return resolve(last);
    const timer = setTimeout(() => { listener.dispose(); reject(new Error(`${what}: not in the timeline (last: ${JSON.stringify(panel.history.timeline?.lanes ?? null)})`)); }, timeoutMs);
    const listener = panel.history.onDidSend((data) => {
      if (!check(data)) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(data);
    });
  });
}

/** Index of the interval of `kind` (0 wait, 1 hold) on the lane of node `node`. */
function intervalOf(data: TimelineData, node: string, kind: 0 | 1): number | undefined {
  const lane = data.lanes.findIndex((l) => l.node === node);
  if (lane < 0) return undefined;
  for (let i = data.laneStart[lane]; i < data.laneStart[lane + 1]; i++) if (data.kind[i] === kind) return i;
  return undefined;
}

describe('Lock history in the panel', function () {
  this.timeout(120000);
  let s: TestApi;
  let queue: LockQueueClients;
  let folder: string;
  const opened: { panel: { dispose(): void } }[] = [];

  before(async () => {
    s = await services();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-history-'));
    queue = await startLockQueue(testZk(), `${BASE}/orders`, 2);
    await s.commands.addConnection({ id: ID, name: 'Host History', connectString: testZk() });
  });

  after(async () => {
    for (const p of opened) p.panel.dispose();
    queue?.close();
    const cleanup = await connectOtherClient(testZk());
    await cleanup.removeRecursive(BASE).catch(() => undefined);
    cleanup.close();
    await s.commands.removeConnection(ID, true);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('records a real hand-over, shows it in the timeline, exports it, and opens the export as a replay', async () => {
    const panel = await s.commands.showLockQueue(ID, `${BASE}/orders`);
    assert.ok(panel, 'no panel');
    opened.push(panel);
    const sent: HostMessage[] = [];
    panel.channel.onDidPost((m) => sent.push(m));
    watchPanel(panel);
    const [first, second] = queue.contenders.map((c) => c.path.split('/').pop()!);
    await timelineWhere(panel, (d) => intervalOf(d, first, 1) !== undefined && intervalOf(d, second, 0) !== undefined, 'the holder and the waiter');

    queue.leave(queue.contenders[0]);
    const data = await timelineWhere(panel, (d) => {
      const released = intervalOf(d, first, 1);
      return released !== undefined && d.end[released] >= 0 && intervalOf(d, second, 1) !== undefined;
    }, 'the hand-over');
    const released = intervalOf(data, first, 1)!;
    const taken = intervalOf(data, second, 1)!;
    const waited = intervalOf(data, second, 0)!;
    assert.ok(data.start[taken] >= data.end[released], 'the next hold starts after the last one ended');
    assert.strictEqual(data.end[waited], data.start[taken], 'the wait ends where its hold starts');
    assert.strictEqual(data.end[taken], -1, 'the new hold is open');
    assert.strictEqual(data.exact[taken] & 1, 1, 'seen live: the new hold\'s start is exact');
    assert.strictEqual(data.locks[data.lanes[0].lock], `${BASE}/orders`);
    // What the webview draws from it: a hand-over from the released hold to the next.
    const lanes = buildLanes(data, false);
    assert.deepStrictEqual([...lanes.handOvers], [released, taken]);
    // The webview is sent them once it says it is ready (the hand-over may be recorded before that).
    await new Promise<void>((resolve, reject) => {
      const done = () => sent.some((m) => m.type === 'timeline') && sent.some((m) => m.type === 'figures');
      if (done()) return resolve();
      const timer = setTimeout(() => { listener.dispose(); reject(new Error(`the webview was not sent the timeline and figures (sent: ${sent.map((m) => m.type).join()})`)); }, 30000);
      const listener = panel.channel.onDidPost(() => {
        if (!done()) return;
        clearTimeout(timer);
        listener.dispose();
        resolve();
      });
    });

    // Figures over a window the webview asks for; a forged window (ending before it starts) is refused.
    const figuresSent = () => sent.filter((m): m is Extract<HostMessage, { type: 'figures' }> => m.type === 'figures');
    const before = figuresSent().length;
    await panel.channel.handle({ type: 'figuresWindow', window: { from: 5, to: 1 } });
    await panel.channel.handle({ type: 'figuresWindow', window: { from: data.origin, to: data.origin + 1 }, extra: '<script>' });
    const answered = figuresSent().slice(before);
    assert.deepStrictEqual(answered.map((m) => m.window), [{ from: data.origin, to: data.origin + 1 }], 'one answer, to the valid request');
    assert.strictEqual((JSON.parse(answered[0].figuresJson) as { lock: string }[])[0]?.lock, `${BASE}/orders`);

    // Export History… and Export Trace (Perfetto)… of this panel's history.
    const recording = path.join(folder, 'history.jsonl');
    assert.strictEqual(await s.commands.exportLockHistory({ file: recording, history: panel.history }), recording);
    assert.strictEqual(fs.statSync(recording).mode & 0o777, 0o600);
    const loaded = readRecording(recording);
    const holds = [...loaded.history.intervals()].filter((i) => i.kind === 'hold').map((i) => i.node).sort();
    assert.deepStrictEqual(holds, [first, second].sort());
    const trace = path.join(folder, 'trace.json');
    assert.strictEqual(await s.commands.exportLockTrace({ file: trace, history: panel.history }), trace);
    const events = (JSON.parse(fs.readFileSync(trace, 'utf8')) as { traceEvents: { ph: string; name: string; args?: { node?: string } }[] }).traceEvents;
    assert.deepStrictEqual(events.filter((e) => e.ph === 'X' && e.name === 'hold').map((e) => e.args?.node).sort(), [first, second].sort());
    assert.ok(events.some((e) => e.ph === 's' && e.name === 'hand-over'), 'the hand-over is a flow');

    // Open Lock History…: a replay panel, no connection needed, its webview sent the same intervals.
    const replay = await s.commands.openLockHistory({ file: recording });
    assert.ok(replay, 'no replay panel');
    opened.push(replay);
    assert.strictEqual(replay.panel.viewType, 'zooscope.lockHistory');
    const replayed = await timelineWhere(replay, (d) => d.start.length > 0, 'the replay');
    assert.deepStrictEqual(replayed.lanes.map((l) => l.node).sort(), data.lanes.map((l) => l.node).sort());
    assert.strictEqual(replay.history.live, false);
    assert.deepStrictEqual(await replay.channel.handle({ type: 'forceRelease', requestId: 1, path: queue.contenders[0].path }).then(() => 'handled'), 'handled');
    assert.ok(await connectOtherClient(testZk()).then(async (c) => { const there = await c.exists(queue.contenders[0].path); c.close(); return there; }), 'a replay acts on no server');
  });
});
