// The recording file: JSON Lines, one self-contained record a line, so a recording killed at any moment is valid up
// to its last whole line. The first line is a header with the format's version. `open` records an interval that
// began; `close` repeats it whole with its end (so a reader never needs the `open`); `ended` corrects an end reason
// learnt later; `gap` and `queue` as in the model. Past the size limit the file is rotated: it becomes `<file>.1`
// (replacing an older one) and a new file starts with a header and the intervals still open, so each file loads on
// its own.
import * as fs from 'fs';
import { LockHistory } from './history';
import type { HistoryEvent, HistoryGap, HistoryInterval, QueueSample } from './model';

export const RECORDING_FORMAT = 'zooscope-lock-history';
export const RECORDING_VERSION = 1;

export type RecordingLine =
  | { type: 'header'; format: typeof RECORDING_FORMAT; version: number; startedAt: number; root?: string }
  | { type: 'open' | 'close' | 'ended'; interval: HistoryInterval }
  | { type: 'gap'; gap: HistoryGap }
  | { type: 'queue'; sample: QueueSample };

export function lineOf(event: HistoryEvent): RecordingLine {
  switch (event.type) {
    case 'gap': return { type: 'gap', gap: event.gap };
    case 'queue': return { type: 'queue', sample: event.sample };
    default: return { type: event.type, interval: event.interval };
  }
}

/**
 * The size a recording is rotated at when none is given: a recording left running (a night, a weekend) must not fill
 * the disk. With its rotated part, at most twice this is kept.
 */
export const DEFAULT_RECORDING_LIMIT_BYTES = 256 * 1024 * 1024;

export interface RecordingOptions {
  /** Rotate once the file reaches this many bytes (0: never); DEFAULT_RECORDING_LIMIT_BYTES when not given. */
  maxBytes?: number;
  root?: string;
  now?: () => number;
}

export class RecordingWriter {
  private fd: number;
  private bytes = 0;
  private headerBytes = 0;
  private readonly open = new Map<number, HistoryInterval>();
  rotations = 0;
  /** The size this file is rotated at (0: never). */
  readonly maxBytes: number;

  constructor(readonly file: string, private readonly options: RecordingOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_RECORDING_LIMIT_BYTES;
    this.fd = openPrivate(file);
    this.writeHeader();
  }

