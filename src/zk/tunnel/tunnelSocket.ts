// One connection through the bastion: an `ssh -W` process whose stdin/stdout carry the bytes. It looks enough like
// a net.Socket for node-zookeeper-client, the probes and tls.connect({ socket }): 'connect' once ssh has
// authenticated, 'data', 'end' when the member closes, and an SshTunnelError saying why when ssh fails.
import { ChildProcess, spawn } from 'node:child_process';
import { Duplex } from 'node:stream';
import { AckNudge } from './ackNudge';
import type { SshCommand } from './sshCommand';
import { classifySshFailure, SshTunnelError, sshNotStarted, TunnelFailure } from './sshFailure';

/** Lines of ssh's stderr kept for the failure line (it writes a few; a hostile peer's banner could write many). */
const MAX_STDERR_LINES = 40;

/** When a tunnel's ssh starts: at once, or after `after` (which may instead give the failure to end with). */
export interface TunnelStart {
  after?: Promise<TunnelFailure | undefined>;
  /** Called with ssh's pid as soon as it runs, before it can ask for anything. */
  onSpawn?: (pid: number) => void;
}

export class SshTunnelSocket extends Duplex {
  /** The member as the connect string names it (where the bytes really go), for status lines. */
  readonly remoteAddress: string;
  readonly remotePort: number;
  /** The ssh process; none yet while the tunnel waits for its turn (see SecretTrial). */
  private child: ChildProcess | undefined;
  /** Writes made before ssh started, sent once it has. */
  private readonly beforeSpawn: Array<() => void> = [];
  private readonly stderrLines: string[] = [];
  private stderrRest = '';
  private connectedValue = false;
  private idleMs = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Set for a plain ZooKeeper connection (see ackNudge.ts). */
  private nudge: AckNudge | undefined;
  /** The server's bytes came and nothing went back since: ssh's kernel may hold the ACK. */
  private ackOwed = false;
  private nudgeQueued = false;

  constructor(command: SshCommand, readonly bastion: string, host: string, port: number, start: TunnelStart = {}) {
    super({ allowHalfOpen: false });
    this.remoteAddress = host;
    this.remotePort = port;
    if (!start.after) {
      this.spawnSsh(command, start.onSpawn);
      return;
    }
    start.after.then((refused) => {
      if (this.destroyed) return;
      if (refused) this.destroy(new SshTunnelError(refused));
      else this.spawnSsh(command, start.onSpawn);
    }, (error: Error) => this.destroy(error));
  }

  private spawnSsh(command: SshCommand, onSpawn?: (pid: number) => void): void {
    const target = `${this.remoteAddress}:${this.remotePort}`;
    // detached: ssh gets no controlling terminal, so it can never prompt on the user's tty (the CLI runs in one).
    // command.env holds no secret's variable (sshCommand.ts): the secret goes only through askpass.
    const child = spawn(command.program, command.args, {
      env: command.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true, windowsHide: true,
    });
    this.child = child;
    if (child.pid !== undefined) onSpawn?.(child.pid);
    const { stdin, stdout, stderr } = child;
    stdin?.on('error', () => undefined);
    stdout?.on('data', (chunk: Buffer) => {
      this.touch();
      if (!this.push(chunk)) stdout.pause();
      if (this.nudge) this.oweAck();
    });
    stderr?.setEncoding('utf8');
    stderr?.on('data', (text: string) => this.onStderr(text));
    child.on('error', (error) => {
      if (!this.destroyed) this.destroy(new SshTunnelError(sshNotStarted(command.program, error)));
    });
    // After exit and all of ssh's output: its last words are in, so the reason is complete.
    child.on('close', (code, signal) => {
      this.onStderr('\n');
      if (this.destroyed) return;
      if (code === 0 && this.connectedValue) return void this.push(null);
      this.destroy(new SshTunnelError(classifySshFailure(this.stderrLines, this.bastion, target, { code, signal, wasUp: this.connectedValue })));
    });
    for (const flush of this.beforeSpawn.splice(0)) flush();
  }

  /**
   * The bytes are ZooKeeper frames (not TLS, not a four-letter word): sends a byte ahead when an ACK is owed (see
   * ackNudge.ts). Called before anything is written.
   */
  carryZooKeeperFrames(): void {
    this.nudge ??= new AckNudge();
  }

  /** After the reader has had the bytes: when it wrote nothing back (it waits for an event), the nudge goes. */
  private oweAck(): void {
    this.ackOwed = true;
    if (this.nudgeQueued) return;
    this.nudgeQueued = true;
    setImmediate(() => {
      this.nudgeQueued = false;
      const stdin = this.child?.stdin;
      if (!this.ackOwed || this.destroyed || !stdin || stdin.destroyed) return;
      this.ackOwed = false;
      const ahead = this.nudge?.nudge();
      if (ahead) stdin.write(ahead);
    });
  }

  /** ssh's pid (tests end one tunnel by it). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Whether ssh authenticated to the bastion (the forward then opens or ssh says why not). */
  get connected(): boolean {
    return this.connectedValue;
  }

  private onStderr(text: string): void {
    const lines = (this.stderrRest + text).split(/\r?\n/);
    this.stderrRest = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      this.stderrLines.push(line.trim());
      if (this.stderrLines.length > MAX_STDERR_LINES) this.stderrLines.shift();
      if (!this.connectedValue && line.startsWith('Authenticated to ')) {
        this.connectedValue = true;
        this.emit('connect');
      }
    }
  }

  override _read(): void {
    this.child?.stdout?.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.touch();
    if (!this.child) return void this.beforeSpawn.push(() => this._write(chunk, _encoding, callback));
    const stdin = this.child.stdin;
    if (!stdin || stdin.destroyed) return callback();
    this.ackOwed = false;
    if (stdin.write(this.nudge ? this.nudge.outgoing(chunk) : chunk)) callback();
    else stdin.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.child) return void this.beforeSpawn.push(() => this._final(callback));
    this.child.stdin?.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.idleTimer);
    const child = this.child;
    if (child) {
      child.stdin?.destroy();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    }
    callback(error);
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  /** As net.Socket's: 'timeout' after `ms` without reading or writing (0 turns it off). */
  setTimeout(ms: number, callback?: () => void): this {
    this.idleMs = ms;
    if (callback) this.once('timeout', callback);
    this.touch();
    return this;
  }

  private touch(): void {
    clearTimeout(this.idleTimer);
    if (this.idleMs > 0 && !this.destroyed) {
      this.idleTimer = setTimeout(() => this.emit('timeout'), this.idleMs);
      this.idleTimer.unref();
    }
  }
}
