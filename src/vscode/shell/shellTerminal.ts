// "Open ZooKeeper Shell": a VS Code terminal backed by a Pseudoterminal (no process) that runs the shell of
// `zooscope shell` (src/zk/shell) on the connection's own session, with the same line editing, history, Tab
// completion and Ctrl-C (src/zk/shell/interactive.ts). Opened on a node, its path is already on the first line,
// the cursor in front of it: zkCli has no working directory and every path is absolute, so you type the command
// (`get `, `ls -s `) before the path, or press End and go on typing a child's name.
// Output is made terminal-safe (terminalText: names and data cannot carry escape sequences to the screen), and
// after every command that writes, the tree re-reads the nodes it touched (the tree's watches also see them).
// On a read-only connection the shell refuses every write (its prompt says read-only), and `connect` to servers
// other than the connection's asks on the prompt before sending the connection's credentials there.
import { PassThrough, Writable } from 'node:stream';
import * as vscode from 'vscode';
import { hasHiddenCharacters, visibleText } from '../../shared/visibleText';
import { ZkShell } from '../../zk/shell';
import { optionsForConnect } from '../../zk/shell/connectCredentials';
import { runInteractive } from '../../zk/shell/interactive';
import { terminalText } from '../../zk/shell/terminalText';
import { ZkSession } from '../../zk/session/session';
import type { Core } from '../core/core';
import type { LiveConnection } from '../core/connectionManager';
import { log } from '../common/log';

const t = vscode.l10n.t;

/** Commands after which the tree re-reads the paths they name (and their parents). */
const WRITING = new Set(['create', 'delete', 'deleteall', 'rmr', 'set', 'setAcl', 'setquota', 'delquota']);

/** A pseudoterminal's output stream: readline writes here; the terminal wants \r\n line ends. */
class TerminalOutput extends Writable {
  columns = 80;
  rows = 24;
  readonly isTTY = true;

  constructor(private readonly show: (text: string) => void) {
    super({ decodeStrings: false });
  }

  override _write(chunk: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.show(typeof chunk === 'string' ? chunk : String(chunk));
    callback();
  }
}

export class ShellTerminal implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.written.event;
  private readonly closed = new vscode.EventEmitter<number | void>();
  readonly onDidClose = this.closed.event;
  private readonly input = new PassThrough();
  private readonly output = new TerminalOutput((text) => this.write(text));
  readonly shell: ZkShell;
  /** Everything written to the terminal so far (for tests), and a way to wait for some of it. */
  private transcript = '';
  private readonly wrote = new vscode.EventEmitter<void>();
  private readonly owned: ZkSession[] = [];
  /** Resolves with the exit code when the shell ends. */
  finished: Promise<number> | undefined;

  constructor(private readonly core: Core, private readonly live: LiveConnection, private readonly startPath: string, private readonly historyFile?: string) {
    const sink = { out: (text: string) => this.write(terminalText(text)), err: (text: string) => this.write(terminalText(text)) };
    const host = live.saved.connectString + (live.saved.chroot ?? '');
    this.shell = new ZkShell({
      sink,
      connectString: host,
      sharedSession: true,
      readOnly: live.saved.readOnly === true,
      openSession: async (connectString, ask) => {
        // `connect host`: a session of the shell's own, with the connection's options (credentials on its own servers).
        const options = await core.store.sessionOptions(live.saved);
        const question = (servers: string) => t('Send the credentials of {0} (digest, SASL, client certificate) to {1}, which is not one of its servers? [y/N] ', visibleText(live.saved.name), servers);
        const session = new ZkSession(await optionsForConnect(connectString, live.saved.connectString, options, ask, question));
        this.owned.push(session);
        return session;
      },
      onCommand: (words) => this.afterCommand(words),
    }, live.session);
  }

  open(dimensions: vscode.TerminalDimensions | undefined): void {
    if (dimensions) this.setDimensions(dimensions);
    const prefill = this.startPath !== '/' && !hasHiddenCharacters(this.startPath);
    const opened = this.startPath === '/' ? undefined
      : prefill ? t('Opened on {0}: the path is on the line; type a command before it, or End to add to it.', this.startPath)
        : t('Opened on {0} (its name holds hidden characters, so it is not put on the line).', terminalText(this.startPath));
    const readOnly = this.shell.readOnly ? t('This connection is read-only: the shell reads, and refuses every write.') : undefined;
    const greeting = [readOnly, opened].filter(Boolean).join('\n') || undefined;
    this.finished = runInteractive(this.shell, {
      input: this.input, output: this.output as unknown as NodeJS.WritableStream, write: (text) => this.write(text),
      historyFile: this.historyFile, greeting, initialLine: prefill ? this.startPath : undefined,
    });
    this.finished.then((code) => this.closed.fire(code), (error) => {
      log().error(`shell: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      this.closed.fire(1);
    });
  }

  handleInput(data: string): void {
    this.input.write(data);
  }

  setDimensions(dimensions: vscode.TerminalDimensions): void {
    this.output.columns = dimensions.columns;
    this.output.rows = dimensions.rows;
    this.output.emit('resize');
  }

  close(): void {
    this.input.end();
    this.shell.close();
    for (const session of this.owned) session.close();
  }

  /** What the terminal showed so far, as written (escape sequences of readline's line editing included). */
  get text(): string {
    return this.transcript;
  }

  /** Resolves when the transcript after `from` matches; rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, from = 0, timeoutMs = 20000): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const tail = this.transcript.slice(from);
        if (!pattern.test(tail)) return false;
        clearTimeout(timer);
        sub.dispose();
        resolve(tail);
        return true;
      };
      const timer = setTimeout(() => { sub.dispose(); reject(new Error(`terminal never showed ${pattern}; it shows:\n${this.transcript.slice(from)}`)); }, timeoutMs);
      const sub = this.wrote.event(check);
      check();
    });
  }

  private write(text: string): void {
    const crlf = text.replace(/\r?\n/g, '\r\n');
    this.transcript += crlf;
    this.written.fire(crlf);
    this.wrote.fire();
  }

  private afterCommand(words: readonly string[]): void {
    if (!WRITING.has(words[0])) return;
    const connectionId = this.live.saved.id;
    const paths = words.slice(1).filter((w) => w.startsWith('/'));
    void (async () => {
      const tree = this.core.tree.treeFor(connectionId);
      if (!tree) return;
      const touched = new Set<string>();
      for (const path of paths) {
        touched.add(path);
        const slash = path.lastIndexOf('/');
        if (slash >= 0) touched.add(slash === 0 ? '/' : path.slice(0, slash));
      }
      for (const path of touched) {
        const node = tree.nodeAt(path);
        if (node) await this.core.tree.refresh(node).catch(() => undefined);
      }
      if (words[0] === 'setquota' || words[0] === 'delquota') await this.core.tree.quotaMarks.load(connectionId, this.live.session);
    })();
  }
}
