// A connection's server logs read from its members over SSH: the connection's own bastion (or, without one, each
// member directly), the members' data directory and a read command (`sudo -n`: the files are usually the zookeeper
// user's) asked and remembered per connection (nothing secret). Each member's files are fetched, with progress and
// cancel, into a private folder of the extension's (0700), emptied before each fetch; a cancelled fetch leaves
// nothing. The copies serve this window only: a new window fetches again, and each fetch says when it was made.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fetchRemoteLogs } from '../../zk/serverLogs/remoteLogs';
import type { LogSource } from '../../zk/serverLogs/logSet';
import { dataDirProblem, logMembers, readCommandProblem, readCommandWords, type PlaceProblem } from '../../zk/serverLogs/remotePlace';
import type { SshTunnelSettings } from '../../zk/tunnel/sshSettings';
import { log } from '../common/log';
import { info, warn } from '../common/notifier';
import { input } from '../common/quickInput';
import { shown } from '../common/untrustedText';
import type { Core } from '../core/core';
import { readCancellably } from './logReading';

const t = vscode.l10n.t;
const KEY = 'zooscope.serverLogsOverSsh';

/** Where a connection's members keep their logs, as the user typed it. */
export interface MemberLogPlace {
  dataDir: string;
  /** Words before `ls` and `cat` on each member; '' for none. */
  readCommand: string;
}

/** How the members are reached: through the connection's bastion, or directly (`ssh` undefined). */
interface Route {
  ssh?: SshTunnelSettings;
  members: string[];
}

function problemText(problem: PlaceProblem): string {
  switch (problem) {
    case 'empty': return t('The members\' data directory is needed.');
    case 'hidden': return t('It has a control, invisible or direction-changing character.');
    case 'relative': return t('An absolute path on the members, such as /var/lib/zookeeper.');
    case 'tooLong': return t('It is too long.');
    case 'option': return t('It starts with an option: give the program first, such as sudo -n.');
  }
}

/** The data directory's message for the input box; undefined when it is right. */
export function dataDirMessage(text: string): string | undefined {
  const problem = dataDirProblem(text);
  return problem && problemText(problem);
}

/** The read command's message for the input box; undefined when it is right (empty: none). */
export function readCommandMessage(text: string): string | undefined {
  const problem = readCommandProblem(text);
  return problem && problemText(problem);
}

export class MemberLogs {
  /** This window's copies, by connection: what was fetched, from where, when. */
  private readonly fetched = new Map<string, { place: MemberLogPlace; sources: LogSource[]; at: Date }>();

  constructor(private readonly state: vscode.Memento, private readonly core: Core, private readonly storageDir: string) {}

  remembered(connectionId: string): MemberLogPlace | undefined {
    return this.state.get<Record<string, MemberLogPlace>>(KEY, {})[connectionId];
  }

  async remember(connectionId: string, place: MemberLogPlace | undefined): Promise<void> {
    const all = { ...this.state.get<Record<string, MemberLogPlace>>(KEY, {}) };
    if (place) all[connectionId] = place;
    else delete all[connectionId];
    await this.state.update(KEY, all);
  }

  /** When this window fetched the connection's copies; undefined when it has none. */
  fetchedAt(connectionId: string): Date | undefined {
    return this.fetched.get(connectionId)?.at;
  }

  /** The connection's members; undefined (said in one line) when its connect string names none ssh can reach. */
  private members(connectionId: string): string[] | undefined {
    const saved = this.core.store.get(connectionId);
    if (!saved) return undefined;
    const members = logMembers(saved.connectString);
    if (!('problem' in members)) return members;
    void warn(t('The members of "{0}" cannot be read over SSH: {1}', saved.name, members.problem));
    return undefined;
  }

  /** The members and the bastion (its secret read only here, when a fetch needs it). */
  private async route(connectionId: string): Promise<Route | undefined> {
    const saved = this.core.store.get(connectionId);
    const members = this.members(connectionId);
    if (!saved || !members) return undefined;
    // A bastion's password or passphrase is answered only to the bastion's own prompt (remoteLogs.ts): never the members'.
    const ssh = await this.core.store.sshSettings(saved);
    return { ssh, members };
  }

