// `zooscope locks … --watch`: follows the queues live, printing each change, until Ctrl-C (SIGINT), SIGTERM,
// SIGHUP, `--for` or a reader gone from stdout (an expired session is replaced, with a gap); then prints the
// contention figures. `--record` writes the history as it happens (JSON Lines, rotated at `--record-limit`),
// `--trace` the Trace Event JSON at the end. `zooscope locks --replay <file>` prints the figures of a recording,
// with its rotated part (and `--trace` converts it).
import { LockMonitor } from '../../../zk/analysis';
import type { AnalyzeOptions } from '../../../zk/analysis';
import type { LockAnalysis } from '../../../shared/lockAnalysis';
import { followMonitor, LockHistory, lockFigures, LockRecorder, readRotatedRecording, recordingFiles, RecordingWriter, writeTraceFromHistory, writeTraceFromRecording } from '../../../zk/history';
import type { ZkSession } from '../../../zk/session/session';
import { createPrivateFile } from '../../../zk/transfer/privateFile';
import { visibleText } from '../../../shared/visibleText';
import { eventLine, figuresText } from './historyFormat';
import type { CommandContext } from '../../command';
import type { Output } from '../../output';

/** Between attempts to open a new session after one expired. */
const RENEW_RETRY_MS = 1000;

export interface WatchArgs {
  path: string;
  json: boolean;
  forMs?: number;
  record?: string;
  recordLimitBytes?: number;
  trace?: string;
  options: AnalyzeOptions;
}

/**
 * `newSession`: a fresh session like the first (not yet open). Given, an expired session does not end the watch: the
 * history has a gap (said in one line on stderr) and goes on with a new session; without it, expiry ends the watch.
 */
export async function runWatch(session: ZkSession, args: WatchArgs, { out, say }: Pick<CommandContext, 'out' | 'say'>, newSession?: () => ZkSession): Promise<number> {
  const recorder = new LockRecorder();
  const writer = args.record ? new RecordingWriter(args.record, { maxBytes: args.recordLimitBytes, root: args.path }) : undefined;
  let failure: Error | undefined;
  let stopping = false;
  let resolveStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => { resolveStopped = resolve; });
  const stop = () => {
    stopping = true;
    resolveStopped();
  };
  recorder.onEvent((event) => {
    try {
      writer?.write(event);
    } catch (error) {
      // A full disk or a removed folder: stop rather than record a history with holes nobody sees.
      failure ??= error as Error;
      stop();
    }
    if (!args.json) {
      const line = eventLine(event);
      if (line) out.text(line);
    }
  });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.once(signal, stop);
  out.onClosed(stop);
  // --for counts from the first complete look at the queues: a slow connect does not eat the window.
  let timer: NodeJS.Timeout | undefined;
  let startedAt = Date.now();
  let firstLook = true;
  let sessionEnded: string | undefined;
  let following: { monitor: LockMonitor; leave: () => void } | undefined;
  const renewed: ZkSession[] = [];

  // "watching" says that what happens from now on is recorded exactly: once the recorder is synced with the
  // server's events (a change before that may have come before its watch, and is only bounded), or at the first look
  // on a server without persistent watches (the reads are all there is).
  let announced = false;
  let lastLook: LockAnalysis | undefined;
  const announce = () => {
    if (announced || !lastLook) return;
    announced = true;
    const participants = lastLook.queues.reduce((n, q) => n + q.participants.length, 0);
    if (!args.json) out.text(`watching ${visibleText(args.path)}: ${lastLook.queues.length} queue(s), ${participants} participant(s); Ctrl-C ends`);
  };

  const follow = (current: ZkSession) => {
    const monitor = new LockMonitor(current, args.path, args.options);
    const stopFirst = monitor.onUpdate((analysis) => {
      stopFirst();
      // With a renewed session, its first look ends the gap the expiry began (a no-op for the first session).
      recorder.gapEnded(analysis.takenAt);
      if (!firstLook) return;
      firstLook = false;
      startedAt = analysis.takenAt;
      if (args.forMs !== undefined) timer = setTimeout(stop, args.forMs);
    });
    const stopLooks = monitor.onUpdate((analysis) => {
      lastLook = analysis;
      if (current.watches.persistent === false) announce();
    });
    const unfollow = followMonitor(current, monitor, recorder, Date.now, announce);
    const onState = (state: string) => {
      if (state === 'expired' && newSession) {
        void renew();
        return;
      }
      // A session that ended cannot see again: stop with the gap on record.
      if (state !== 'expired' && state !== 'closed' && state !== 'authFailed') return;
      sessionEnded ??= state;
      stop();
    };
    current.on('state', onState);
    following = {
      monitor,
      leave: () => {
        current.off('state', onState);
        stopLooks();
        unfollow();
        monitor.dispose();
      },
    };
    monitor.start();
  };

  const renew = async () => {
    following?.leave();
    following = undefined;
    say('the session expired; going on with a new session (the history has a gap)');
    while (!stopping && newSession) {
      const next = newSession();
      renewed.push(next);
      try {
        await next.open();
      } catch {
        next.close();
        // The servers may still be out of reach: try again shortly, until stopped.
        await new Promise((resolve) => setTimeout(resolve, RENEW_RETRY_MS));
        continue;
      }
      if (!stopping) follow(next);
      return;
    }
  };

  try {
    follow(session);
    await stopped;
  } finally {
    clearTimeout(timer);
    for (const signal of signals) process.off(signal, stop);
    following?.leave();
    for (const s of renewed) s.close();
    writer?.close();
  }
  if (failure) {
    say(`recording stopped: ${failure.message}`);
    return 1;
  }
  const endedAt = Date.now();
  // A recording that holds the whole history (never rotated) gives the trace every interval, also those summarised
  // out of memory; otherwise memory's history does (summarised ones as one span per lock).
  if (args.trace && writer && writer.rotations === 0) {
    await writeStreamedTrace(writer.file, args.trace);
    args = { ...args, trace: undefined };
  }
  if (sessionEnded) say(`the session ${sessionEnded === 'expired' ? 'expired' : `ended (${sessionEnded})`}; the history ends with a gap`);
  await finish(recorder.history, { from: startedAt, to: endedAt }, args, out);
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
  const target = createPrivateFile(file);
  try {
    await writeTraceFromRecording(recording, (chunk) => target.write(chunk), visibleText);
    target.commit();
  } catch (error) {
    target.discard();
    throw error;
  }
}

async function finish(history: LockHistory, window: { from: number; to: number }, args: Pick<WatchArgs, 'json' | 'trace'>, out: Output): Promise<void> {
  // Intervals open at the end end there (as bounds): the whole history, not only what began in the window.
  const figures = lockFigures(history, undefined, window.to);
  if (args.trace) await writeTraceFile(history, args.trace, window.to);
  if (args.json) out.json({ from: window.from, to: window.to, gaps: history.gaps, figures });
  else out.text(figuresText(figures, window));
}

async function writeTraceFile(history: LockHistory, file: string, now: number): Promise<void> {
  const target = createPrivateFile(file);
  try {
    await writeTraceFromHistory(history, (chunk) => target.write(chunk), { now, text: visibleText });
    target.commit();
  } catch (error) {
    target.discard();
    throw error;
  }
}
