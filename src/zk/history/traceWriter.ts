// The Trace Event Format (the JSON Perfetto and chrome://tracing open), written as a stream: events become text in
// a buffer of about 64 KiB that is handed on (and, when the sink is behind, waited for) before more is made, so what
// is held is bounded however long the history. A pid per lock; lanes (tids) are reused once their participant has
// left, so each lane is named `lane <n>` and each event's args name the node and session; no two events of a lane
// overlap. Hand-overs are flows from a hold's end to the next hold of its lock; the queue length is a counter;
// session losses are instant events; the monitor's gaps are complete events on a lane of their own (pid 0), so they
// show as gaps rather than as quiet. Used by the recording stream and the in-memory history alike (traceStream.ts).
import type { LockSummary } from './history';
import type { HistoryGap, HistoryInterval, QueueSample } from './model';

/** Takes each chunk of text; a promise says the sink is behind, and nothing more is made until it settles. */
export type TraceSink = (chunk: string) => void | Promise<void>;

const MONITOR_PID = 0;
const CHUNK = 65536;
export const micros = (ms: number): number => Math.round(ms * 1000);

/** The complete event of one hold or wait, ending at `end` (its own end, or "now" while open). */
function sliceEvent(i: HistoryInterval, pid: number, tid: number, end: number, text: (value: string) => string): object {
  return {
    ph: 'X', name: i.kind, cat: 'lock', pid, tid, ts: micros(i.start), dur: Math.max(0, micros(end) - micros(i.start)),
    args: {
      lock: text(i.lock), node: text(i.node), session: i.session ?? null, exact: i.startExact && i.end !== undefined && i.endExact === true,
      participant: i.participant, ...(i.clientAddress ? { client: text(i.clientAddress) } : {}), ...(i.label !== undefined ? { label: text(i.label) } : {}),
      ...(i.ended ? { ended: i.ended } : {}), ...(i.end === undefined ? { open: true } : {}),
    },
  };
}

interface Lane { tid: number; freeAt: number }
interface LockLanes { pid: number; free: Lane[]; byNode: Map<string, Lane>; lastHold?: { tid: number; start: number; end: number } }

export class TraceWriter {
  private buffer = '{"displayTimeUnit":"ms","traceEvents":[';
  private first = true;
  private readonly locks = new Map<string, LockLanes>();
  private nextTid = 1;
  private flowId = 0;
  /** Holds and waits written. */
  intervals = 0;

  constructor(private readonly sink: TraceSink, private readonly text: (value: string) => string = (v) => v) {
    this.emit({ ph: 'M', name: 'process_name', pid: MONITOR_PID, tid: 0, args: { name: 'monitor' } });
    this.emit({ ph: 'M', name: 'thread_name', pid: MONITOR_PID, tid: 0, args: { name: 'connection' } });
  }

  /** Whether the buffer is due to be handed on (await flush() before making more). */
  get full(): boolean {
    return this.buffer.length >= CHUNK;
  }

  async flush(): Promise<void> {
    if (!this.full) return;
    const chunk = this.buffer;
    this.buffer = '';
    await this.sink(chunk);
  }

  async end(): Promise<void> {
    const chunk = `${this.buffer}\n]}\n`;
    this.buffer = '';
    await this.sink(chunk);
  }

