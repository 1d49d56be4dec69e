// The Trace Event Format (the JSON Perfetto and chrome://tracing open), written as a stream: each event is turned
// into text and handed to `write` at once, so a night's million intervals never exist as a million event objects.
// A pid per lock and a tid per participant node (named by metadata events): a node waits, then holds, so no two
// complete events of a lane overlap. Hand-overs are flows from a hold's end to the next hold of its lock; the
// queue length is a counter; session losses are instant events; the monitor's gaps are complete events on a lane
// of their own (pid 0), so they show as gaps rather than as quiet. Intervals the store summarised (past its cap) are
// one `summarised` span per lock with their counts and sketch figures, not dropped silently.
import type { LockHistory } from './history';
import type { HistoryInterval } from './model';

export interface TraceOptions {
  /** Where open intervals end (ms since the epoch); they say `open: true`. */
  now?: number;
  /** Applied to every text from ZooKeeper (lock paths, node names, labels). */
  text?: (value: string) => string;
}

const MONITOR_PID = 0;
export const micros = (ms: number): number => Math.round(ms * 1000);

/** The complete event of one hold or wait, ending at `end` (its own end, or "now" while open). */
export function sliceEvent(i: HistoryInterval, pid: number, tid: number, end: number, text: (value: string) => string): object {
  return {
    ph: 'X', name: i.kind, cat: 'lock', pid, tid, ts: micros(i.start), dur: Math.max(0, micros(end) - micros(i.start)),
    args: {
      lock: text(i.lock), node: text(i.node), session: i.session ?? null, exact: i.startExact && i.end !== undefined && i.endExact === true,
      participant: i.participant, ...(i.clientAddress ? { client: text(i.clientAddress) } : {}), ...(i.label !== undefined ? { label: text(i.label) } : {}),
      ...(i.ended ? { ended: i.ended } : {}), ...(i.end === undefined ? { open: true } : {}),
    },
  };
}

/**
 * The Trace Event JSON around its events: the opening, the monitor's process and thread names, events written in
 * chunks of about 64 KiB through `write`, and the closing `end()` writes with what is left.
 */
export function traceEventWriter(write: (chunk: string) => void): { emit(event: object): void; end(): void } {
  let buffer = '';
  let first = true;
  const emit = (event: object) => {
    buffer += (first ? '\n' : ',\n') + JSON.stringify(event);
    first = false;
    if (buffer.length >= 65536) {
      write(buffer);
      buffer = '';
    }
  };
  write('{"displayTimeUnit":"ms","traceEvents":[');
  emit({ ph: 'M', name: 'process_name', pid: MONITOR_PID, tid: 0, args: { name: 'monitor' } });
  emit({ ph: 'M', name: 'thread_name', pid: MONITOR_PID, tid: 0, args: { name: 'connection' } });
  return { emit, end: () => write(buffer + '\n]}\n') };
}

