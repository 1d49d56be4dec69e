import * as vscode from 'vscode';
import type { ConnectionSecrets, SavedConnection } from '../core/connectionStore';
import type { Core } from '../core/core';
import { connectionForm } from './connectionForm';
import { pickConnection } from '../core/pickConnection';
import { ask } from '../common/notifier';
import type { SecretKind } from '../core/secretBinding';
import { askToSendSecret } from '../core/secretConsent';

const t = vscode.l10n.t;

/** Add Connection…: the form asks for everything. */
export async function addConnection(core: Core): Promise<string | undefined> {
  const result = await connectionForm(undefined, core.store.list().map((c) => c.name));
  return result ? saveAndConnect(core, result) : undefined;
}

/** Add Connection with the connection and its secrets given instead of asked: only for the test API. */
export function addConnectionPreset(core: Core, preset: SavedConnection & ConnectionSecrets): Promise<string | undefined> {
  const { password, tlsPassphrase, saslPassword, sshSecret, ...connection } = preset;
  return saveAndConnect(core, { connection: { ...connection, id: connection.id || connection.name }, secrets: { password, tlsPassphrase, saslPassword, sshSecret } });
}

async function saveAndConnect(core: Core, result: { connection: SavedConnection; secrets: ConnectionSecrets }): Promise<string | undefined> {
  const { connection } = result;
  await core.store.save(connection, result.secrets);
  const live = await core.connections.connect(connection.id);
  if (live) await core.view.reveal(core.tree.rootFor(connection.id), { select: true, focus: true, expand: true });
  return connection.id;
}

export async function editConnection(core: Core, arg?: unknown): Promise<void> {
  const id = await pickConnection(core, arg);
  const existing = id ? core.store.get(id) : undefined;
  if (!existing) return;
  const result = await connectionForm(existing, core.store.list().map((c) => c.name));
  if (!result) return;
  // Kept secrets follow an edit of the servers (or user, or TLS files) only when the user says so.
  const rebind: SecretKind[] = [];
  for (const request of await core.store.secretsToRebind(existing, result.connection, result.secrets)) {
    if (await askToSendSecret(request)) rebind.push(request.kind);
  }
  await core.store.save(result.connection, result.secrets, rebind);
  if (core.connections.get(existing.id)) {
    core.connections.disconnect(existing.id);
    await core.connections.connect(existing.id);
  }
}

export async function removeConnection(core: Core, arg?: unknown, confirmed = false): Promise<void> {
  const id = await pickConnection(core, arg);
  const saved = id ? core.store.get(id) : undefined;
  if (!saved) return;
  if (!confirmed) {
    const remove = t('Remove');
    const answer = await ask('warning',
      t('Remove the connection "{0}"? Nothing on the ZooKeeper servers is changed.', saved.name), undefined, remove);
    if (answer !== remove) return;
  }
  core.connections.disconnect(saved.id);
  await core.store.remove(saved.id);
}

export async function connect(core: Core, arg?: unknown): Promise<void> {
  const id = await pickConnection(core, arg);
  if (!id) return;
  core.statusBar.setActive(id);
  const live = await core.connections.connect(id);
  if (live) await core.view.reveal(core.tree.rootFor(id), { expand: true });
}

export async function disconnect(core: Core, arg?: unknown): Promise<void> {
  const id = await pickConnection(core, arg, true);
  if (id) core.connections.disconnect(id);
}
