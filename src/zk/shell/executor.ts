// A zkCli 3.8 session in a box: runs command lines (or argument vectors) against a ZkSession and writes to a sink
// what ZooKeeperMain writes to stdout and stderr, byte for byte — the same history/redo numbering, printwatches,
// "Not connected" after close, WATCHER:: blocks for watch events, exit codes (0, 1, 127 unknown command).
// No terminal here: the CLI and a VS Code pseudoterminal feed it lines and show what it writes.
import { visibleText } from '../../shared/visibleText';
import { ErrorCode } from '../errors';
import type { SessionState, ZkSession } from '../session/session';
import { CliError, wrapperMessage } from './zkCliErrors';
import type { AskYesNo } from './connectCredentials';
import { cliCommand, commandListUsage, isKnownCommand, LEGACY_ALIASES } from './commands';
import { parse, RunContext, Runner, usageError } from './context';
import { javaDecodeInt } from './javaFormat';
import { QUOTA_RUNNERS } from './quotaCommands';
import { READ_RUNNERS } from './readCommands';
import { tokenizeLine } from './tokenize';
import { eventTypeName, WatchTracker } from './watchTracker';
import { WRITE_RUNNERS } from './writeCommands';

export interface ShellSink {
  /** Text for stdout, exactly as zkCli prints it (untrusted characters included: the sink decides how to show them). */
  out(text: string): void;
  err(text: string): void;
}

export interface ShellOptions {
  sink: ShellSink;
  /** The connect string zkCli's `connect` reuses when given none. */
  connectString: string;
  /**
   * Opens a session to a connect string (the `connect` command); the shell calls open() on it and closes it.
   * `ask` puts a yes/no question to the user (false when no one can answer).
   */
  openSession(connectString: string, ask: AskYesNo): ZkSession | Promise<ZkSession>;
  /**
   * The connection is read-only: every command that would change the tree is refused before anything is sent, as
   * a read-only server refuses it. Kept across `connect`.
   */
  readOnly?: boolean;
  /**
   * The session given to the constructor belongs to someone else (the VS Code connection the terminal was opened
   * on): `close`, `quit`, `connect` and close() only stop using it, with the same Closed event zkCli prints.
   */
  sharedSession?: boolean;
  /** Told each command's words after it ran (a redo's with the words it ran again), failed or not. */
  onCommand?(words: readonly string[]): void;
  /** Time zone for Stat times; the process's when undefined. */
  timeZone?: string;
}

/**
 * Where one command's output goes. An abandoned command (Ctrl-C while it waits for the server) prints nothing and
 * decides no exit code when its answer comes later: the prompt has moved on. Watch events are the session's and
 * are not a command's output.
 */
class CommandOutput implements ShellSink {
  abandoned = false;
  constructor(private readonly sink: ShellSink) {}
  out(text: string): void { if (!this.abandoned) this.sink.out(text); }
  err(text: string): void { if (!this.abandoned) this.sink.err(text); }
}

const RUNNERS: Record<string, Runner> = { ...READ_RUNNERS, ...WRITE_RUNNERS, ...QUOTA_RUNNERS,
  close: async (ctx) => ctx.closeSession(),
  version: async (ctx) => ctx.out('ZooKeeper CLI version: 3.8.0 (zooscope shell)\n'),
  reconfig: async () => { throw new CliError('reconfig is not supported by zooscope shell'); },
};

/** KeeperState names for the session's own states, as the Java client reports them to the default watcher. */
const KEEPER_STATES: Partial<Record<SessionState, string>> = {
  connected: 'SyncConnected', suspended: 'Disconnected', expired: 'Expired', authFailed: 'AuthFailed', closed: 'Closed',
};

export class ZkShell {
  printWatches = true;
  /** The exit code zkCli would exit with now (its last command's). */
  exitCode = 0;
  /** Set by `quit`: the caller stops reading commands. */
  quitRequested = false;
  /** Reads an answer from the user; set by the interactive loop while it runs (absent: no one to ask). */
  readAnswer: ((question: string) => Promise<string | undefined>) | undefined;
  private readonly history = new Map<number, string>();
  private commandCount = 0;
  private host: string;
  private sessionValue: ZkSession | undefined;
  private detach: (() => void) | undefined;
  private readonly watches = new WatchTracker();
  /** The session is the caller's (ShellOptions.sharedSession) and must not be closed here. */
  private borrowed = false;