/** Writes the whole trace through `write` (called with chunks of about 64 KiB). */
export function writeTrace(history: LockHistory, write: (chunk: string) => void, options: TraceOptions = {}): void {
  const now = options.now ?? Date.now();
  const text = options.text ?? ((value: string) => value);
  const { emit, end } = traceEventWriter(write);
  for (const gap of history.gaps) {
    if (gap.lock !== undefined) continue; // drawn on its lock's process below
    const end = gap.to ?? now;
    emit({ ph: 'X', name: 'gap', cat: 'monitor', pid: MONITOR_PID, tid: 0, ts: micros(gap.from), dur: micros(end - gap.from), args: { open: gap.to === undefined } });
  }

  const pids = new Map<string, number>();
  const tids = new Map<string, number>();
  const pidOf = (lock: string) => {
    let pid = pids.get(lock);
    if (pid === undefined) {
      pid = pids.size + 1;
      pids.set(lock, pid);
      emit({ ph: 'M', name: 'process_name', pid, tid: 0, args: { name: text(lock) } });
      emit({ ph: 'M', name: 'thread_name', pid, tid: 0, args: { name: 'monitor' } });
    }
    return pid;
  };
  const tidOf = (pid: number, i: HistoryInterval) => {
    const key = `${i.lock}/${i.node}`;
    let tid = tids.get(key);
    if (tid === undefined) {
      tid = tids.size + 1;
      tids.set(key, tid);
      const who = [text(i.node), i.session, i.clientAddress, i.label !== undefined ? text(i.label) : undefined].filter((v) => v).join(' ');
      emit({ ph: 'M', name: 'thread_name', pid, tid, args: { name: who } });
    }
    return tid;
  };

  // Holds per lock in start order (indices only), for the flows: each hold that ended links to the next one starting.
  const holdsByLock = new Map<string, number[]>();
  const all: HistoryInterval[] = [...history.intervals()];
  all.forEach((i, index) => {
    if (i.kind !== 'hold') return;
    const list = holdsByLock.get(i.lock) ?? [];
    list.push(index);
    holdsByLock.set(i.lock, list);
  });
  const nextHold = new Map<number, number>();
  for (const list of holdsByLock.values()) {
    list.sort((a, b) => all[a].start - all[b].start);
    for (let k = 0; k < list.length; k++) {
      const end = all[list[k]].end;
      if (end === undefined) continue;
      // First hold starting at or after this one's end: the hand-over (binary search keeps it O(n log n)).
      let lo = k + 1;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (all[list[mid]].start < end) lo = mid + 1;
        else hi = mid;
      }
      if (lo < list.length) nextHold.set(list[k], list[lo]);
    }
  }

  let flowId = 0;
  all.forEach((i, index) => {
    const pid = pidOf(i.lock);
    const tid = tidOf(pid, i);
    const end = i.end ?? now;
    emit(sliceEvent(i, pid, tid, end, text));
    const next = nextHold.get(index);
    if (next !== undefined) {
      const to = all[next];
      flowId++;
      // The start binds to the enclosing slice (the releasing hold: its last microsecond), the end to the next hold.
      emit({ ph: 's', name: 'hand-over', cat: 'lock', id: flowId, pid, tid, ts: Math.max(micros(i.start), micros(end) - 1) });
      emit({ ph: 'f', bp: 'e', name: 'hand-over', cat: 'lock', id: flowId, pid, tid: tidOf(pid, to), ts: micros(to.start) });
    }
    if (i.ended === 'sessionEnded') {
      emit({ ph: 'i', s: 't', name: 'session lost', cat: 'session', pid, tid, ts: micros(end), args: { session: i.session ?? null } });
    }
  });
  for (const gap of history.gaps) {
    if (gap.lock === undefined) continue;
    const end = gap.to ?? now;
    emit({ ph: 'X', name: 'unseen changes', cat: 'monitor', pid: pidOf(gap.lock), tid: 0, ts: micros(gap.from), dur: micros(end - gap.from), args: { unseen: gap.unseen ?? 0 } });
  }
  // Intervals summarised out of memory are not drawn one by one: a span on the lock says how many and what they were.
  for (const summary of history.summaries.values()) {
    emit({
      ph: 'X', name: 'summarised', cat: 'monitor', pid: pidOf(summary.lock), tid: 0, ts: micros(summary.from), dur: micros(summary.to - summary.from),
      args: { holds: summary.holds.count, waits: summary.waits.count, holdMaxMs: summary.holds.max, holdMedianMs: summary.holds.quantile(0.5) ?? null, holdP95Ms: summary.holds.quantile(0.95) ?? null, waitMaxMs: summary.waits.max },
    });
  }
  for (const sample of history.samples) {
    emit({ ph: 'C', name: 'queue length', pid: pidOf(sample.lock), tid: 0, ts: micros(sample.at), args: { length: sample.length } });
  }
  end();
}