  /** One hold or wait, ending at `end` (its own end, or where the trace ends while open). */
  interval(i: HistoryInterval, end: number): void {
    const { pid, lane } = this.laneOf(i);
    const lanes = this.lanesOf(i.lock);
    this.intervals++;
    this.emit(sliceEvent(i, pid, lane.tid, end, this.text));
    if (i.kind === 'hold') {
      const last = lanes.lastHold;
      if (last && i.start >= last.end) {
        this.flowId++;
        // The start binds to the enclosing slice (the releasing hold: its last microsecond), the end to the next hold.
        this.emit({ ph: 's', name: 'hand-over', cat: 'lock', id: this.flowId, pid, tid: last.tid, ts: Math.max(micros(last.start), micros(last.end) - 1) });
        this.emit({ ph: 'f', bp: 'e', name: 'hand-over', cat: 'lock', id: this.flowId, pid, tid: lane.tid, ts: micros(i.start) });
      }
      if (i.end !== undefined && (!last || i.end >= last.end)) lanes.lastHold = { tid: lane.tid, start: i.start, end: i.end };
    }
    if (i.ended === 'sessionEnded') this.emit({ ph: 'i', s: 't', name: 'session lost', cat: 'session', pid, tid: lane.tid, ts: micros(end), args: { session: i.session ?? null } });
    // The node has left (it does not come back after a hold or a wait that did not lead to one): its lane is free.
    if (i.end !== undefined && i.ended !== 'acquired') {
      lanes.byNode.delete(i.node);
      lane.freeAt = Math.max(lane.freeAt, i.end);
      lanes.free.push(lane);
    }
  }

  gap(gap: HistoryGap, end: number): void {
    if (gap.lock === undefined) this.emit({ ph: 'X', name: 'gap', cat: 'monitor', pid: MONITOR_PID, tid: 0, ts: micros(gap.from), dur: micros(end - gap.from), args: { open: gap.to === undefined } });
    else this.emit({ ph: 'X', name: 'unseen changes', cat: 'monitor', pid: this.lanesOf(gap.lock).pid, tid: 0, ts: micros(gap.from), dur: micros(end - gap.from), args: { unseen: gap.unseen ?? 0 } });
  }

  queue(sample: QueueSample): void {
    this.emit({ ph: 'C', name: 'queue length', pid: this.lanesOf(sample.lock).pid, tid: 0, ts: micros(sample.at), args: { length: sample.length } });
  }

  /** Intervals summarised out of memory are not drawn one by one: a span on the lock says how many and what they were. */
  summary(summary: LockSummary): void {
    this.emit({
      ph: 'X', name: 'summarised', cat: 'monitor', pid: this.lanesOf(summary.lock).pid, tid: 0, ts: micros(summary.from), dur: micros(summary.to - summary.from),
      args: { holds: summary.holds.count, waits: summary.waits.count, holdMaxMs: summary.holds.max, holdMedianMs: summary.holds.quantile(0.5) ?? null, holdP95Ms: summary.holds.quantile(0.95) ?? null, waitMaxMs: summary.waits.max },
    });
  }

  private emit(event: object): void {
    this.buffer += (this.first ? '\n' : ',\n') + JSON.stringify(event);
    this.first = false;
  }

  private lanesOf(lock: string): LockLanes {
    let lanes = this.locks.get(lock);
    if (!lanes) {
      lanes = { pid: this.locks.size + 1, free: [], byNode: new Map() };
      this.locks.set(lock, lanes);
      this.emit({ ph: 'M', name: 'process_name', pid: lanes.pid, tid: 0, args: { name: this.text(lock) } });
      this.emit({ ph: 'M', name: 'thread_name', pid: lanes.pid, tid: 0, args: { name: 'monitor' } });
    }
    return lanes;
  }

  /** The node's lane, or a free one that ended before the interval starts, or a new one. */
  private laneOf(i: HistoryInterval): { pid: number; lane: Lane } {
    const lanes = this.lanesOf(i.lock);
    let lane = lanes.byNode.get(i.node);
    if (!lane) {
      const index = lanes.free.findIndex((l) => l.freeAt <= i.start);
      if (index >= 0) lane = lanes.free.splice(index, 1)[0];
      else {
        lane = { tid: this.nextTid++, freeAt: 0 };
        this.emit({ ph: 'M', name: 'thread_name', pid: lanes.pid, tid: lane.tid, args: { name: `lane ${lane.tid}` } });
      }
      lanes.byNode.set(i.node, lane);
    }
    return { pid: lanes.pid, lane };
  }
}