  /** Asks the data directory and read command (the bastion, or its absence, said); remembers them. */
  async ask(connectionId: string): Promise<MemberLogPlace | undefined> {
    const saved = this.core.store.get(connectionId);
    if (!saved || !this.members(connectionId)) return undefined;
    const last = this.remembered(connectionId);
    const way = saved.ssh
      ? t('Each member is reached over SSH through the bastion {0}, as its user, with a key or the agent (a password or passphrase of the bastion goes to the bastion only).', saved.ssh.bastion)
      : t('"{0}" has no SSH bastion: each member is reached directly over SSH, with a key or the agent.', saved.name);
    const dataDir = await input({
      title: t('Server Logs of {0} over SSH: the members\' data directory', saved.name),
      prompt: t('{0} Only ls and cat run there, on the data directory (or its version-2 folder).', way),
      value: last?.dataDir ?? '/var/lib/zookeeper', ignoreFocusOut: true, validateInput: dataDirMessage,
    });
    if (dataDir === undefined) return undefined;
    const readCommand = await input({
      title: t('Server Logs of {0} over SSH: the read command', saved.name),
      prompt: t('The files are usually readable only by the zookeeper user, so sudo -n is often needed (sudo must not ask for a password). Words run before ls and cat; empty: read as the SSH user.'),
      value: last?.readCommand ?? '', placeHolder: 'sudo -n', ignoreFocusOut: true, validateInput: readCommandMessage,
    });
    if (readCommand === undefined) return undefined;
    const place = { dataDir, readCommand: readCommand.trim() };
    await this.remember(connectionId, place);
    return place;
  }

  /** This window's copies of the remembered place, else fetched now. */
  async sources(connectionId: string, place: MemberLogPlace): Promise<LogSource[] | undefined> {
    const copies = this.fetched.get(connectionId);
    if (copies && copies.place.dataDir === place.dataDir && copies.place.readCommand === place.readCommand
      && copies.sources.every((source) => source.files.every((file) => fs.existsSync(file)))) return copies.sources;
    return this.fetch(connectionId, place);
  }

  /** The connection's private folder (under the extension's storage, 0700). */
  private folderOf(connectionId: string): string {
    const root = path.join(this.storageDir, 'memberLogs');
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    fs.chmodSync(root, 0o700);
    return path.join(root, crypto.createHash('sha256').update(connectionId).digest('hex').slice(0, 24));
  }

  /** Each member's files copied anew (the old copies removed first); undefined when none could be read or cancelled. */
  async fetch(connectionId: string, place: MemberLogPlace): Promise<LogSource[] | undefined> {
    const route = await this.route(connectionId);
    if (!route) return undefined;
    const name = this.core.store.get(connectionId)?.name ?? connectionId;
    const into = this.folderOf(connectionId);
    this.fetched.delete(connectionId);
    fs.rmSync(into, { recursive: true, force: true });
    let fetched: Awaited<ReturnType<typeof fetchRemoteLogs>> | undefined;
    try {
      fetched = await readCancellably(t('Fetching the server logs of {0} over SSH…', name), (signal, report) => fetchRemoteLogs(route.members, {
        ssh: route.ssh, dataDir: place.dataDir, readCommand: readCommandWords(place.readCommand), into, signal,
        onFile: (member, file) => report(t('{0}: {1}', member, file)),
      }));
    } finally {
      // Cancelled, failed, or no member read: no copy stays.
      if (!fetched?.sources.length) fs.rmSync(into, { recursive: true, force: true });
    }
    if (!fetched) return undefined;
    for (const problem of fetched.problems) {
      log().warn(`server logs of ${name} over SSH: ${problem.member}: ${problem.reason}`);
      void warn(t('{0}: its logs could not be read over SSH: {1}', problem.member, shown(problem.reason)));
    }
    if (fetched.sources.length === 0) return undefined;
    const at = new Date();
    this.fetched.set(connectionId, { place, sources: fetched.sources, at });
    log().info(`server logs of ${name} fetched over SSH from ${fetched.sources.map((s) => s.name).join(', ')} (${fetched.bytes} bytes) into ${into}`);
    void info(t('Fetched the server logs of {0} from {1} over SSH at {2} ({3} MiB). To fetch them again, choose The Members over SSH… again.',
      name, fetched.sources.map((s) => s.name).join(', '), at.toLocaleTimeString(), (fetched.bytes / 1048576).toFixed(1)));
    return fetched.sources;
  }
}
