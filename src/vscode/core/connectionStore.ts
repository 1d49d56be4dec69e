// Saved connections: everything but the password in the `zooscope.connections` setting (users can read, edit
// and share it), the password in SecretStorage under the connection's id, with what it was given for (servers,
// chroot, user, TLS files): it is sent only there unless the user agrees. A connection from a folder's settings
// has secrets of its own; it never gets the user's connection's of the same name without asking.
import * as vscode from 'vscode';
import type { SessionOptions } from '../../zk/session/session';
import type { TlsSettings } from '../../zk/security/tlsSettings';
import type { SshTunnelSettings } from '../../zk/tunnel/sshSettings';
import { Command } from './commandIds';
import { connectionSource, ConnectionOrigin } from './connectionSource';
import { requestTimeoutMs, sshProgramSettings } from './settings';
import { ConnectionSecrets, filesNamed, SavedConnection } from './savedConnection';
import { bindingFor, decodeSecret, describeHosts, encodeSecret, sameBinding, SecretBinding, SecretKind, sendsDigestInClear, StoredSecret } from './secretBinding';
import { askToSendSecret, askToUseFolderFiles, SecretRequest, warnDigestInClear } from './secretConsent';

export type { ConnectionSecrets, SavedConnection, SavedSasl, SavedSsh, SavedTls } from './savedConnection';


const SECTION = 'zooscope';
const KEY = 'connections';

