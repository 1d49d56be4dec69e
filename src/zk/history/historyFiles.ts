// A whole history to a recording (the JSON Lines format `zooscope locks --record` writes, recordingFile.ts) and a
// recording read back, both in steps that give way to the event loop, report progress and stop when cancelled: a
// panel's history or a night's recording can be large. Intervals summarised out of memory are not in the export
// (a recording holds intervals, not summaries): `summarised` says how many were left out.
import * as fs from 'fs';
import type { LockHistory } from './history';
import { lineOf, parseRecording, RECORDING_FORMAT, RECORDING_VERSION, type LoadedRecording, type RecordingLine } from './recordingFile';

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

/** Lines between two looks at the signal (and a turn of the event loop). */
const STEP = 5000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface ExportProgress {
  signal?: AbortSignal;
  /** Called with the share done (0…1). */
  onProgress?: (done: number) => void;
}

/**
 * Writes `history` as a recording through `write` (chunks of lines): the header, every closed interval as its
 * `close` record, the open ones as `open`, the gaps and the queue samples. Throws CancelledError when `signal` aborts.
 */
export async function writeHistoryRecording(history: LockHistory, write: (chunk: string) => void, options: ExportProgress & { root?: string; startedAt?: number } = {}): Promise<{ lines: number; summarised: number }> {
  // When recording began, or earlier when a node found then began before: the file's records all follow its header.
  let startedAt = options.startedAt ?? history.startedAt ?? Infinity;
  for (const i of history.intervals()) if (i.start < startedAt) startedAt = i.start;
  for (const g of history.gaps) if (g.from < startedAt) startedAt = g.from;
  if (!Number.isFinite(startedAt)) startedAt = Date.now();
  const header: RecordingLine = { type: 'header', format: RECORDING_FORMAT, version: RECORDING_VERSION, startedAt, ...(options.root ? { root: options.root } : {}) };
  const records: (() => RecordingLine)[] = [];
  for (const interval of history.closed) records.push(() => lineOf({ type: 'close', interval }));
  for (const interval of history.open.values()) records.push(() => lineOf({ type: 'open', interval }));
  for (const gap of history.gaps) records.push(() => lineOf({ type: 'gap', gap }));
  for (const sample of history.samples) records.push(() => lineOf({ type: 'queue', sample }));
  write(JSON.stringify(header) + '\n');
  for (let at = 0; at < records.length; at += STEP) {
    if (options.signal?.aborted) throw new CancelledError();
    write(records.slice(at, at + STEP).map((record) => JSON.stringify(record()) + '\n').join(''));
    options.onProgress?.(Math.min(1, (at + STEP) / records.length));
    await nextTurn();
  }
  let summarised = 0;
  for (const summary of history.summaries.values()) summarised += summary.holds.count + summary.waits.count;
  return { lines: records.length + 1, summarised };
}

/** Reads a recording in chunks (progress as the share of bytes read), then parses it. */
export async function loadRecordingFile(file: string, options: ExportProgress & { maxIntervals?: number } = {}): Promise<LoadedRecording> {
  const size = (await fs.promises.stat(file)).size;
  const chunks: Buffer[] = [];
  let read = 0;
  const stream = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream) {
      if (options.signal?.aborted) throw new CancelledError();
      chunks.push(chunk as Buffer);
      read += (chunk as Buffer).length;
      options.onProgress?.(size > 0 ? Math.min(1, read / size) : 1);
    }
  } finally {
    stream.destroy();
  }
  if (options.signal?.aborted) throw new CancelledError();
  return parseRecording(Buffer.concat(chunks).toString('utf8'), options.maxIntervals);
}
