// `zooscope shell` on a real terminal (a pseudo-terminal from util-linux `script`, no native module): Tab completes
// commands and znode paths read from the server (never offering a name with hidden characters: readline prints candidates raw), `history`, `redo`
// and the arrow keys, lines typed ahead, Ctrl-C clears the line without leaving, printwatches on/off, Ctrl-D leaves with exit 0;
// Ctrl-C while a command waits on a hung server (SIGSTOP) gives the prompt back at once, and the abandoned command
// prints nothing when its answer comes later. Every wait is for text to appear (generous deadlines); nothing depends
// on how fast the machine is. `script` is part of util-linux on every Debian: without it the tests fail, not skip.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { freeze, Frozen } from '../support/fakes/freeze';

/** Fails the test when `script` cannot run here: a missing tool is a failed test, never a skipped one. */
function requireScript(): void {
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
  assert.ok(!probe.error, `util-linux script cannot be started: ${probe.error?.message}`);
  assert.equal(probe.status, 0, `script --version failed: ${probe.stderr}`);
}

/** A shell on a pseudo-terminal: keystrokes in, everything the terminal got out. */
class PtyShell {
  private readonly proc: ChildProcess;
  text = '';
  readonly exited: Promise<number | null>;
  private waiters: (() => void)[] = [];