export class ConnectionStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** Connections whose digest password the user agreed to send in clear text, this window session. */
  private readonly digestInClearAgreed = new Set<string>();
  /** A folder's connection's files (mayUseFiles): the answer given in this window, by connection, files and servers. */
  private readonly folderFileAnswers = new Map<string, boolean>();
  /** Questions open now, by secret: two sessions opening at once ask once. */
  private readonly asking = new Map<string, Promise<boolean>>();

  /**
   * `acceptedHostKeysFile`: ZooScope's own known_hosts, where bastion host keys the user accepted (after seeing
   * their fingerprints) are kept; checked after the user's own known_hosts files.
   */
  constructor(private readonly secrets: vscode.SecretStorage, readonly acceptedHostKeysFile?: string) {
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.${KEY}`)) this.changed.fire();
      }),
      // Trusting the folder brings its connections in.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
    ];
  }

  /** The user's connections, or the folder's when the workspace is trusted and its settings have a list. */
  list(): SavedConnection[] {
    const raw = this.source().entries as (Partial<SavedConnection> | null)[];
    const seen = new Set<string>();
    const result: SavedConnection[] = [];
    for (const entry of raw) {
      if (!entry || typeof entry.name !== 'string' || typeof entry.connectString !== 'string') continue;
      const id = entry.id || entry.name;
      if (seen.has(id)) continue;
      seen.add(id);
      result.push({ ...entry, id, name: entry.name, connectString: entry.connectString });
    }
    return result;
  }

  get(id: string): SavedConnection | undefined {
    return this.list().find((c) => c.id === id);
  }

  /** Where the listed connections come from: the user's settings or the (trusted) workspace's. */
  origin(): ConnectionOrigin {
    return this.source().origin;
  }

  /**
   * Adds or replaces (by id) a connection; its secrets, if given, go to secret storage only, bound to it as saved.
   * `rebind`: kept secrets the user agreed to send where the connection now goes.
   */
  async save(connection: SavedConnection, secrets: ConnectionSecrets = {}, rebind: readonly SecretKind[] = []): Promise<void> {
    const origin = this.origin();
    const others = this.list().filter((c) => c.id !== connection.id);
    const clean: SavedConnection = Object.fromEntries(
      Object.entries(connection).filter(([, v]) => v !== undefined && v !== ''),
    ) as unknown as SavedConnection;
    await this.write([...others, clean], origin);
    for (const kind of SECRET_KINDS) {
      const value = secrets[kind];
      const key = secretKey(origin, connection.id, kind);
      if (value === '') await this.secrets.delete(key);
      else if (value !== undefined) await this.secrets.store(key, encodeSecret(value, bindingFor(connection, kind)));
      else if (rebind.includes(kind)) await this.rebind(origin, connection, kind);
    }
  }

  async remove(id: string): Promise<void> {
    const origin = this.origin();
    await this.write(this.list().filter((c) => c.id !== id), origin);
    for (const kind of SECRET_KINDS) await this.secrets.delete(secretKey(origin, id, kind));
  }

  /** The stored value as it is (for restoring it), whatever it was given for; never for sending. */
  async password(id: string): Promise<string | undefined> {
    return this.secret(id, 'password');
  }

  async secret(id: string, kind: SecretKind): Promise<string | undefined> {
    return (await this.read(this.origin(), id, kind))?.value;
  }

  /**
   * The kept secrets (not replaced in `secrets`) that `edited` would send somewhere other than they were given for:
   * the questions to ask before saving it. Secrets of older versions are bound to `before` first.
   */
  async secretsToRebind(before: SavedConnection, edited: SavedConnection, secrets: ConnectionSecrets): Promise<SecretRequest[]> {
    const origin = this.origin();
    const requests: SecretRequest[] = [];
    for (const kind of SECRET_KINDS) {
      if (secrets[kind] !== undefined || !usesSecret(edited, kind)) continue;
      const stored = await this.read(origin, before.id, kind);
      if (!stored) continue;
      let givenFor = stored.binding;
      if (!givenFor && origin === 'user') {
        givenFor = bindingFor(before, kind);
        await this.secrets.store(secretKey(origin, before.id, kind), encodeSecret(stored.value, givenFor));
      }
      const sendTo = bindingFor(edited, kind);
      if (!givenFor || !sameBinding(givenFor, sendTo)) requests.push({ connectionName: edited.name, kind, givenFor, sendTo, fromWorkspace: false });
    }
    return requests;
  }

  private source() {
    return connectionSource(vscode.workspace.getConfiguration(SECTION).inspect(KEY), vscode.workspace.isTrusted);
  }

  private async write(connections: SavedConnection[], origin: ConnectionOrigin): Promise<void> {
    // Back where the list came from: the user settings, or a trusted workspace's (never an untrusted one's).
    const target = origin === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await vscode.workspace.getConfiguration(SECTION).update(KEY, connections, target);
  }

  private async read(origin: ConnectionOrigin, id: string, kind: SecretKind): Promise<StoredSecret | undefined> {
    const raw = await this.secrets.get(secretKey(origin, id, kind));
    return raw === undefined ? undefined : decodeSecret(raw);
  }

  private async rebind(origin: ConnectionOrigin, connection: SavedConnection, kind: SecretKind): Promise<void> {
    const stored = await this.read(origin, connection.id, kind);
    if (stored) await this.secrets.store(secretKey(origin, connection.id, kind), encodeSecret(stored.value, bindingFor(connection, kind)));
  }

  /** The secret `saved` may send: where it was given for, or elsewhere only once the user agreed (which rebinds it). */
  private async release(saved: SavedConnection, kind: SecretKind): Promise<string | undefined> {
    const origin = this.origin();
    const sendTo = bindingFor(saved, kind);
    const own = await this.read(origin, saved.id, kind);
    if (own?.binding && sameBinding(own.binding, sendTo)) return own.value;
    if (own && !own.binding && origin === 'user') {
      // Stored by an older version: bound to the user's own connection as it is the first time it is used.
      await this.secrets.store(secretKey(origin, saved.id, kind), encodeSecret(own.value, sendTo));
      return own.value;
    }
    const foreign = own ?? (origin === 'workspace' ? await this.read('user', saved.id, kind) : undefined);
    if (!foreign) return undefined;
    const request: SecretRequest = {
      connectionName: saved.name, kind, sendTo, fromWorkspace: !own,
      givenFor: foreign.binding ?? (own ? undefined : this.userBinding(saved.id, kind)),
    };
    if (!(await this.askOnce(`${origin}.${saved.id}.${kind}`, () => askToSendSecret(request)))) return undefined;
    await this.secrets.store(secretKey(origin, saved.id, kind), encodeSecret(foreign.value, sendTo));
    return foreign.value;
  }

  /** What the user's own connection of that id (in the user settings) binds a secret to. */
  private userBinding(id: string, kind: SecretKind): SecretBinding | undefined {
    const users = vscode.workspace.getConfiguration(SECTION).inspect(KEY)?.globalValue;
    const entry = (Array.isArray(users) ? users as Partial<SavedConnection>[] : []).find((c) => c && (c.id || c.name) === id && typeof c.connectString === 'string');
    return entry ? bindingFor(entry as SavedConnection, kind) : undefined;
  }

  private askOnce(key: string, question: () => Promise<boolean>): Promise<boolean> {
    let pending = this.asking.get(key);
    if (!pending) {
      pending = question().finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    return pending;
  }

  /**
   * Over plain TCP to another machine the digest password is readable on the way: warned once per connection (also
   * for a digest user added to a live session). True when it may go.
   */
  async digestMayGo(saved: SavedConnection): Promise<boolean> {
    if (!sendsDigestInClear(saved) || this.digestInClearAgreed.has(saved.id)) return true;
    return this.askOnce(`digest.${saved.id}`, async () => {
      const choice = await warnDigestInClear(saved.name, describeHosts(bindingFor(saved, 'password')));
      if (choice === 'send') this.digestInClearAgreed.add(saved.id);
      if (choice === 'secure') void vscode.commands.executeCommand(Command.editConnection, saved.id);
      return choice === 'send';
    });
  }

  /** How to open a session for `saved` (the explorer's and the lock sessions alike); the password from secret storage. */
  async sessionOptions(saved: SavedConnection): Promise<SessionOptions> {
    const password = saved.digestUser ? await this.release(saved, 'password') : undefined;
    const sendDigest = saved.digestUser !== undefined && password !== undefined && await this.digestMayGo(saved);
    const options: SessionOptions = {
      connectString: saved.connectString,
      chroot: saved.chroot,
      sessionTimeoutMs: saved.sessionTimeoutMs ?? 30000,
      requestTimeoutMs: requestTimeoutMs(),
      digest: sendDigest ? [`${saved.digestUser}:${password}`] : [],
    };
    const tls = await this.tlsSettings(saved);
    if (tls) options.tls = tls;
    const ssh = await this.sshSettings(saved);
    if (ssh) options.ssh = ssh;
    if (saved.sasl?.mechanism === 'DIGEST-MD5') {
      options.sasl = { mechanism: 'DIGEST-MD5', username: saved.sasl.user, password: (await this.release(saved, 'saslPassword')) ?? '' };
    } else if (saved.sasl?.mechanism === 'GSSAPI') {
      options.sasl = { mechanism: 'GSSAPI', principal: saved.sasl.principal, serviceName: saved.sasl.serviceName };
    }
    return options;
  }

  /**
   * Whether `saved`'s files on this machine (filesNamed) may be used: always for the user's own connections; for a
   * folder's, once the user agreed for these files, servers and bastion (asked once per window, the answer kept).
   */
  private async mayUseFiles(saved: SavedConnection): Promise<boolean> {
    const files = filesNamed(saved);
    if (files.length === 0 || this.origin() !== 'workspace') return true;
    // The servers, behind the SSH route when there is one: the TLS files go to the first, the SSH key to the second.
    const destination = describeHosts(bindingFor(saved, 'tlsPassphrase'));
    const key = JSON.stringify([saved.id, files, destination]);
    const known = this.folderFileAnswers.get(key);
    if (known !== undefined) return known;
    return this.askOnce(`files.${key}`, async () => {
      const agreed = await askToUseFolderFiles(saved.name, files, destination);
      this.folderFileAnswers.set(key, agreed);
      return agreed;
    });
  }

  /** The TLS settings of `saved` alone (the passphrase under the same rule), for reading its servers over TLS. */
  async tlsSettings(saved: SavedConnection): Promise<TlsSettings | undefined> {
    if (!saved.tls) return undefined;
    const { checkServerName, pinnedSha256 } = saved.tls;
    // Declined: none of the folder's files (without its CA the servers are checked against the system's CAs).
    const { caFile, certFile, keyFile, pfxFile } = await this.mayUseFiles(saved) ? saved.tls : {};
    const passphrase = certFile || keyFile || pfxFile ? await this.release(saved, 'tlsPassphrase') : undefined;
    return { caFile, certFile, keyFile, pfxFile, checkServerName: checkServerName !== false, pinnedSha256, passphrase: passphrase || undefined };
  }

  /**
   * The SSH bastion of `saved` (its secret under the same rule: only to the bastion it was given for). The ssh
   * program and config file come from the user's settings only: a folder's settings never choose what runs.
   */
  async sshSettings(saved: SavedConnection): Promise<SshTunnelSettings | undefined> {
    if (!saved.ssh) return undefined;
    const { bastion, jumps, auth, identityFile } = saved.ssh;
    const settings: SshTunnelSettings = { destination: bastion, ...sshProgramSettings() };
    if (jumps?.length) settings.jumps = [...jumps];
    if (this.acceptedHostKeysFile) settings.acceptedHostKeysFile = this.acceptedHostKeysFile;
    // The method chosen is the one used: no agent keys offered beside a chosen key file or a password.
    if (auth === 'key' || auth === 'password') settings.agentSocket = 'none';
    // A folder's key file the user did not let it use: neither the key nor its passphrase goes.
    const keyFile = auth === 'key' && identityFile && await this.mayUseFiles(saved) ? identityFile : undefined;
    if (keyFile) settings.identityFile = keyFile;
    if (keyFile || auth === 'password') {
      const secret = await this.release(saved, 'sshSecret');
      if (secret) Object.assign(settings, { secret, secretKind: auth === 'key' ? 'passphrase' : 'password' });
    }
    return settings;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

const SECRET_KINDS: readonly SecretKind[] = ['password', 'tlsPassphrase', 'saslPassword', 'sshSecret'];

/** Whether `saved` as it is would send a secret of that kind at all. */
function usesSecret(saved: SavedConnection, kind: SecretKind): boolean {
  if (kind === 'password') return !!saved.digestUser;
  if (kind === 'saslPassword') return saved.sasl?.mechanism === 'DIGEST-MD5';
  if (kind === 'sshSecret') return saved.ssh?.auth === 'key' || saved.ssh?.auth === 'password';
  return !!(saved.tls?.certFile || saved.tls?.keyFile || saved.tls?.pfxFile);
}

/** The user's connections keep the keys of older versions; a folder's connections have keys of their own. */
function secretKey(origin: ConnectionOrigin, id: string, kind: SecretKind): string {
  return origin === 'user' ? `zooscope.connection.${id}.${kind}` : `zooscope.workspaceConnection.${id}.${kind}`;
}