  constructor(private readonly options: ShellOptions, session?: ZkSession) {
    this.host = options.connectString;
    if (session) {
      this.attach(session, false);
      this.borrowed = options.sharedSession ?? false;
    }
  }

  get session(): ZkSession | undefined {
    return this.sessionValue;
  }

  /** zkCli's prompt: `[zk: host(CONNECTED) 3] `, the host made visible, `(read-only) ` before it on such a shell. */
  get prompt(): string {
    const prompt = `[zk: ${visibleText(this.host)}(${javaState(this.sessionValue?.state)}) ${this.commandCount}] `;
    return this.options.readOnly ? `(read-only) ${prompt}` : prompt;
  }

  get readOnly(): boolean {
    return this.options.readOnly === true;
  }

  get connectString(): string {
    return this.host;
  }

  /** The numbered lines `history` would show (the last 11). */
  historyEntries(): string[] {
    return [...this.history.values()];
  }

  /**
   * One typed line (ZooKeeperMain.executeLine): numbered in the history, then run. Aborting `signal` abandons it:
   * this resolves at once with 'abandoned' (exit code 1), the line keeps its number, and whatever the command would
   * still print is dropped. ZooKeeper cannot take a request back, so a request already sent still completes.
   */
  async executeLine(line: string, signal?: AbortSignal): Promise<'done' | 'abandoned'> {
    if (line === '') return 'done';
    this.history.set(this.commandCount, line);
    const output = new CommandOutput(this.options.sink);
    const running = this.processCmd(tokenizeLine(line), output);
    let outcome: 'done' | 'abandoned' = 'done';
    if (signal) {
      let onAbort: (() => void) | undefined;
      const abandoned = new Promise<'abandoned'>((resolve) => {
        onAbort = () => resolve('abandoned');
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        outcome = await Promise.race([running.then(() => 'done' as const), abandoned]);
      } finally {
        if (onAbort) signal.removeEventListener('abort', onAbort);
      }
    } else {
      await running;
    }
    if (outcome === 'abandoned') {
      output.abandoned = true;
      running.catch(() => undefined);
      this.exitCode = 1;
    }
    this.commandCount++;
    return outcome;
  }

  /** One command given as words (`zkCli.sh -server … cmd args`: not numbered in the history). Returns the exit code. */
  async executeWords(words: string[]): Promise<number> {
    await this.processCmd(words, new CommandOutput(this.options.sink));
    return this.exitCode;
  }

  close(): void {
    this.detach?.();
    if (!this.borrowed) this.sessionValue?.close();
  }

  private async processCmd(words: string[], output: CommandOutput): Promise<void> {
    try {
      await this.processZkCmd(words, output);
      if (!output.abandoned) this.exitCode = 0;
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      if (!output.abandoned) this.exitCode = error.exitCode;
      output.err(error.message + '\n');
    } finally {
      if (words[0] !== 'redo') this.options.onCommand?.(words);
    }
  }

  private async processZkCmd(input: string[], sink: CommandOutput): Promise<void> {
    if (input.length < 1) {
      sink.err(commandListUsage());
      throw new CliError('No command entered');
    }
    const alias = LEGACY_ALIASES[input[0]];
    const words = alias ? [...alias, ...input.slice(1)] : input;
    const cmd = words[0];
    if (!isKnownCommand(cmd)) {
      sink.err(commandListUsage());
      throw new CliError(`Command not found: Command not found ${cmd}`, 127);
    }
    if (cmd === 'quit') {
      this.closeSession();
      this.quitRequested = true;
      return;
    } else if (cmd === 'redo' && words.length >= 2) {
      const i = javaDecodeInt(words[1]);
      if (i === undefined || this.commandCount <= i || i < 0) throw new CliError('Command index out of range');
      const again = this.history.get(i) ?? '';
      const againWords = tokenizeLine(again);
      if (againWords[0] === 'redo') throw new CliError('No redoing redos');
      this.history.set(this.commandCount, again);
      await this.processCmd(againWords, sink);
    } else if (cmd === 'history') {
      for (let i = this.commandCount - 10; i <= this.commandCount; ++i) {
        if (i >= 0) sink.out(`${i} - ${this.history.get(i) ?? 'null'}\n`);
      }
    } else if (cmd === 'printwatches') {
      if (words.length === 1) sink.out(`printwatches is ${this.printWatches ? 'on' : 'off'}\n`);
      else this.printWatches = words[1] === 'on';
    } else if (cmd === 'connect') {
      await this.connect(words[1] ?? this.host);
    }
    const session = this.sessionValue;
    if (!session || !isAlive(session.state)) {
      sink.out('Not connected\n');
      return;
    }
    const spec = cliCommand(cmd);
    if (!spec) return;
    if (spec.writes && this.options.readOnly) refuseWrite(words);
    await RUNNERS[cmd](this.context(session, sink), words, spec);
  }

  private context(session: ZkSession, sink: CommandOutput): RunContext {
    return {
      session,
      out: (text) => sink.out(text),
      err: (text) => sink.err(text),
      watches: this.watches,
      timeZone: this.options.timeZone,
      watchEvent: (type, path, state) => this.printEvent(state ?? 'SyncConnected', type, path),
      closeSession: () => this.closeSession(),
    };
  }

  private printEvent(state: string, type: string, path: string | null): void {
    if (this.printWatches) this.options.sink.out(`\nWATCHER::\n\nWatchedEvent state:${state} type:${type} path:${path}\n`);
  }

  private closeSession(): void {
    const session = this.sessionValue;
    if (!session || session.state === 'closed') return;
    if (this.borrowed) {
      // Someone else's session stays open: stop using it, and print the Closed event zk.close() would cause.
      this.detach?.();
      this.detach = undefined;
      this.sessionValue = undefined;
      this.borrowed = false;
      this.printEvent('Closed', 'None', null);
      return;
    }
    // zk.close() hands the default watcher a Closed event.
    session.close();
  }

  private async connect(connectString: string): Promise<void> {
    const old = this.sessionValue;
    if (old && isAlive(old.state)) this.closeSession();
    this.host = connectString;
    let session: ZkSession;
    try {
      session = await this.options.openSession(connectString, (question) => this.askYesNo(question));
    } catch (error) {
      // A connect string no session takes (a bad host): one line, and the shell stays, not connected.
      throw new CliError(error instanceof Error ? error.message : String(error));
    }
    this.attach(session, true);
    this.borrowed = false;
    session.open().catch(() => undefined);
  }

  private async askYesNo(question: string): Promise<boolean> {
    const answer = this.readAnswer ? await this.readAnswer(question) : undefined;
    return /^\s*y(es)?\s*$/i.test(answer ?? '');
  }

  private attach(session: ZkSession, announceConnect: boolean): void {
    this.detach?.();
    this.watches.clear();
    this.sessionValue = session;
    let announce = announceConnect;
    const offNotification = session.onNotification((n) => {
      if (this.borrowed && !this.watches.isOwnEvent(n.type, n.path)) return;
      this.watches.fired(n.type, n.path);
      this.printEvent('SyncConnected', eventTypeName(n.type), n.path);
    });
    const onState = (state: SessionState) => {
      if (state === 'connected' && !announce) {
        announce = true;
        return;
      }
      const name = KEEPER_STATES[state];
      if (name) this.printEvent(name, 'None', null);
    };
    session.on('state', onState);
    this.detach = () => {
      offNotification();
      session.off('state', onState);
    };
    if (session.state === 'connected') announce = true;
  }
}

/**
 * A write on a read-only shell: what zkCli prints when a read-only server refuses it (CliWrapperException of a
 * NotReadOnlyException), after the same option and usage checks the command makes.
 */
function refuseWrite(words: string[]): never {
  const spec = cliCommand(words[0]);
  if (!spec) throw new CliError(wrapperMessage(ErrorCode.notReadOnly, undefined));
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  throw new CliError(wrapperMessage(ErrorCode.notReadOnly, parsed.args[1]));
}

/** ZooKeeper.States.isAlive(): anything but closed and auth failed (a lost connection is still being retried). */
function isAlive(state: SessionState): boolean {
  return state === 'connecting' || state === 'connected' || state === 'suspended' || state === 'lost';
}

/** ZooKeeper.States names, as zkCli's prompt shows them. */
function javaState(state: SessionState | undefined): string {
  switch (state) {
    case 'connected': return 'CONNECTED';
    case 'connecting': case 'suspended': case 'lost': return 'CONNECTING';
    case 'authFailed': return 'AUTH_FAILED';
    case 'expired': case 'closed': case undefined: return 'CLOSED';
  }
}
