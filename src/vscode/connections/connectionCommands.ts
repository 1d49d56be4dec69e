import * as vscode from 'vscode';
import type { ConnectionSecrets, SavedConnection } from '../core/connectionStore';
import type { Core } from '../core/core';
import { connectionForm } from './connectionForm';
import { pickConnection } from '../core/pickConnection';
import { ask } from '../common/notifier';

const t = vscode.l10n.t;

/** Add Connection…; automation (and tests) may pass the connection and password instead of answering prompts. */
export async function addConnection(services: Core, preset?: SavedConnection & ConnectionSecrets): Promise<string | undefined> {
  let result: { connection: SavedConnection; secrets: ConnectionSecrets } | undefined;
  if (preset?.connectString) {
    const { password, tlsPassphrase, saslPassword, ...connection } = preset;
    result = { connection: { ...connection, id: connection.id || connection.name }, secrets: { password, tlsPassphrase, saslPassword } };
  } else {
    result = await connectionForm(undefined, services.store.list().map((c) => c.name));
  }
  if (!result) return undefined;
  const { connection } = result;
  await services.store.save(connection, result.secrets);
  const live = await services.connections.connect(connection.id);
  if (live) await services.view.reveal(services.tree.rootFor(connection.id), { select: true, focus: true, expand: true });
  return connection.id;
}

export async function editConnection(services: Core, arg?: unknown): Promise<void> {
  const id = await pickConnection(services, arg);
  const existing = id ? services.store.get(id) : undefined;
  if (!existing) return;
  const result = await connectionForm(existing, services.store.list().map((c) => c.name));
  if (!result) return;
  await services.store.save(result.connection, result.secrets);
  if (services.connections.get(existing.id)) {
    services.connections.disconnect(existing.id);
    await services.connections.connect(existing.id);
  }
}

export async function removeConnection(services: Core, arg?: unknown, confirmed = false): Promise<void> {
  const id = await pickConnection(services, arg);
  const saved = id ? services.store.get(id) : undefined;
  if (!saved) return;
  if (!confirmed) {
    const remove = t('Remove');
    const answer = await ask('warning',
      t('Remove the connection "{0}"? Nothing on the ZooKeeper servers is changed.', saved.name), undefined, remove);
    if (answer !== remove) return;
  }
  services.connections.disconnect(saved.id);
  await services.store.remove(saved.id);
}

export async function connect(services: Core, arg?: unknown): Promise<void> {
  const id = await pickConnection(services, arg);
  if (!id) return;
  services.statusBar.setActive(id);
  const live = await services.connections.connect(id);
  if (live) await services.view.reveal(services.tree.rootFor(id), { expand: true });
}

export async function disconnect(services: Core, arg?: unknown): Promise<void> {
  const id = await pickConnection(services, arg, true);
  if (id) services.connections.disconnect(id);
}
