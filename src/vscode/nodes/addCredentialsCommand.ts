// "Add Credentials…": digest user + password added to the live session (addauth), for as long as it lives. The
// password goes to the server only: it is neither logged nor saved.
import * as vscode from 'vscode';
import { pickConnection } from '../common/pickConnection';
import { log } from '../common/log';
import type { Core } from '../core/core';
import { showWriteFailure } from '../common/failures';
import { liveWriter } from '../common/liveWriter';
import { info } from '../common/notifier';
import { input } from '../common/quickInput';

const t = vscode.l10n.t;

export async function addCredentials(services: Core, arg?: unknown, preset?: { user: string; password: string }): Promise<string[] | undefined> {
  const connectionId = await pickConnection(services, arg, true);
  if (!connectionId) return undefined;
  const name = services.store.get(connectionId)?.name ?? connectionId;
  const user = preset?.user ?? await input({
    title: t('Add Credentials to {0}', name), prompt: t('Digest user name'),
    validateInput: (v) => (v === '' ? t('Enter a user name.') : v.includes(':') ? t('A digest user name cannot contain ":".') : undefined),
  });
  if (user === undefined) return undefined;
  const password = preset?.password ?? await input({
    title: t('Add Credentials to {0}', name), prompt: t('Password of {0}', user), password: true,
  });
  if (password === undefined) return undefined;
  const found = await liveWriter(services.connections, connectionId);
  if (!found) return undefined;
  const outcome = await found.writer.addDigestAuth(user, password);
  if (!outcome.ok) {
    void showWriteFailure(connectionId, outcome.failure);
    return undefined;
  }
  const identities = outcome.identities.map((i) => `${i.scheme}:${i.user}`);
  log().info(`${name}: digest credentials added for user ${user}`);
  void info(
    t('Added credentials of "{0}" to the session of {1} (until it closes). The server now knows this session as: {2}', user, name, identities.join(', ')));
  return identities;
}
