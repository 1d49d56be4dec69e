// A member's logs and snapshots fetched over SSH into a private local folder (0700; files 0600), so the readers run
// on them as on a copy the operator made by hand. Only `ls` and `cat` run on the member (each behind the configured
// read command, e.g. `sudo -n`, when the files need it), only on names a server writes (log.<hex>, snapshot.<hex>
// with its compression); a member that cannot be read is one line, and the others are read. Aborted (the signal), the
// ssh running is killed and the member being copied leaves nothing behind: no half file is ever a source.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SshDialer } from '../tunnel/dialer';
import { memberSshSettings, RemoteCommandError, runRemote, type MemberRoute, type RemoteRun } from '../tunnel/remoteCommand';
import type { SshTunnelSettings } from '../tunnel/sshSettings';
import { logSource, type LogSource } from './logSet';

const SERVER_FILE = /^(log\.[0-9a-f]{1,16}|snapshot\.[0-9a-f]{1,16}(\.gz|\.snappy)?)$/i;
/** A listing is names, one a line: far less than this. */
const MAX_LISTING_BYTES = 16 * 1024 * 1024;

export interface RemoteLogOptions {
  /** The bastion (and jumps) the connection uses; undefined: the members are reached directly. */
  ssh?: SshTunnelSettings;
  /** The members' data directory (or their version-2 folder). */
  dataDir: string;
  /** Words before each `ls` and `cat` on the member, e.g. ['sudo', '-n']. */
  readCommand?: readonly string[];
  /** The private folder the copies go into (one folder a member). */
  into: string;
  onFile?(member: string, name: string): void;
  /** Kills the ssh running and stops; fetchRemoteLogs then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A member whose logs could not be read, and why (ssh's last line, or what was missing). */
export interface MemberProblem {
  member: string;
  reason: string;
}

export interface RemoteLogs {
  sources: LogSource[];
  /** One a member that could not be read. */
  problems: MemberProblem[];
  bytes: number;
}

/** Runs `words` on the member; the ssh killed when `signal` aborts. */
function runAbortable(settings: MemberRoute, words: string[], signal: AbortSignal | undefined): RemoteRun {
  signal?.throwIfAborted();
  const run = runRemote(settings, words);
  if (!signal) return run;
  const kill = () => run.kill();
  signal.addEventListener('abort', kill, { once: true });
  const done = run.done.finally(() => signal.removeEventListener('abort', kill));
  return { ...run, done };
}

async function listing(settings: MemberRoute, words: string[], signal: AbortSignal | undefined): Promise<string> {
  const run = runAbortable(settings, words, signal);
  let text = '';
  run.stdout.setEncoding('utf8');
  run.stdout.on('data', (chunk: string) => {
    text += chunk;
    if (text.length > MAX_LISTING_BYTES) run.kill();
  });
  await run.done;
  return text;
}

/** The folder holding the files: `<dataDir>/version-2` when there is one, else `<dataDir>` itself. */
async function serverFiles(settings: MemberRoute, options: RemoteLogOptions): Promise<{ dir: string; names: string[] }> {
  const read = options.readCommand ?? [];
  for (const dir of [path.posix.join(options.dataDir, 'version-2'), options.dataDir]) {
    let text: string;
    try {
      text = await listing(settings, [...read, 'ls', '-1', '--', dir], options.signal);
    } catch (error) {
      if (dir === options.dataDir || options.signal?.aborted) throw error;
      continue;
    }
    const names = text.split('\n').filter((name) => SERVER_FILE.test(name));
    if (names.length > 0 || dir === options.dataDir) return { dir, names };
  }
  return { dir: options.dataDir, names: [] };
}

async function fetchMember(member: string, options: RemoteLogOptions, into: string, dialer: SshDialer | undefined): Promise<number> {
  const settings = { ...memberSshSettings(options.ssh, member), dialer };
  const { dir, names } = await serverFiles(settings, options);
  if (names.length === 0) throw new RemoteCommandError(`no log.<zxid> or snapshot.<zxid> in ${dir}`);
  fs.mkdirSync(into, { recursive: true, mode: 0o700 });
  let bytes = 0;
  for (const name of names) {
    options.onFile?.(member, name);
    const run = runAbortable(settings, [...(options.readCommand ?? []), 'cat', '--', path.posix.join(dir, name)], options.signal);
    const target = path.join(into, name);
    run.stdout.on('data', (chunk: Buffer) => { bytes += chunk.length; });
    await Promise.all([pipeline(run.stdout, fs.createWriteStream(target, { flags: 'wx', mode: 0o600 })), run.done]);
  }
  return bytes;
}

/** Each member's files copied into `options.into/<n>`; a source a member. */
export async function fetchRemoteLogs(members: readonly string[], options: RemoteLogOptions): Promise<RemoteLogs> {
  fs.mkdirSync(options.into, { recursive: true, mode: 0o700 });
  fs.chmodSync(options.into, 0o700);
  const sources: LogSource[] = [];
  const problems: MemberProblem[] = [];
  let bytes = 0;
  // A bastion taking a secret: one dialer for the whole fetch, so a wrong password is tried once (SecretTrial).
  const dialer = options.ssh?.secret !== undefined ? new SshDialer(options.ssh) : undefined;
  for (const [index, member] of members.entries()) {
    const folder = path.join(options.into, String(index + 1));
    try {
      bytes += await fetchMember(member, options, folder, dialer);
      sources.push({ ...logSource(folder), name: `${member}:${options.dataDir}` });
    } catch (error) {
      // What was copied of a member that failed or was stopped is no source: none of it stays.
      fs.rmSync(folder, { recursive: true, force: true });
      options.signal?.throwIfAborted();
      if (!(error instanceof RemoteCommandError) && (error as Error).name !== 'SshSettingsError') throw error;
      problems.push({ member, reason: (error as Error).message });
    }
  }
  return { sources, problems, bytes };
}

/** A member's problem as the CLI says it. */
export function memberProblemLine(problem: MemberProblem): string {
  return `${problem.member}: the logs could not be read over SSH: ${problem.reason}`;
}
