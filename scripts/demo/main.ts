// `npm run demo` (scripts/demo.sh installs and builds, then runs this): a local ZooKeeper with the demo data and
// live lock queues, and a VS Code with ZooScope installed and connected to it. Runs until Ctrl-C / SIGTERM, then
// stops everything it started and exits 0.
//
//   node out/scripts/demo/main.js [--desktop] [--port <code-server port>] [--zk-port <n>] [--no-lock-clients]
//                                 [--dir <state dir, default .tmp/demo>] [--vsix <file>]
import { spawn, spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { hostTools, startCodeServer, quietSettings } from '../../test/support/servers/codeServer';
import { startStandalone, ZkCluster } from '../../test/support/servers/zkServer';
import { DEMO_DIGEST_PASSWORD, DEMO_DIGEST_USER, DEMO_ROOT, seedDemoData } from './seed';
import { startDemoLockClients } from './lockClients';

const REPO = path.resolve(__dirname, '..', '..', '..');
const USAGE = `usage: npm run demo -- [--desktop] [--port <n>] [--zk-port <n>] [--no-lock-clients] [--dir <dir>]
  --desktop          open a desktop VS Code (\`code\` on PATH) instead of code-server in the browser
  --port <n>         code-server port (default: a free port)
  --zk-port <n>      ZooKeeper client port (default: 2181 if free, else a free port)
  --no-lock-clients  seed the data but start no live lock clients
  --dir <dir>        state folder, emptied at start (default: .tmp/demo)`;

class UsageError extends Error {}

interface Options {
  desktop: boolean;
  port: number | undefined;
  zkPort: number | undefined;
  lockClients: boolean;
  dir: string;
  vsix: string;
}

function portArg(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--${name} wants a port number, got "${value}"`);
  return port;
}

function parseOptions(argv: string[]): Options | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        desktop: { type: 'boolean' },
        port: { type: 'string' },
        'zk-port': { type: 'string' },
        'no-lock-clients': { type: 'boolean' },
        dir: { type: 'string' },
        vsix: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const v = parsed.values;
  if (v.help) return 'help';
  if (v.desktop && v.port !== undefined) throw new UsageError('--port is for code-server; it makes no sense with --desktop');
  return {
    desktop: v.desktop ?? false,
    port: portArg('port', v.port),
    zkPort: portArg('zk-port', v['zk-port']),
    lockClients: !v['no-lock-clients'],
    dir: path.resolve(v.dir ?? path.join(REPO, '.tmp', 'demo')),
    vsix: path.resolve(v.vsix ?? path.join(REPO, '.tmp', 'zooscope.vsix')),
  };
}

const say = (line: string) => console.log(`demo: ${line}`);
/** A path for messages: relative inside the repo, absolute elsewhere. */
const show = (p: string) => (p.startsWith(REPO + path.sep) ? path.relative(REPO, p) : p);
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** True when nothing listens on 127.0.0.1:port and we may bind it (also catches a server on 0.0.0.0). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, command);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch { /* not here */ }
  }
  return undefined;
}

class Interrupted extends Error {}

/** Everything started so far, stopped in reverse order. */
class Demo {
  zk: ZkCluster | undefined;
  private readonly started: { what: string; stop: () => Promise<void> }[] = [];
  private draining: Promise<void> = Promise.resolve();

  /** Registers something to stop at the end. */
  add(what: string, stop: () => Promise<void>): void {
    this.started.push({ what, stop });
  }

  /** Stops everything registered so far (again callable for what was added later). */
  stop(): Promise<void> {
    this.draining = this.draining.then(() => this.drain());
    return this.draining;
  }

  private async drain(): Promise<void> {
    for (let item = this.started.pop(); item; item = this.started.pop()) {
      const { what, stop } = item;
      try {
        await Promise.race([stop(), sleep(15000).then(() => { throw new Error('timed out after 15 s'); })]);
        say(`stopped ${what}`);
      } catch (error) {
        console.error(`demo: stopping ${what} failed: ${message(error)}`);
      }
    }
    this.killLeftovers();
  }

  /** Synchronous last resort (also on process exit): nothing may outlive the demo. */
  killLeftovers(): void {
    const pid = this.zk?.members[0].pid;
    if (pid !== undefined) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    }
  }
}

async function startZooKeeper(o: Options, demo: Demo): Promise<ZkCluster> {
  let clientPort = o.zkPort;
  if (clientPort !== undefined) {
    if (!(await portIsFree(clientPort))) throw new Error(`ZooKeeper port ${clientPort} (--zk-port) is in use`);
  } else if (await portIsFree(2181)) {
    clientPort = 2181;
  } else {
    say('port 2181 is in use (another ZooKeeper?), so this one gets a free port');
  }
  const start = (port: number | undefined) => startStandalone({ baseDir: path.join(o.dir, 'zookeeper'), clientPort: port, fourLetterWhitelist: '*', adminServer: true });
  let zk: ZkCluster;
  try {
    zk = await start(clientPort);
  } catch (error) {
    // 2181 was free when asked, but another ZooKeeper (a second demo, a test run) may bind it before our JVM does.
    if (clientPort !== 2181 || o.zkPort !== undefined) throw error;
    say('port 2181 was taken meanwhile, so this one gets a free port');
    zk = await start(undefined);
  }
  demo.zk = zk;
  demo.add('ZooKeeper', () => zk.stop());
  return zk;
}

/**
 * code-server's launcher installs signal handlers that stop its servers at once. Kept while it starts (a signal
 * then makes the start fail, and main() stops the rest); removed afterwards: the demo stops everything in order.
 */
async function withoutForeignSignalHandlers<T>(work: () => Promise<T>): Promise<T> {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  try {
    return await work();
  } finally {
    for (const s of signals) {
      for (const listener of process.listeners(s)) {
        if (!before.get(s)!.has(listener)) process.removeListener(s, listener as (...args: unknown[]) => void);
      }
    }
  }
}

/** A complete zip ends with an end-of-central-directory record (signature "PK" 05 06, at most 64 KiB + 22 bytes from the end). */
function completeZip(data: Buffer): boolean {
  const from = Math.max(0, data.length - 65557);
  return data.length > 22 && data.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]), data.length - 22) >= from;
}

/**
 * Copies the vsix into the demo folder. `npm run package` (also run by tests) deletes and rewrites the shared
 * .tmp/zooscope.vsix, so a missing or half-written file gets a few seconds to become whole.
 */
async function copyVsix(source: string, dir: string): Promise<string> {
  const deadline = Date.now() + 15000;
  for (;;) {
    let data: Buffer | undefined;
    try { data = fs.readFileSync(source); } catch { /* missing for now */ }
    if (data && completeZip(data)) {
      const target = path.join(dir, path.basename(source));
      fs.writeFileSync(target, data);
      return target;
    }
    if (Date.now() > deadline) {
      throw new Error(`extension package ${data ? 'incomplete' : 'not found'}: ${source} (run npm run package)`);
    }
    await sleep(250);
  }
}

function run(command: string, args: string[], what: string): void {
  const r = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    throw new Error(`${what} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`}):\n${(r.stdout ?? '') + (r.stderr ?? '')}`.trimEnd());
  }
}

