// Live sessions of saved connections: connects with progress and cancel, explains failures, replaces an expired
// session by a new one, and asks the user what to do when contact is lost for longer than the session timeout.
import * as vscode from 'vscode';
import { ConnectFailure, SessionState, ZkSession } from '../../zk/session/session';
import { SessionDirectory } from '../../zk/servers/sessionDirectory';
import { log } from '../common/log';
import { describeConnectFailure, describeProbe } from '../common/failureTexts';
import { ConnectionStore, SavedConnection } from './connectionStore';
import { info, warn, fail } from '../common/notifier';
import { isPastTreeId } from './pastTargets';
import { showProgress, viewProgress } from '../common/progress';
import { Command } from './commandIds';
import { BastionRefusedError, confirmBastionHostKey } from './bastionHostKey';

const t = vscode.l10n.t;

export type ConnectionState = SessionState | 'disconnected';

export interface LiveConnection {
  readonly saved: SavedConnection;
  readonly session: ZkSession;
  readonly directory: SessionDirectory;
}

export class ConnectionManager implements vscode.Disposable {
  private readonly live = new Map<string, LiveConnection>();
  private readonly connecting = new Map<string, Promise<LiveConnection | undefined>>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with a connection id whenever its state or session changes. */
  readonly onDidChange = this.changed.event;
  /** Fires with a connection id when it got a new session (after expiry): everything shown must be reloaded. */
  private readonly renewed = new vscode.EventEmitter<string>();
  readonly onDidRenewSession = this.renewed.event;
  /**
   * Fires with a connection id when it ends up without a session by the user's doing or a failed connect (not
   * on expiry, which renews it): views stop asking for it until the user does.
   */
  private readonly closedByUser = new vscode.EventEmitter<string>();
  readonly onDidDisconnect = this.closedByUser.event;
  /** Per connection, the SSH bastion's line while it, not ZooKeeper, is why the connection is down. */
  private readonly tunnelTrouble = new Map<string, string>();

  constructor(private readonly store: ConnectionStore) {}

  get(id: string): LiveConnection | undefined {
    return this.live.get(id);
  }

  /** Why the bastion is the problem now (a tunnel closed or cannot be opened); undefined when it is not. */
  bastionProblem(id: string): string | undefined {
    return this.tunnelTrouble.get(id);
  }

  state(id: string): ConnectionState {
    if (this.connecting.has(id) && !this.live.has(id)) return 'connecting';
    return this.live.get(id)?.session.state ?? 'disconnected';
  }

  /** Connects (or returns the live connection). Resolves undefined when the user cancelled or it failed. */
  connect(id: string): Promise<LiveConnection | undefined> {
    // A tree at a past moment (chosen in the explorer, reached from the palette) has no server to write to.
    if (isPastTreeId(id)) {
      void info(t('A tree at a past moment is read-only: this command works on live connections only.'));
      return Promise.resolve(undefined);
    }
    const existing = this.live.get(id);
    if (existing && existing.session.state !== 'closed' && existing.session.state !== 'expired') return Promise.resolve(existing);
    let pending = this.connecting.get(id);
    if (!pending) {
      pending = this.openWithProgress(id).finally(() => {
        this.connecting.delete(id);
        this.changed.fire(id);
      });
      this.connecting.set(id, pending);
      this.changed.fire(id);
    }
    return pending;
  }

  disconnect(id: string): void {
    const connection = this.live.get(id);
    if (!connection) return;
    this.live.delete(id);
    this.tunnelTrouble.delete(id);
    connection.session.close();
    log().info(`disconnected ${connection.saved.name}`);
    this.closedByUser.fire(id);
    this.changed.fire(id);
  }