  write(event: HistoryEvent): void {
    if (event.type === 'open') this.open.set(event.interval.id, event.interval);
    else if (event.type === 'close') this.open.delete(event.interval.id);
    const line = lineOf(event);
    const text = JSON.stringify(line) + '\n';
    if (this.maxBytes > 0 && this.bytes + Buffer.byteLength(text) > this.maxBytes && this.bytes > this.headerBytes) this.rotate();
    this.append(text);
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  private writeHeader(): void {
    const header: RecordingLine = { type: 'header', format: RECORDING_FORMAT, version: RECORDING_VERSION, startedAt: (this.options.now ?? Date.now)(), ...(this.options.root ? { root: this.options.root } : {}) };
    this.append(JSON.stringify(header) + '\n');
    this.headerBytes = this.bytes;
  }

  private rotate(): void {
    fs.closeSync(this.fd);
    fs.renameSync(this.file, `${this.file}.1`);
    this.fd = openPrivate(this.file);
    this.bytes = 0;
    this.rotations++;
    this.writeHeader();
    for (const interval of this.open.values()) this.append(JSON.stringify({ type: 'open', interval }) + '\n');
  }

  private append(text: string): void {
    const buffer = Buffer.from(text);
    fs.writeSync(this.fd, buffer);
    this.bytes += buffer.length;
  }
}

/**
 * 0600 and never through a symbolic link, like every file ZooScope writes with data from ZooKeeper in it; written
 * in place (not renamed at the end like an export) so that what is written is on disk if the process is killed.
 */
function openPrivate(file: string): number {
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(file, O_WRONLY | O_CREAT | O_TRUNC | (O_NOFOLLOW ?? 0), 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  return fd;
}

export interface LoadedRecording {
  history: LockHistory;
  startedAt: number;
  root?: string;
  /** The last line was cut short (the writer was killed mid-line): left out. */
  tornLastLine: boolean;
  /** When the last record happened, as far as the file tells: open intervals are bounded by it. */
  lastAt: number;
}

export class RecordingFormatError extends Error {}

/** Loads a recording; a torn last line is left out, any other bad line is an error naming its number. */
export function parseRecording(text: string, maxIntervals?: number): LoadedRecording {
  return parseRecordings([text], maxIntervals);
}

/**
 * Loads the files of one rotated recording, oldest first, as one history: each file begins with its own header and
 * the intervals open when it began (the same ids, so they are not counted twice). A torn last line is left out.
 */
export function parseRecordings(texts: readonly string[], maxIntervals?: number): LoadedRecording {
  const history = new LockHistory(maxIntervals);
  let first: Extract<RecordingLine, { type: 'header' }> | undefined;
  const state = { tornLastLine: false, lastAt: 0 };
  texts.forEach((text, index) => {
    const header = parseInto(history, text, state, texts.length > 1 ? `file ${index + 1}, ` : '');
    first ??= header;
  });
  if (!first) throw new RecordingFormatError('empty recording');
  history.startedAt = first.startedAt;
  return { history, startedAt: first.startedAt, root: first.root, tornLastLine: state.tornLastLine, lastAt: state.lastAt };
}

function parseInto(history: LockHistory, text: string, state: { tornLastLine: boolean; lastAt: number }, where: string): Extract<RecordingLine, { type: 'header' }> | undefined {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let header: Extract<RecordingLine, { type: 'header' }> | undefined;
  let lastAt = state.lastAt;
  const byId = new Map<number, HistoryInterval>();
  for (let n = 0; n < lines.length; n++) {
    let line: RecordingLine;
    try {
      line = JSON.parse(lines[n]) as RecordingLine;
    } catch {
      if (n === lines.length - 1 && !text.endsWith('\n')) {
        state.tornLastLine = true;
        break;
      }
      throw new RecordingFormatError(`${where}line ${n + 1} is not JSON`);
    }
    if (n === 0) {
      if (line.type !== 'header' || line.format !== RECORDING_FORMAT) throw new RecordingFormatError(`${where}not a ZooScope lock recording (no header line)`);
      if (line.version > RECORDING_VERSION) throw new RecordingFormatError(`recording version ${line.version} is newer than this ZooScope reads (${RECORDING_VERSION})`);
      header = line;
      lastAt = Math.max(lastAt, line.startedAt);
      continue;
    }
    switch (line.type) {
      case 'open': {
        const interval = { ...line.interval };
        history.noteId(interval.id);
        byId.set(interval.id, interval);
        history.open.set(String(interval.id), interval);
        lastAt = Math.max(lastAt, interval.start);
        break;
      }
      case 'close': {
        const interval = { ...line.interval };
        history.noteId(interval.id);
        history.open.delete(String(interval.id));
        byId.delete(interval.id);
        history.addClosed(interval);
        lastAt = Math.max(lastAt, interval.end ?? interval.start);
        break;
      }
      case 'ended': {
        const closed = findClosed(history, line.interval.id);
        if (closed) closed.ended = line.interval.ended;
        break;
      }
      case 'gap': {
        const known = history.gaps.find((g) => g.from === line.gap.from && g.lock === line.gap.lock);
        if (known) known.to = line.gap.to;
        else history.gaps.push({ ...line.gap });
        lastAt = Math.max(lastAt, line.gap.to ?? line.gap.from);
        break;
      }
      case 'queue':
        history.addSample({ ...line.sample });
        lastAt = Math.max(lastAt, line.sample.at);
        break;
      default:
        throw new RecordingFormatError(`${where}line ${n + 1}: unknown record`);
    }
  }
  state.lastAt = lastAt;
  return header;
}

/** Recent ids are near the end: search backwards. */
function findClosed(history: LockHistory, id: number): HistoryInterval | undefined {
  for (let i = history.closed.length - 1; i >= 0; i--) if (history.closed[i].id === id) return history.closed[i];
  return undefined;
}

export function readRecording(file: string, maxIntervals?: number): LoadedRecording {
  return parseRecording(fs.readFileSync(file, 'utf8'), maxIntervals);
}

/** The files a recording at `file` is in, oldest first: its rotated part (`<file>.1`, when there is one) and itself. */
export function recordingFiles(file: string): string[] {
  const rotated = `${file}.1`;
  return fs.existsSync(rotated) ? [rotated, file] : [file];
}

/** A recording with its rotated part, as one history (`zooscope locks --replay`). */
export function readRotatedRecording(file: string, maxIntervals?: number): LoadedRecording {
  return parseRecordings(recordingFiles(file).map((f) => fs.readFileSync(f, 'utf8')), maxIntervals);
}