async function main(): Promise<void> {
  const parsed = parseOptions(process.argv.slice(2));
  if (parsed === 'help') {
    console.log(USAGE);
    return;
  }
  const o = parsed;
  const demo = new Demo();
  let phase: 'starting' | 'running' | 'stopping' = 'starting';
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      say(`${signal} again: killing what is left`);
      demo.killLeftovers();
      process.exit(1);
    }
    signalled = true;
    if (phase === 'starting') {
      say(`${signal}: stopping after the current step (again to force)`);
      return; // main() notices at its next checkpoint, stops what it started and exits 0
    }
    phase = 'stopping';
    say(`${signal}: stopping everything`);
    void demo.stop().then(() => {
      say('stopped');
      process.exit(0);
    });
  };
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, onSignal);
  // Last resort when the process ends some other way (code-server's launcher kills its own servers on exit).
  process.on('exit', () => demo.killLeftovers());
  const checkpoint = () => { if (signalled) throw new Interrupted(); };

  const codeBin = o.desktop ? onPath('code') : undefined;
  if (o.desktop && !codeBin) {
    throw new Error('--desktop needs VS Code\'s `code` command on PATH, and there is none here.\n'
      + '  Install VS Code and its shell command (in VS Code: "Shell Command: Install \'code\' command in PATH"),\n'
      + '  or run `npm run demo` without --desktop to get VS Code in the browser (code-server).');
  }
  if (!o.desktop) hostTools(); // fails early, before anything started, when code-server is not installed
  if (o.port !== undefined && !(await portIsFree(o.port))) throw new Error(`code-server port ${o.port} (--port) is in use`);

  try {
    fs.rmSync(o.dir, { recursive: true, force: true });
    fs.mkdirSync(o.dir, { recursive: true });
    const vsix = await copyVsix(o.vsix, o.dir);

    let t = Date.now();
    const zk = await startZooKeeper(o, demo);
    checkpoint();
    const member = zk.members[0];
    const connectString = zk.connectString;
    say(`ZooKeeper ${connectString} is up (${Date.now() - t} ms; data in ${show(member.dir)})`);

    t = Date.now();
    const seeded = await seedDemoData(connectString);
    checkpoint();
    say(`seeded ${seeded.root}: ${seeded.created} nodes in ${Date.now() - t} ms`);

    if (o.lockClients) {
      t = Date.now();
      const logFile = path.join(o.dir, 'lock-clients.log');
      const log = (line: string) => fs.appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
      const locks = await startDemoLockClients(connectString, { log });
      demo.add('lock clients', () => locks.stop());
      checkpoint();
      say(`lock clients queued on ${locks.lockPaths.curator} and ${locks.lockPaths.kazoo} (${Date.now() - t} ms; log ${show(logFile)})`);
    }

    // adminPort (zooscope.connections[].adminPort): the Ensemble view and watch tables read via the AdminServer.
    const connection = { id: 'demo', name: 'Demo (local ZooKeeper)', connectString, ...(member.adminPort ? { adminPort: member.adminPort } : {}) };
    const workspace = path.join(REPO, 'demo');
    const settings = {
      'zooscope.connections': [connection],
      'workbench.startupEditor': 'readme',
    };
    let openLine: string;
    if (o.desktop) {
      openLine = startDesktop(codeBin!, o, vsix, settings, workspace, demo, () => {
        if (phase !== 'running') return;
        say('the VS Code window was closed');
        onSignal('SIGTERM');
      });
    } else {
      t = Date.now();
      say('starting code-server (installs ZooScope from the vsix first)');
      const cs = await withoutForeignSignalHandlers(() => startCodeServer({
        workspaceFolder: workspace,
        vsixPath: vsix,
        settings,
        port: o.port,
        baseDir: path.join(o.dir, 'code-server'),
      }));
      demo.add('code-server', () => cs.stop());
      checkpoint();
      say(`code-server is up on port ${cs.port} (${Date.now() - t} ms; profile ${show(cs.userDataDir)})`);
      openLine = `Open in your browser:  ${cs.url}`;
    }
    phase = 'running';

    const admin = member.adminPort ? `http://127.0.0.1:${member.adminPort}/commands` : 'off';
    const bar = '='.repeat(78);
    console.log([
      '', bar,
      '  ZooScope demo is running.',
      '',
      `  ${openLine}`,
      '',
      `  ZooKeeper:   ${connectString}   (four-letter words on; AdminServer ${admin})`,
      `  Connection:  "${connection.name}" in the ZooScope view (activity bar)`,
      `  Demo data:   ${DEMO_ROOT}/config      config files: JSON, YAML, properties, XML, a PNG`,
      `               ${DEMO_ROOT}/wide        20,000 children (paged)`,
      `               ${DEMO_ROOT}/natural     item-1 … item-1000 (natural sort)`,
      `               ${DEMO_ROOT}/jobs        sequential nodes; ${DEMO_ROOT}/big-value 64 KiB`,
      `               ${DEMO_ROOT}/secured     digest ACL (user ${DEMO_DIGEST_USER}, password ${DEMO_DIGEST_PASSWORD})`,
      o.lockClients
        ? `               ${DEMO_ROOT}/locks       live Curator and kazoo lock queues (holders change every 20–40 s)\n`
          + `               ${DEMO_ROOT}/services    an ephemeral service instance`
        : '               (no live lock clients: --no-lock-clients)',
      `  Its past:    right-click the connection › Server History, and choose ${path.join(member.dir, 'data')}`,
      `               (node history, lock history after the fact, the tree at a past moment)`,
      '',
      `  Press Ctrl-C to stop everything${o.desktop ? ' (closing the VS Code window also stops the demo)' : ''}.`,
      bar, '',
    ].join('\n'));
  } catch (error) {
    phase = 'stopping';
    // Once asked to stop, a failing step is part of stopping (code-server's own signal handler kills it mid-start).
    const interrupted = error instanceof Interrupted || signalled;
    if (!interrupted) console.error(`\ndemo: FAILED: ${message(error)}\ndemo: stopping what was started`);
    await demo.stop();
    if (interrupted) {
      say('stopped');
      process.exit(0);
    }
    process.exit(1);
  }
}

