// Recorder cost, without a server (run alone: `npx tsc -p tsconfig.test.json && node out/bench/historyBench.js`; it
// runs itself again with --expose-gc when started without it, as the heap figures need collections forced):
// - memory per recorded interval: heap growth of a LockHistory holding 200,000 closed intervals (its cap), and the
//   heap after 1,000,000 intervals went through it (the oldest summarised), against the 100 MiB goal for a night;
// - time per hand-off: the live monitor emits one analysis per change, covering every watched queue, so 1,000
//   hand-offs over 100 queues are 1,000 analyses of 100 queues; the recorder must keep up with 1,000 a second.
//   Followed from the server's events (followEvents), a hand-off is two events (the holder's delete, a new waiter's
//   create) and the panel's analysis after them, which now only attaches what the read tells: both are timed.
import { spawnSync } from 'node:child_process';
import { LockHistory, LockRecorder } from '../src/zk/history';
import type { LockAnalysis, LockQueue, Participant } from '../src/zk/analysis';

const MiB = 1024 * 1024;
const T0 = 1_800_000_000_000;

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect) { collect(); collect(); }
}

function heapMiB(): number {
  gc();
  return process.memoryUsage().heapUsed / MiB;
}

function fill(history: LockHistory, count: number): void {
  for (let n = 0; n < count; n++) {
    history.addClosed({
      id: history.newId(), kind: n % 2 ? 'hold' : 'wait', lock: `/app/locks/queue-${n % 100}`, node: `_c_0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0-lock-${String(n).padStart(10, '0')}`,
      participant: 'exclusive', session: `0x1000${(n % 5000).toString(16).padStart(11, '0')}`, clientAddress: `10.0.${n % 250}.${n % 200}:${40000 + (n % 20000)}`,
      label: `worker-${n % 64}`, start: T0 + n, startExact: true, end: T0 + n + 5, endExact: true, ended: n % 2 ? 'released' : 'acquired',
    });
  }
}

function memory(): void {
  const base = heapMiB();
  const history = new LockHistory();
  fill(history, history.maxIntervals);
  const full = heapMiB() - base;
  console.log(`memory: ${history.maxIntervals.toLocaleString('en-US')} intervals (the cap) ${full.toFixed(1)} MiB, ${((full * MiB) / history.maxIntervals).toFixed(0)} B per interval`);
  fill(history, 1_000_000 - history.maxIntervals);
  const night = heapMiB() - base;
  console.log(`memory: after 1,000,000 intervals ${night.toFixed(1)} MiB (${history.closed.length.toLocaleString('en-US')} kept, the rest summarised) — goal ≤ 100 MiB`);
}

function participant(queue: number, seq: number, role: Participant['role'], at: number): Participant {
  const name = `lock-${String(seq).padStart(10, '0')}`;
  return {
    path: `/app/locks/queue-${queue}/${name}`, name, sequence: seq, kind: 'exclusive', role, position: 0, session: `0x${(queue * 1_000_000 + seq).toString(16)}`,
    since: at, waitsFor: [], watches: [], ...(role === 'holder' ? { held: { since: at, exact: true } } : {}),
  };
}

function handOffs(): void {
  const queues = 100;
  const handoffs = 1000;
  // Each queue: a holder and two waiters; a hand-off removes the holder, promotes the next, queues a new waiter.
  const heads = Array.from({ length: queues }, () => 0);
  const analysisAt = (at: number): LockAnalysis => ({
    root: '/app/locks', takenAt: at, sessions: [], deadlocks: [], servers: [], anomalies: [],
    queues: heads.map((head, q): LockQueue => ({
      path: `/app/locks/queue-${q}`, recipe: 'plain-lock', anomalies: [],
      participants: [participant(q, head, 'holder', at), participant(q, head + 1, 'waiter', at), participant(q, head + 2, 'waiter', at)],
    })),
  });
  const recorder = new LockRecorder();
  recorder.observe(analysisAt(T0));
  const samples: number[] = [];
  for (let n = 1; n <= handoffs; n++) {
    heads[n % queues]++;
    const analysis = analysisAt(T0 + n);
    const t0 = process.hrtime.bigint();
    recorder.observe(analysis);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const total = samples.reduce((a, b) => a + b, 0);
  const holds = recorder.history.closed.filter((i) => i.kind === 'hold').length;
  console.log(`hand-offs: ${handoffs} over ${queues} queues, ${holds} holds closed; per hand-off median ${samples[samples.length >> 1].toFixed(3)} ms, p95 ${samples[Math.floor(samples.length * 0.95)].toFixed(3)} ms; ${(total / 1000).toFixed(2)} s of recorder time per 1,000 hand-offs (must be < 1 s)`);
  if (holds !== handoffs) throw new Error(`expected ${handoffs} closed holds, got ${holds}`);
}

/** The same hand-offs followed from the events: each is a delete and a create, then the panel's analysis of them. */
function eventHandOffs(): void {
  const queues = 100;
  const handoffs = 1000;
  const heads = Array.from({ length: queues }, () => 0);
  const queueOf = (q: number, at: number): LockQueue => ({
    path: `/app/locks/queue-${q}`, recipe: 'plain-lock', anomalies: [],
    participants: [participant(q, heads[q], 'holder', at), participant(q, heads[q] + 1, 'waiter', at), participant(q, heads[q] + 2, 'waiter', at)],
  });
  const analysisAt = (at: number): LockAnalysis => ({
    root: '/app/locks', takenAt: at, sessions: [], deadlocks: [], servers: [], anomalies: [], queues: heads.map((_, q) => queueOf(q, at)),
  });
  const recorder = new LockRecorder();
  const first = analysisAt(T0);
  recorder.observe(first);
  recorder.followEvents(T0);
  recorder.resync(first, T0);
  const eventSamples: number[] = [];
  const readSamples: number[] = [];
  for (let n = 1; n <= handoffs; n++) {
    const q = n % queues;
    const at = T0 + n;
    const gone = participant(q, heads[q], 'holder', at).path;
    heads[q]++;
    const added = participant(q, heads[q] + 2, 'waiter', at).path;
    let t0 = process.hrtime.bigint();
    recorder.nodeDeleted(gone, at);
    recorder.nodeCreated(added, at);
    eventSamples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const analysis = analysisAt(at);
    t0 = process.hrtime.bigint();
    recorder.observe(analysis);
    readSamples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const holds = recorder.history.closed.filter((i) => i.kind === 'hold').length;
  const figure = (samples: number[]) => {
    samples.sort((a, b) => a - b);
    return `median ${samples[samples.length >> 1].toFixed(3)} ms, p95 ${samples[Math.floor(samples.length * 0.95)].toFixed(3)} ms`;
  };
  const total = [...eventSamples, ...readSamples].reduce((a, b) => a + b, 0);
  console.log(`hand-offs from events: ${handoffs} over ${queues} queues, ${holds} holds closed; events per hand-off ${figure(eventSamples)}; the analysis after it ${figure(readSamples)}; ${(total / 1000).toFixed(2)} s per 1,000 hand-offs (must be < 1 s); reads added per event: 0`);
  if (holds !== handoffs) throw new Error(`expected ${handoffs} closed holds, got ${holds}`);
}

if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
  // Without forced collections the heap figures count garbage too (201.7 MiB against 63.6 MiB measured).
  const again = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, __filename, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
} else {
  memory();
  handOffs();
  eventHandOffs();
}