  private async openWithProgress(id: string): Promise<LiveConnection | undefined> {
    const saved = this.store.get(id);
    if (!saved) return undefined;
    const abort = new AbortController();
    const opening = this.open(saved, abort.signal);
    // Progress in the view at once; a cancellable notification only when it takes a while (a local server
    // answers in milliseconds, and a notification that flashes by is noise).
    viewProgress('zooscope.explorer', opening);
    const slow = setTimeout(() => {
      void showProgress(vscode.ProgressLocation.Notification, t('Connecting to {0}…', saved.name),
        (_progress, token) => {
          token.onCancellationRequested(() => abort.abort());
          return opening.catch(() => undefined);
        });
    }, 1000);
    try {
      return await opening;
    } catch (error) {
      // The tree asks for an expanded root's children again when its state changes, and that would connect again:
      // an endless retry nobody asked for.
      this.closedByUser.fire(id);
      if (error instanceof ConnectFailure && error.reason === 'cancelled') return undefined;
      const message = error instanceof ConnectFailure ? describeConnectFailure(saved.name, error)
        : error instanceof BastionRefusedError ? error.message : String(error);
      log().error(`connect ${saved.name}: ${error instanceof Error ? error.message : String(error)}`);
      void fail(message, t('Retry'), t('Edit Connection')).then((choice) => {
        if (choice === t('Retry')) void this.connect(id);
        else if (choice === t('Edit Connection')) void vscode.commands.executeCommand(Command.editConnection, id);
      });
      return undefined;
    } finally {
      clearTimeout(slow);
    }
  }

  /** Opens a session for `saved` without any UI (also used after an expiry). */
  async open(saved: SavedConnection, signal?: AbortSignal): Promise<LiveConnection> {
    const options = await this.store.sessionOptions(saved);
    // The bastion's host key is settled (shown, trusted or refused) before any tunnel offers a key or a password.
    if (options.ssh && !(await confirmBastionHostKey(saved.name, options.ssh, this.store.acceptedHostKeysFile))) {
      throw new ConnectFailure('cancelled', []);
    }
    const session = new ZkSession(options);
    log().info(`connecting ${saved.name} (${saved.connectString}${saved.chroot ?? ''}${session.dialer.via ? ` through ${session.dialer.via}` : ''})`);
    await session.open(signal);
    // Four-letter words and the AdminServer go the session's way (through its bastion, when it has one).
    const directory = new SessionDirectory(session.parsed.servers, session.serverTls, undefined, session.dialer);
    const connection: LiveConnection = { saved, session, directory };
    this.live.set(saved.id, connection);
    this.tunnelTrouble.delete(saved.id);
    log().info(`connected ${saved.name}: session ${session.sessionId} on ${session.serverAddress}`);
    session.on('state', (state: SessionState) => this.onSessionState(connection, state));
    // A plain drop clears the bastion's line; a tunnel's failure (reported after its drop) sets it.
    session.on('dropped', () => this.tunnelTrouble.delete(saved.id));
    session.channel.onSecurity((event) => {
      if (event.kind !== 'tunnelFailure' || this.live.get(saved.id) !== connection) return;
      log().warn(`${saved.name}: ${event.failure.line}`);
      this.tunnelTrouble.set(saved.id, event.failure.line);
      this.changed.fire(saved.id);
    });
    return connection;
  }

  private onSessionState(connection: LiveConnection, state: SessionState): void {
    const { saved, session } = connection;
    if (this.live.get(saved.id) !== connection) return;
    if (state === 'connected') this.tunnelTrouble.delete(saved.id);
    log().info(`${saved.name}: ${state}${session.serverAddress ? ` on ${session.serverAddress}` : ''}`);
    this.changed.fire(saved.id);
    if (state === 'expired') void this.renewAfterExpiry(connection);
    if (state === 'lost') void this.askAfterLostContact(connection);
  }

  private async renewAfterExpiry(connection: LiveConnection): Promise<void> {
    const { saved } = connection;
    void warn(t('The ZooKeeper session of "{0}" expired (ephemeral nodes and watches of that session are gone). Opening a new session.', saved.name));
    this.live.delete(saved.id);
    connection.session.close();
    const renewed = await this.connect(saved.id);
    if (renewed) this.renewed.fire(saved.id);
  }

  private async askAfterLostContact(connection: LiveConnection): Promise<void> {
    const probes = await connection.session.probeAll();
    if (connection.session.state !== 'lost') return;
    const choice = await warn(
      t('Lost contact with "{0}" for longer than the session timeout. {1}', connection.saved.name, probes.map(describeProbe).join('; ')),
      t('Keep Trying'), t('Disconnect'));
    if (choice === t('Disconnect')) this.disconnect(connection.saved.id);
  }

  dispose(): void {
    for (const id of [...this.live.keys()]) this.disconnect(id);
    this.changed.dispose();
    this.renewed.dispose();
    this.closedByUser.dispose();
  }
}