/** Desktop VS Code: a dedicated profile (settings + extensions) under the demo folder, so the user's own stays untouched. */
function startDesktop(codeBin: string, o: Options, vsix: string, settings: Record<string, unknown>, workspace: string, demo: Demo,
  onWindowClosed: () => void): string {
  const userDataDir = path.join(o.dir, 'vscode', 'user-data');
  const extensionsDir = path.join(o.dir, 'vscode', 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...quietSettings, 'workbench.secondarySideBar.defaultVisibility': 'hidden', ...settings }, null, 2) + '\n');
  const profile = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  say(`installing ZooScope into a demo profile (${show(path.join(o.dir, 'vscode'))})`);
  run(codeBin, [...profile, '--install-extension', vsix, '--force'], 'code --install-extension');
  say('opening VS Code');
  // --wait: the launcher lives as long as the window, so closing the window ends the demo.
  const launcher = spawn(codeBin, [...profile, '--new-window', '--wait', workspace], { stdio: 'ignore' });
  demo.add('the VS Code launcher', async () => {
    if (launcher.exitCode === null && launcher.signalCode === null) launcher.kill('SIGTERM'); // the window stays open
  });
  launcher.once('exit', onWindowClosed);
  launcher.once('error', (error) => console.error(`demo: could not run ${codeBin}: ${error.message}`));
  return `VS Code opened with the folder ${workspace} (demo profile in ${userDataDir})`;
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`demo: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(`\ndemo: FAILED: ${message(error)}`);
  process.exit(1);
});