  constructor(cli: string, server: string, home: string, options: readonly string[] = []) {
    const command = [process.execPath, cli, 'shell', server, ...options].map((w) => `'${w}'`).join(' ');
    this.proc = spawn('script', ['-q', '-f', '-e', '-c', command, '/dev/null'], {
      env: { ...process.env, HOME: home, TZ: 'UTC', TERM: 'xterm', COLUMNS: '200', ZOOSCOPE_DIGEST: undefined }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    const take = (chunk: Buffer) => {
      this.text += chunk.toString('utf8');
      for (const w of this.waiters.splice(0)) w();
    };
    this.proc.stdout?.on('data', take);
    this.proc.stderr?.on('data', take);
    this.exited = new Promise((resolve) => this.proc.on('close', (code) => resolve(code)));
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  send(keys: string): void {
    this.proc.stdin?.write(keys);
  }

  /** Waits until the output after `from` matches; returns that part. */
  async waitFor(pattern: RegExp, from: number, timeoutMs = 30000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const tail = this.text.slice(from);
      if (pattern.test(tail)) return tail;
      if (Date.now() > deadline) throw new Error(`never saw ${pattern}; got ${JSON.stringify(tail)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }

  /** Sends a line and waits for the next prompt (numbered `count`). */
  async line(keys: string, count: number): Promise<string> {
    const from = this.text.length;
    this.send(keys);
    return this.waitFor(new RegExp(`\\(CONNECTED\\) ${count}\\] `), from);
  }

  kill(): void {
    this.proc.kill('SIGKILL');
  }
}

describe('zooscope shell on a terminal', () => {
  let zk: ZkCluster;
  let cli: string;
  let other: OtherClient;
  let shell: PtyShell | undefined;
  let frozen: Frozen | undefined;

  before(async () => {
    // Sessions of up to 200 s (20 ticks): a client notices a hung server only after 2/3 of its session timeout, so a
    // command sent to the stopped server cannot end by itself within any of the test's waits.
    [cli, zk] = await Promise.all([sharedCliBundle(), startStandalone({ tickTime: 10000 })]);
    other = await connectOtherClient(zk.connectString);
    await other.mkdirp('/alpha/child1');
    await other.create('/alpha/bad\u202ename');
    await other.create('/beta', 'b');
  });
  after(async () => {
    frozen?.thaw();
    shell?.kill();
    other?.close();
    await zk?.stop();
  });

  test('completion, history and redo, Ctrl-C, printwatches, Ctrl-D', async () => {
    requireScript();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-pty-'));
    shell = new PtyShell(cli, zk.connectString, home);
    await shell.waitFor(/\(CONNECTED\) 0\] /, 0);

    // A command word, then a path from the server; the child with an escape sequence is not offered.
    let from = shell.text.length;
    shell.send('getAllCh\t');
    await shell.waitFor(/getAllChildrenNumber/, from);
    shell.send('\x15'); // Ctrl-U: clear the line
    from = shell.text.length;
    shell.send('ls /al\t');
    await shell.waitFor(/ls \/alpha/, from);
    shell.send('/\t\t');
    await shell.waitFor(/\/alpha\/child1/, from);
    assert.ok(!shell.text.includes('\u202e'), 'a name\'s bidi override reached the terminal through completion');
    let out = await shell.line('\x15ls /alpha\r', 1);
    assert.match(out, /\[bad\[U\+202E\]name, child1\]/);

    // An empty word completes from the root.
    from = shell.text.length;
    shell.send('get \t');
    await shell.waitFor(/get \//, from);
    out = await shell.line('beta\r', 2);
    assert.match(out, /\r?\nb\r?\n/);

    // history, redo N, and the up arrow.
    out = await shell.line('history\r', 3);
    assert.match(out, /0 - ls \/alpha\r?\n1 - get \/beta\r?\n2 - history/);
    out = await shell.line('redo 1\r', 4);
    assert.match(out, /\r?\nb\r?\n/);
    out = await shell.line('\x1b[A\x1b[A\r', 5);
    assert.match(out, /0 - ls \/alpha/, 'two arrows up run `history` again');

    // Ctrl-C on a line clears it and stays; the next command still runs.
    from = shell.text.length;
    shell.send('delete /beta');
    shell.send('\x03');
    await shell.waitFor(/\^C/, from);
    out = await shell.line('ls /\r', 6);
    assert.match(out, /\[alpha, beta, zookeeper\]/, 'the abandoned delete did not run');

    // printwatches: a data watch prints a WATCHER:: block; off, the next one prints nothing.
    await shell.line('get -w /beta\r', 7);
    from = shell.text.length;
    await other.setData('/beta', 'changed');
    await shell.waitFor(/WATCHER::\r?\n\r?\nWatchedEvent state:SyncConnected type:NodeDataChanged path:\/beta/, from);
    await shell.line('printwatches off\r', 8);
    from = shell.text.length;
    await shell.line('get -w /beta\r', 9);
    await other.setData('/beta', 'again');
    // The server sends the event before the answer to any later read by the same session.
    out = await shell.line('get /beta\r', 10);
    assert.match(out, /again/);
    await shell.line('printwatches on\r', 11);
    assert.ok(!shell.text.slice(from).includes('WATCHER::'), 'an event printed while printwatches was off');

    // Lines typed ahead (two in one write, the second while the first still runs) both run, in order.
    from = shell.text.length;
    shell.send('sync /beta\rls /alpha\r');
    out = await shell.waitFor(/\(CONNECTED\) 13\] /, from);
    assert.match(out, /Sync is OK[\s\S]*\[bad\[U\+202E\]name, child1\]/);

    // Ctrl-D on an empty line leaves, with the last command's exit code; the history was kept.
    shell.send('\x04');
    assert.equal(await shell.exited, 0);
    shell = undefined;
    const kept = fs.readdirSync(path.join(home, '.cache', 'zooscope', 'shell-history'));
    assert.equal(kept.length, 1);
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('Ctrl-C while a command waits on a hung server: the prompt comes back, the shell stays, the late answer prints nothing', async () => {
    requireScript();
    await other.create('/frozen', 'late answer');
    await other.create('/warm', 'warm data');
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-pty-'));
    // A request timeout and a session far longer than the test waits: the command cannot end by itself while the server is stopped.
    shell = new PtyShell(cli, zk.connectString, home, ['--timeout', '600']);
    const pty = shell;
    await pty.waitFor(/\(CONNECTED\) 0\] /, 0);
    await pty.line('get /warm\r', 1);

    frozen = freeze(zk.members[0]);
    const from = pty.text.length;
    pty.send('get /frozen\r');
    // The line was taken (readline moved to the next line) and no prompt follows: the command is in flight.
    await pty.waitFor(/get \/frozen\r*\n/, from);
    const sinceCancel = pty.text.length;
    pty.send('\x03');
    let out = await pty.waitFor(/\^C \(command abandoned\)\r?\n[\s\S]*\[zk: [^\]]*\((CONNECTED|CONNECTING)\) 2\] /, sinceCancel);
    assert.ok(!/late answer|KeeperErrorCode|Exception/.test(out), `the command ended by itself, not by Ctrl-C: ${JSON.stringify(out)}`);
    assert.ok(pty.running, 'Ctrl-C during a command left the shell');

    // Back on the server, the session carries on: the next command answers, and the abandoned one printed nothing.
    frozen.thaw();
    frozen = undefined;
    await zk.members[0].waitServing(60000);
    await waitConnectedPrompt(pty);
    out = await pty.line('get /warm\r', 3);
    assert.match(out, /get \/warm\r*\nwarm data\r?\n/);
    const afterCancel = pty.text.slice(sinceCancel);
    assert.ok(!afterCancel.includes('late answer'), `the abandoned command printed its answer later: ${JSON.stringify(afterCancel)}`);
    out = await pty.line('history\r', 4);
    assert.match(out, /1 - get \/frozen\r?\n2 - get \/warm\r?\n3 - history/, 'the abandoned line keeps its number');

    pty.send('quit\r');
    assert.equal(await pty.exited, 0);
    shell = undefined;
    fs.rmSync(home, { recursive: true, force: true });
  });
});

/** Empty lines until the prompt says CONNECTED (after a hung server, the session may be reconnecting). */
async function waitConnectedPrompt(pty: PtyShell): Promise<void> {
  const deadline = Date.now() + 60000;
  for (;;) {
    const from = pty.text.length;
    pty.send('\r');
    const out = await pty.waitFor(/\((CONNECTED|CONNECTING|CLOSED)\) \d+\] /, from);
    const states = [...out.matchAll(/\((CONNECTED|CONNECTING|CLOSED)\) \d+\] /g)];
    if (states[states.length - 1][1] === 'CONNECTED') return;
    if (Date.now() > deadline) throw new Error(`the shell's session never came back: ${JSON.stringify(out)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
