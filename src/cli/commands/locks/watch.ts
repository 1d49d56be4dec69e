// `zooscope locks … --watch`: follows the queues live, printing each change, until Ctrl-C (SIGINT), SIGTERM,
// SIGHUP, `--for` or a reader gone from stdout (an expired session is replaced, with a gap); then prints the
// contention figures. `--record` writes the history as it happens (JSON Lines, rotated at `--record-limit`),
// `--trace` the Trace Event JSON at the end. `zooscope locks --replay <file>` prints the figures of a recording,
// with its rotated part (and `--trace` converts it).
// The live part (the monitor on each session, an expired one replaced) is liveWatch.ts.
import {
  HistoryEvent, LockHistory, lockFigures, LockRecorder, readRotatedRecording, recordingFiles, RecordingWriter, writeTraceFromHistory, writeTraceFromRecording,
} from '../../../zk/history';
import type { LockMetrics } from '../../../zk/metrics';
import type { ZkSession } from '../../../zk/session/session';
import { writePrivateFile } from '../../../zk/transfer/privateFile';
import { visibleText } from '../../../shared/visibleText';
import { eventLine, figuresText } from './historyFormat';
import type { CommandContext } from '../../command';
import type { Output } from '../../output';
import { WatchEnd } from '../../watchEnd';
import { LiveWatch, LiveWatchArgs } from './liveWatch';

export interface WatchArgs extends LiveWatchArgs {
  record?: string;
  recordLimitBytes?: number;
  trace?: string;
  /** --metrics: what the command's server (metricsServer.ts) serves, fed by this watch's recorder. */
  metrics?: LockMetrics;
}

/**
 * `newSession`: a fresh session like the first (not yet open). Given, an expired session does not end the watch: the
 * history has a gap (said in one line on stderr) and goes on with a new session; without it, expiry ends the watch.
 */
export async function runWatch(session: ZkSession, args: WatchArgs, { out, say }: Pick<CommandContext, 'out' | 'say'>, newSession?: () => ZkSession): Promise<number> {
  const recorder = new LockRecorder();
  const stopMetrics = args.metrics?.attach(recorder);
  const writer = args.record ? new RecordingWriter(args.record, { maxBytes: args.recordLimitBytes, root: args.path }) : undefined;
  const end = new WatchEnd(out);
  let failure: Error | undefined;
  recorder.onEvent(recordAndPrint(writer, args.json ? undefined : out, (error) => {
    failure ??= error;
    end.now();
  }));
  const watch = new LiveWatch(recorder, args, { out, say }, end.now, () => end.asked, newSession);
  try {
    watch.follow(session);
    await end.reached;
  } finally {
    end.dispose();
    watch.close();
    stopMetrics?.();
    writer?.close();
  }
  if (failure) {
    say(`recording stopped: ${failure.message}`);
    return 1;
  }
  return report(recorder.history, { from: watch.startedAt, to: Date.now() }, watch.sessionEnded, args, writer, { out, say });
}

/** Each event of the history into the recording (if any) and, as a line, onto `out` (if given). */
function recordAndPrint(writer: RecordingWriter | undefined, out: Output | undefined, failed: (error: Error) => void): (event: HistoryEvent) => void {
  return (event) => {
    try {
      writer?.write(event);
    } catch (error) {
      // A full disk or a removed folder: stop rather than record a history with holes nobody sees.
      failed(error as Error);
    }
    if (out) {
      const line = eventLine(event);
      if (line) out.text(line);
    }
  };
}

/** What a watch that ended says: the trace, how the session ended, the figures; the exit code. */
async function report(
  history: LockHistory, window: { from: number; to: number }, sessionEnded: string | undefined, args: WatchArgs,
  writer: RecordingWriter | undefined, { out, say }: Pick<CommandContext, 'out' | 'say'>,
): Promise<number> {
  // A recording that holds the whole history (never rotated) gives the trace every interval, also those summarised
  // out of memory; otherwise memory's history does (summarised ones as one span per lock).
  if (args.trace && writer && writer.rotations === 0) {
    await writeStreamedTrace(writer.file, args.trace);
    args = { ...args, trace: undefined };
  }
  if (sessionEnded) say(`the session ${sessionEnded === 'expired' ? 'expired' : `ended (${sessionEnded})`}; the history ends with a gap`);
  await finish(history, window, args, out);
  return sessionEnded ? 1 : 0;
}

export async function runReplay(file: string, args: Pick<WatchArgs, 'json' | 'trace'>, out: Output, say: CommandContext['say']): Promise<number> {
  // With its rotated part (`<file>.1`) when --record-limit rotated it: one history, oldest first.
  const files = recordingFiles(file);
  const loaded = readRotatedRecording(file);
  if (files.length > 1 && !args.json) out.text(`replaying ${visibleText(files[0])} and ${visibleText(file)}`);
  if (loaded.tornLastLine) say('the recording ends in a cut line (the recorder was stopped mid-write); it is left out');
  // The trace streams from the files: every interval, however long the recording.
  if (args.trace) await writeStreamedTrace(files, args.trace);
  await finish(loaded.history, { from: loaded.startedAt, to: loaded.lastAt }, { json: args.json }, out);
  return 0;
}

async function writeStreamedTrace(recording: string | readonly string[], file: string): Promise<void> {
  await writePrivateFile(file, (write) => writeTraceFromRecording(recording, write, visibleText));
}

async function finish(history: LockHistory, window: { from: number; to: number }, args: Pick<WatchArgs, 'json' | 'trace'>, out: Output): Promise<void> {
  // Intervals open at the end end there (as bounds): the whole history, not only what began in the window.
  const figures = lockFigures(history, undefined, window.to);
  if (args.trace) await writeTraceFile(history, args.trace, window.to);
  if (args.json) out.json({ from: window.from, to: window.to, gaps: history.gaps, figures });
  else out.text(figuresText(figures, window));
}

/** The history's Trace Event file (0600), whole or not at all. */
export async function writeTraceFile(history: LockHistory, file: string, now: number): Promise<void> {
  await writePrivateFile(file, (write) => writeTraceFromHistory(history, write, { now, text: visibleText }));
}
