// The Trace Event Format straight from a recording file, one line at a time, for recordings longer than memory
// keeps (a night of a busy lock): no interval is summarised, and what is held at once is bounded by what is live at
// once (open intervals, one lane per live participant, a short window for end reasons learnt late), not by the
// length of the night. Lanes are reused once their participant has left, so each lane is named `lane <n>` and each
// event's args name the node and session; no two events of a lane overlap.
import * as fs from 'fs';
import * as readline from 'readline';
import type { HistoryGap, HistoryInterval } from './model';
import { micros, sliceEvent, traceEventWriter } from './traceExport';
import { RECORDING_FORMAT, RECORDING_VERSION, RecordingFormatError, RecordingLine } from './recordingFile';

/** Closed intervals wait this long (in records) for an end reason learnt later before they are written. */
const ENDED_WINDOW = 4096;
const MONITOR_PID = 0;

interface Lane { tid: number; freeAt: number }
interface LockLanes { pid: number; free: Lane[]; byNode: Map<string, Lane>; lastHold?: { tid: number; start: number; end: number } }

export interface StreamedTrace {
  intervals: number;
  tornLastLine: boolean;
}

/** `file`: a recording, or the files of a rotated one oldest first (recordingFiles), streamed as one. */
export async function writeTraceFromRecording(file: string | readonly string[], write: (chunk: string) => void, text: (value: string) => string = (v) => v): Promise<StreamedTrace> {
  const { emit, end } = traceEventWriter(write);

  const locks = new Map<string, LockLanes>();
  let nextTid = 1;
  let flowId = 0;
  let intervals = 0;
  const lanesOf = (lock: string): LockLanes => {
    let lanes = locks.get(lock);
    if (!lanes) {
      lanes = { pid: locks.size + 1, free: [], byNode: new Map() };
      locks.set(lock, lanes);
      emit({ ph: 'M', name: 'process_name', pid: lanes.pid, tid: 0, args: { name: text(lock) } });
      emit({ ph: 'M', name: 'thread_name', pid: lanes.pid, tid: 0, args: { name: 'monitor' } });
    }
    return lanes;
  };
  /** The node's lane, or a free one that ended before `start`, or a new one. */
  const laneOf = (i: HistoryInterval): { pid: number; lane: Lane } => {
    const lanes = lanesOf(i.lock);
    let lane = lanes.byNode.get(i.node);
    if (!lane) {
      const index = lanes.free.findIndex((l) => l.freeAt <= i.start);
      if (index >= 0) lane = lanes.free.splice(index, 1)[0];
      else {
        lane = { tid: nextTid++, freeAt: 0 };
        emit({ ph: 'M', name: 'thread_name', pid: lanes.pid, tid: lane.tid, args: { name: `lane ${lane.tid}` } });
      }
      lanes.byNode.set(i.node, lane);
    }
    return { pid: lanes.pid, lane };
  };
  const writeInterval = (i: HistoryInterval, end: number) => {
    const { pid, lane } = laneOf(i);
    const lanes = lanesOf(i.lock);
    intervals++;
    emit(sliceEvent(i, pid, lane.tid, end, text));
    if (i.kind === 'hold') {
      const last = lanes.lastHold;
      if (last && i.start >= last.end) {
        flowId++;
        emit({ ph: 's', name: 'hand-over', cat: 'lock', id: flowId, pid, tid: last.tid, ts: Math.max(micros(last.start), micros(last.end) - 1) });
        emit({ ph: 'f', bp: 'e', name: 'hand-over', cat: 'lock', id: flowId, pid, tid: lane.tid, ts: micros(i.start) });
      }
      if (i.end !== undefined && (!last || i.end >= last.end)) lanes.lastHold = { tid: lane.tid, start: i.start, end: i.end };
    }
    if (i.ended === 'sessionEnded') emit({ ph: 'i', s: 't', name: 'session lost', cat: 'session', pid, tid: lane.tid, ts: micros(end), args: { session: i.session ?? null } });
    // The node has left (it does not come back after a hold or a wait that did not lead to one): its lane is free.
    if (i.end !== undefined && i.ended !== 'acquired') {
      lanes.byNode.delete(i.node);
      lane.freeAt = Math.max(lane.freeAt, i.end);
      lanes.free.push(lane);
    }
  };

  const open = new Map<number, HistoryInterval>();
  const closing = new Map<number, HistoryInterval>();
  const gaps = new Map<string, HistoryGap>();
  const flushClosing = (all: boolean) => {
    for (const [id, interval] of closing) {
      if (!all && closing.size <= ENDED_WINDOW) break;
      closing.delete(id);
      writeInterval(interval, interval.end ?? interval.start);
    }
  };
  const writeGap = (gap: HistoryGap, end: number) => {
    if (gap.lock === undefined) emit({ ph: 'X', name: 'gap', cat: 'monitor', pid: MONITOR_PID, tid: 0, ts: micros(gap.from), dur: micros(end - gap.from), args: { open: gap.to === undefined } });
    else emit({ ph: 'X', name: 'unseen changes', cat: 'monitor', pid: lanesOf(gap.lock).pid, tid: 0, ts: micros(gap.from), dur: micros(end - gap.from), args: { unseen: gap.unseen ?? 0 } });
  };

  let lastAt = 0;
  let lineNumber = 0;
  let tornLastLine = false;
  const handle = (raw: string, isLast: boolean) => {
    lineNumber++;
    let line: RecordingLine;
    try {
      line = JSON.parse(raw) as RecordingLine;
    } catch {
      if (isLast) { tornLastLine = true; return; }
      throw new RecordingFormatError(`line ${lineNumber} is not JSON`);
    }
    if (lineNumber === 1) {
      if (line.type !== 'header' || line.format !== RECORDING_FORMAT) throw new RecordingFormatError('not a ZooScope lock recording (no header line)');
      if (line.version > RECORDING_VERSION) throw new RecordingFormatError(`recording version ${line.version} is newer than this ZooScope reads (${RECORDING_VERSION})`);
      lastAt = Math.max(lastAt, line.startedAt);
      return;
    }
    switch (line.type) {
      case 'open': open.set(line.interval.id, line.interval); lastAt = Math.max(lastAt, line.interval.start); break;
      case 'close':
        open.delete(line.interval.id);
        closing.set(line.interval.id, line.interval);
        lastAt = Math.max(lastAt, line.interval.end ?? line.interval.start);
        flushClosing(false);
        break;
      case 'ended': { const known = closing.get(line.interval.id); if (known) known.ended = line.interval.ended; break; }
      case 'gap': {
        const key = `${line.gap.lock ?? ''}\0${line.gap.from}`;
        lastAt = Math.max(lastAt, line.gap.to ?? line.gap.from);
        if (line.gap.to === undefined) gaps.set(key, line.gap);
        else { gaps.delete(key); writeGap(line.gap, line.gap.to); }
        break;
      }
      case 'queue':
        lastAt = Math.max(lastAt, line.sample.at);
        emit({ ph: 'C', name: 'queue length', pid: lanesOf(line.sample.lock).pid, tid: 0, ts: micros(line.sample.at), args: { length: line.sample.length } });
        break;
      default: throw new RecordingFormatError(`line ${lineNumber}: unknown record`);
    }
  };
  let any = false;
  for (const part of typeof file === 'string' ? [file] : file) {
    lineNumber = 0;
    let pending: string | undefined;
    const lines = readline.createInterface({ input: fs.createReadStream(part, { encoding: 'utf8' }), crlfDelay: Infinity });
    // One line behind: only the file's last line may be torn, and it is known to be last only at the end.
    for await (const raw of lines) {
      if (pending !== undefined) handle(pending, false);
      pending = raw;
    }
    if (pending !== undefined && pending !== '') handle(pending, !(await endsWithNewline(part)));
    any ||= lineNumber > 0;
  }
  if (!any) throw new RecordingFormatError('empty recording');
  flushClosing(true);
  for (const interval of open.values()) writeInterval(interval, Math.max(lastAt, interval.start));
  for (const gap of gaps.values()) writeGap(gap, lastAt);
  end();
  return { intervals, tornLastLine };
}

async function endsWithNewline(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
