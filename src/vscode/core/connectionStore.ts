// Saved connections: everything but the password in the `zooscope.connections` setting (users can read, edit
// and share it), the password in SecretStorage under the connection's id.
import * as vscode from 'vscode';
import type { SessionOptions } from '../../zk/session/session';
import { requestTimeoutMs } from './settings';
import type { ConnectionSecrets, SavedConnection } from './savedConnection';

export type { ConnectionSecrets, SavedConnection, SavedSasl, SavedTls } from './savedConnection';


const SECTION = 'zooscope';
const KEY = 'connections';

export class ConnectionStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.${KEY}`)) this.changed.fire();
    });
  }

  list(): SavedConnection[] {
    const raw = vscode.workspace.getConfiguration(SECTION).get<Partial<SavedConnection>[]>(KEY) ?? [];
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

  /** Adds or replaces (by id) a connection; its secrets, if given, go to secret storage only. */
  async save(connection: SavedConnection, secrets: ConnectionSecrets = {}): Promise<void> {
    const others = this.list().filter((c) => c.id !== connection.id);
    const clean: SavedConnection = Object.fromEntries(
      Object.entries(connection).filter(([, v]) => v !== undefined && v !== ''),
    ) as unknown as SavedConnection;
    await this.write([...others, clean]);
    for (const kind of SECRET_KINDS) {
      const value = secrets[kind];
      if (value === '') await this.secrets.delete(secretKey(connection.id, kind));
      else if (value !== undefined) await this.secrets.store(secretKey(connection.id, kind), value);
    }
  }

  async remove(id: string): Promise<void> {
    await this.write(this.list().filter((c) => c.id !== id));
    for (const kind of SECRET_KINDS) await this.secrets.delete(secretKey(id, kind));
  }

  password(id: string): Thenable<string | undefined> {
    return this.secrets.get(secretKey(id, 'password'));
  }

  secret(id: string, kind: keyof ConnectionSecrets): Thenable<string | undefined> {
    return this.secrets.get(secretKey(id, kind));
  }

  private async write(connections: SavedConnection[]): Promise<void> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const inspected = config.inspect(KEY);
    // Write back where the user keeps them; new lists go to the user settings.
    const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await config.update(KEY, connections, target);
  }

  /** How to open a session for `saved` (the explorer's and the lock sessions alike); the password from secret storage. */
  async sessionOptions(saved: SavedConnection): Promise<SessionOptions> {
    const password = saved.digestUser ? await this.password(saved.id) : undefined;
    const options: SessionOptions = {
      connectString: saved.connectString,
      chroot: saved.chroot,
      sessionTimeoutMs: saved.sessionTimeoutMs ?? 30000,
      requestTimeoutMs: requestTimeoutMs(),
      digest: saved.digestUser && password !== undefined ? [`${saved.digestUser}:${password}`] : [],
    };
    if (saved.tls) {
      const { caFile, certFile, keyFile, pfxFile, checkServerName, pinnedSha256 } = saved.tls;
      const passphrase = await this.secret(saved.id, 'tlsPassphrase');
      options.tls = { caFile, certFile, keyFile, pfxFile, checkServerName: checkServerName !== false, pinnedSha256, passphrase: passphrase || undefined };
    }
    if (saved.sasl?.mechanism === 'DIGEST-MD5') {
      options.sasl = { mechanism: 'DIGEST-MD5', username: saved.sasl.user, password: (await this.secret(saved.id, 'saslPassword')) ?? '' };
    } else if (saved.sasl?.mechanism === 'GSSAPI') {
      options.sasl = { mechanism: 'GSSAPI', principal: saved.sasl.principal, serviceName: saved.sasl.serviceName };
    }
    return options;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

const SECRET_KINDS: readonly (keyof ConnectionSecrets)[] = ['password', 'tlsPassphrase', 'saslPassword'];

function secretKey(id: string, kind: keyof ConnectionSecrets): string {
  return `zooscope.connection.${id}.${kind}`;
}
