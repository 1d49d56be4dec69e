// A third-party ZooKeeper client running as a child process (Curator/ZooKeeper recipes in Java, kazoo in Python),
// driven by line commands, for interoperability tests and benchmarks. Start one with startCurator() (curator.ts)
// or startKazoo() (kazoo.ts).
//
// Protocol (both drivers). Commands, one per line, words separated by spaces, trailing `key=value` options:
//   acquire <id> <kind> <path> [n] [timeout=<s>]   a new contender on a session of its own; node data = <id>.
//       kinds: mutex, read, write, semaphore <n> (both); leader-latch, leader-selector, zk-write-lock (ZooKeeper's
//       WriteLock), zk-leader-election (LeaderElectionSupport) (Curator driver); election (kazoo driver).
//       An unsupported kind answers {"event":"error",...}. kazoo only: `lease=<name>` names a semaphore's lease node.
//   release <id>          releases a held lock or leadership, or cancels a waiting attempt.
//   cycles <path> <n> <logFile> [id=<name>] [kind=mutex|read|write] [hold=<ms>]
//       n × (acquire, append `enter <kind> <name> <i>`, sleep hold ms (default 2), append `exit …`, release) on
//       a session of its own, then {"event":"cycles-done","id":<name>}. Check the shared log with checkExclusion().
//   handoff <path> <contenders> [rounds=<r>]   the hand-off benchmark (exclusive lock): one {"event":"handoff",
//       "perHandoffMs":…} per round (time from the first release to the last acquire / hand-offs).
//   quit                  closes every session and exits.
// Events, one JSON object per line, all with "event" and "t" (wall clock, ms since the epoch, sub-ms precision):
//   ready {pid}; waiting {id, kind, node, session}; acquired {id, kind, node, session}; released {id};
//   cancelled {id}; timeout {id}; failed {id, message}; error {id?, command?, message}; notLeader {id};
//   cycles-done {id, path, n}; handoff {contenders, handoffs, totalMs, perHandoffMs}.
//   `node` is the full path of the contender's znode; `session` its owner session as 0x-hex.
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { endsWithTestProcess, exitOf } from '../processes';

export interface DriverEvent {
  event: string;
  id?: string;
  t: number;
  kind?: string;
  node?: string;
  session?: string;
  message?: string;
  [field: string]: unknown;
}

export type DriverLibrary = 'curator' | 'kazoo';

export class ThirdPartyClient {
  /** Every event received so far, in order. */
  readonly events: DriverEvent[] = [];
  private stderrText = '';
  private readonly waiters = new Set<() => void>();
  private exited = false;

  constructor(readonly library: DriverLibrary, private readonly proc: ChildProcess) {
    readline.createInterface({ input: proc.stdout! }).on('line', (line) => {
      let event: DriverEvent;
      try { event = JSON.parse(line) as DriverEvent; } catch { this.stderrText += `(stdout) ${line}\n`; return; }
      this.events.push(event);
      for (const wake of [...this.waiters]) wake();
    });
    proc.stderr!.on('data', (chunk: Buffer) => { this.stderrText = (this.stderrText + chunk.toString()).slice(-20000); });
    proc.on('exit', () => { this.exited = true; for (const wake of [...this.waiters]) wake(); });
  }

  get pid(): number | undefined { return this.proc.pid; }
  /** The driver's stderr (last 20k characters), for failure messages. */
  get stderr(): string { return this.stderrText; }

  send(line: string): void {
    this.proc.stdin!.write(`${line}\n`);
  }

  acquire(id: string, kind: string, lockPath: string, extra = ''): void {
    this.send(`acquire ${id} ${kind} ${lockPath}${extra ? ` ${extra}` : ''}`);
  }

  release(id: string): void {
    this.send(`release ${id}`);
  }

  /** The first event (received before or after the call) matching `predicate`. */
  waitFor(predicate: (e: DriverEvent) => boolean, timeoutMs = 30000, what = 'event'): Promise<DriverEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.events.find(predicate);
        if (found) return finish(() => resolve(found));
        if (this.exited) return finish(() => reject(new Error(`${this.library} driver exited before ${what}; stderr: ${this.stderrText.slice(-2000)}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(
        `${this.library} driver: timed out after ${timeoutMs} ms waiting for ${what}; events: ${JSON.stringify(this.events.slice(-10))}; stderr: ${this.stderrText.slice(-2000)}`))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** The event `event` of contender `id`. */
  waitForEvent(id: string, event: string, timeoutMs = 30000): Promise<DriverEvent> {
    return this.waitFor((e) => e.id === id && e.event === event, timeoutMs, `${event} of ${id}`);
  }

  /** Closes every session (their ephemeral nodes go at once) and ends the process; kills it if it lingers. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exited = exitOf(this.proc);
    try { this.send('quit'); } catch { /* stdin already closed */ }
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  }

  /** Ends the process at once, like a crash: its sessions expire only after their timeout. */
  async kill(): Promise<void> {
    if (this.exited) return;
    const exited = exitOf(this.proc);
    this.proc.kill('SIGKILL');
    await exited;
  }
}

/** Starts a driver process and waits for its `ready` line; `env` adds to the environment (secrets go there, not argv). */
export async function startDriver(library: DriverLibrary, command: string, args: string[], env: Record<string, string> = {}): Promise<ThirdPartyClient> {
  const proc = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  endsWithTestProcess(proc);
  const client = new ThirdPartyClient(library, proc);
  try {
    await client.waitFor((e) => e.event === 'ready', 60000, 'ready');
  } catch (error) {
    await client.kill();
    throw error;
  }
  return client;
}

/** The repository root (the folder with package.json), from src or from out/. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || path.basename(dir) === 'out') {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
  return dir;
}

/**
 * Checks a `cycles` log: exclusive holders (kinds mutex and write) never overlap anyone; readers overlap only
 * readers. Returns the problems found (empty when mutual exclusion held) and the number of completed sections.
 */
export function checkExclusion(logText: string): { problems: string[]; sections: number } {
  const inside = new Map<string, string>(); // holder name → kind
  const problems: string[] = [];
  let sections = 0;
  for (const [index, line] of logText.split('\n').filter(Boolean).entries()) {
    const [what, kind, name] = line.split(' ');
    if (what === 'enter') {
      const exclusive = kind !== 'read';
      const clash = [...inside].filter(([, k]) => exclusive || k !== 'read');
      if (clash.length) problems.push(`line ${index + 1}: ${name} (${kind}) entered while ${clash.map(([n, k]) => `${n} (${k})`).join(', ')} inside`);
      inside.set(name, kind);
    } else if (what === 'exit') {
      if (!inside.delete(name)) problems.push(`line ${index + 1}: ${name} exits without entering`);
      sections++;
    }
  }
  return { problems, sections };
}
