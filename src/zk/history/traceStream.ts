// Traces (the Trace Event Format, traceWriter.ts) from a recording file, one line at a time, for recordings longer
// than memory keeps (a night of a busy lock), and from a panel's history in memory: both through the one writer, so
// what is held at once is bounded by what is live at once (open intervals, one lane per live participant, a short
// window for end reasons learnt late) and one chunk of text, not by the length of the night.
import * as fs from 'fs';
import * as readline from 'readline';
import type { LockHistory } from './history';
import { CancelledError, type ExportProgress } from './historyFiles';
import type { HistoryGap, HistoryInterval } from './model';
import { TraceSink, TraceWriter } from './traceWriter';
import { RECORDING_FORMAT, RECORDING_VERSION, RecordingFormatError, RecordingLine } from './recordingFile';

/** Closed intervals wait this long (in records) for an end reason learnt later before they are written. */
const ENDED_WINDOW = 4096;

export interface StreamedTrace {
  intervals: number;
  tornLastLine: boolean;
}

/** `file`: a recording, or the files of a rotated one oldest first (recordingFiles), streamed as one. */
export async function writeTraceFromRecording(file: string | readonly string[], write: TraceSink, text: (value: string) => string = (v) => v): Promise<StreamedTrace> {
  const out = new TraceWriter(write, text);
  const open = new Map<number, HistoryInterval>();
  const closing = new Map<number, HistoryInterval>();
  const gaps = new Map<string, HistoryGap>();
  const flushClosing = (all: boolean) => {
    for (const [id, interval] of closing) {
      if (!all && closing.size <= ENDED_WINDOW) break;
      closing.delete(id);
      out.interval(interval, interval.end ?? interval.start);
    }
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
        else { gaps.delete(key); out.gap(line.gap, line.gap.to); }
        break;
      }
      case 'queue':
        lastAt = Math.max(lastAt, line.sample.at);
        out.queue(line.sample);
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
      if (out.full) await out.flush();
    }
    if (pending !== undefined && pending !== '') handle(pending, !(await endsWithNewline(part)));
    any ||= lineNumber > 0;
  }
  if (!any) throw new RecordingFormatError('empty recording');
  flushClosing(true);
  for (const interval of open.values()) {
    out.interval(interval, Math.max(lastAt, interval.start));
    if (out.full) await out.flush();
  }
  for (const gap of gaps.values()) out.gap(gap, lastAt);
  await out.end();
  return { intervals: out.intervals, tornLastLine };
}

/** Intervals between two looks at the signal (and a progress report). */
const STEP = 5000;

export interface HistoryTraceOptions extends ExportProgress {
  /** Where open intervals and gaps end (ms since the epoch); open ones say `open: true`. */
  now?: number;
  /** Applied to every text from ZooKeeper (lock paths, node names, labels). */
  text?: (value: string) => string;
}

/**
 * A history in memory as a trace, through the same writer: intervals in start order (so lanes are reused and each
 * hand-over links a hold to the next), then gaps, summaries and queue samples. Throws CancelledError when `signal` aborts.
 */
export async function writeTraceFromHistory(history: LockHistory, write: TraceSink, options: HistoryTraceOptions = {}): Promise<{ intervals: number }> {
  const now = options.now ?? Date.now();
  const out = new TraceWriter(write, options.text);
  const all: HistoryInterval[] = [...history.intervals()];
  const order = Uint32Array.from(all.keys()).sort((a, b) => all[a].start - all[b].start || all[a].id - all[b].id);
  const step = async (done: number) => {
    if (options.signal?.aborted) throw new CancelledError();
    options.onProgress?.(all.length === 0 ? 1 : done / all.length);
    await out.flush();
    // A sink that writes at once never makes us wait: give the event loop a turn (a cancel, the progress).
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  for (let k = 0; k < order.length; k++) {
    const interval = all[order[k]];
    out.interval(interval, interval.end ?? Math.max(now, interval.start));
    if (k % STEP === STEP - 1) await step(k + 1);
    else if (out.full) await out.flush();
  }
  for (const gap of history.gaps) out.gap(gap, gap.to ?? now);
  for (const summary of history.summaries.values()) out.summary(summary);
  for (const sample of history.samples) {
    out.queue(sample);
    if (out.full) await out.flush();
  }
  await step(all.length);
  await out.end();
  return { intervals: out.intervals };
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
