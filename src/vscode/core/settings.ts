// Every setting ZooScope reads, with its default, in one place. Read fresh each time: they may change while a
// view or panel is open.
import * as vscode from 'vscode';
import type { TreeSettings } from '../../zk/tree/connectionTree';
import type { SavedConnection } from './savedConnection';
import { userOnlyText } from './connectionSource';

export interface LockSettings {
  pollIntervalMs: number;
  heldTooLongMs: number;
  /** A remote window's locks are released after it has been closed this long; 0: never. */
  releaseWhenWindowGoneMs: number;
}

export function lockSettings(): LockSettings {
  const config = vscode.workspace.getConfiguration('zooscope.locks');
  const seconds = config.get<number>('pollIntervalSeconds') ?? 2;
  const minutes = config.get<number>('heldTooLongMinutes') ?? 10;
  const goneSeconds = config.get<number>('releaseWhenWindowClosedSeconds') ?? 300;
  return {
    pollIntervalMs: Math.max(250, seconds * 1000), heldTooLongMs: Math.max(1000, minutes * 60000),
    releaseWhenWindowGoneMs: Number.isFinite(goneSeconds) && goneSeconds > 0 ? Math.max(5000, goneSeconds * 1000) : 0,
  };
}

export function ensembleRefreshMs(): number {
  return Math.max(1000, 1000 * (vscode.workspace.getConfiguration('zooscope.ensemble').get<number>('refreshSeconds') ?? 5));
}

/** The optional AdminServer port of a saved connection (`zooscope.connections[].adminPort`). */
export function adminPortOf(saved: SavedConnection | undefined): number | undefined {
  // Hand-written settings may hold anything here.
  const port: unknown = saved?.adminPort;
  return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
}

export function affectsLockSettings(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration('zooscope.locks') || e.affectsConfiguration('zooscope.connections');
}

/** How long a request may go unanswered before it fails (`zooscope.requestTimeoutSeconds`). */
export function requestTimeoutMs(): number {
  return 1000 * (vscode.workspace.getConfiguration('zooscope').get<number>('requestTimeoutSeconds') ?? 15);
}

/** Whether data is read after a `sync` (`zooscope.syncBeforeRead`): for sessions on a follower that may lag the leader. */
export function syncBeforeRead(): boolean {
  return vscode.workspace.getConfiguration('zooscope').get<boolean>('syncBeforeRead') ?? false;
}

/**
 * The ssh program and ssh config file (`zooscope.ssh.path`, `zooscope.ssh.configFile`), read from the user's
 * settings only: what runs on this machine is never a folder's choice, trusted or not (a config file can name a
 * ProxyCommand).
 */
export function sshProgramSettings(): { sshPath?: string; configFile?: string } {
  const config = vscode.workspace.getConfiguration('zooscope.ssh');
  const sshPath = userOnlyText(config.inspect('path'));
  const configFile = userOnlyText(config.inspect('configFile'));
  return { ...(sshPath ? { sshPath } : {}), ...(configFile ? { configFile } : {}) };
}

/** The explorer's paging and live updates (`zooscope.explorer.*`). */
export function treeSettings(): TreeSettings {
  const config = vscode.workspace.getConfiguration('zooscope.explorer');
  return {
    pageSize: config.get<number>('pageSize') ?? 1000,
    window: 256,
    liveUpdates: config.get<boolean>('liveUpdates') ?? true,
    debounceMs: 30,
  };
}

/** Whether a single click on a leaf node previews its data (`zooscope.explorer.openOnClick`). */
export function openOnClick(): boolean {
  return vscode.workspace.getConfiguration('zooscope.explorer').get<boolean>('openOnClick') ?? true;
}
