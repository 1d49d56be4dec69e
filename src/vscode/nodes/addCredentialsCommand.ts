// "Add Credentials…": a digest user added to the live session (addauth) for as long as it lives, or a SASL
// DIGEST-MD5 user, which can only authenticate a connection as it opens: saved to the connection (the password in
// secret storage) and the connection reconnects. Passwords go to the server only: never logged, never in settings.
import * as vscode from 'vscode';
import { pickConnection } from '../core/pickConnection';
import { log } from '../common/log';
import type { Core } from '../core/core';
import { showWriteFailure } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { ZkSession } from '../../zk/session/session';
import { ask, info, warn } from '../common/notifier';
import { input, pickItem } from '../common/quickInput';

const t = vscode.l10n.t;

export type CredentialScheme = 'digest' | 'sasl';

export interface CredentialsPreset {
  user: string;
  password: string;
  /** Default 'digest'. */
  scheme?: CredentialScheme;
  /** SASL only: the answer to "its ephemeral nodes are deleted" when the session owns some (asked if absent). */
  confirmed?: boolean;
}

export async function addCredentials(core: Core, arg?: unknown, preset?: CredentialsPreset): Promise<string[] | undefined> {
  const connectionId = await pickConnection(core, arg, true);
  if (!connectionId) return undefined;
  const name = core.store.get(connectionId)?.name ?? connectionId;
  const scheme = preset ? preset.scheme ?? 'digest' : await pickScheme(name);
  if (!scheme) return undefined;
  const user = preset?.user ?? await input({
    title: t('Add Credentials to {0}', name), prompt: scheme === 'digest' ? t('Digest user name') : t('SASL DIGEST-MD5 user name'),
    validateInput: (v) => (v === '' ? t('Enter a user name.') : scheme === 'digest' && v.includes(':') ? t('A digest user name cannot contain ":".') : undefined),
  });
  if (user === undefined) return undefined;
  const password = preset?.password ?? await input({
    title: t('Add Credentials to {0}', name), prompt: t('Password of {0}', user), password: true,
  });
  if (password === undefined) return undefined;
  return scheme === 'digest' ? addDigest(core, connectionId, name, user, password) : switchToSasl(core, connectionId, name, user, password, preset?.confirmed);
}

async function pickScheme(name: string): Promise<CredentialScheme | undefined> {
  const chosen = await pickItem([
    { scheme: 'digest' as const, icon: 'key', label: t('Digest user'), description: t('added to this session now (addauth), until it closes; not saved') },
    {
      scheme: 'sasl' as const, icon: 'shield', label: t('SASL DIGEST-MD5 user'),
      description: t('needs SASL on the server; saved, and the connection reconnects'),
    },
  ], { title: t('Add Credentials to {0}', name), placeHolder: t('Which kind of credentials?') });
  return chosen?.scheme;
}

async function addDigest(core: Core, connectionId: string, name: string, user: string, password: string): Promise<string[] | undefined> {
  const found = await liveWriter(core.connections, connectionId);
  if (!found) return undefined;
  if (!(await core.store.digestMayGo({ ...found.live.saved, digestUser: user }))) return undefined;
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

/**
 * SASL happens when a connection opens, so the user is saved to the connection and it reconnects. The credentials
 * are tried first on a session of their own, so a refusal (or a server without SASL) leaves the connection as it
 * was; and a session that owns ephemeral nodes is closed only when the user agrees to lose them.
 */
async function switchToSasl(core: Core, connectionId: string, name: string, user: string, password: string, confirmed?: boolean): Promise<string[] | undefined> {
  const before = core.store.get(connectionId);
  if (!before) return undefined;
  const sasl = { mechanism: 'DIGEST-MD5', username: user, password } as const;
  const trial = new ZkSession({ ...(await core.store.sessionOptions(before)), sasl });
  try {
    await trial.open();
  } catch (error) {
    log().info(`${name}: SASL as ${user} did not succeed: ${(error as Error).message}`);
    void warn(t('{0} was not changed: SASL as "{1}" did not succeed ({2}).', name, user, (error as Error).message));
    return undefined;
  } finally {
    trial.close();
  }
  const current = core.connections.get(connectionId)?.session;
  const ephemerals = current ? await current.getEphemerals('/').catch(() => []) : [];
  if (ephemerals.length > 0) {
    const reconnect = t('Reconnect with SASL');
    const agreed = confirmed ?? (await ask('warning',
      t('Reconnecting {0} closes its session: its {1} ephemeral nodes are deleted.', name, ephemerals.length), ephemerals.slice(0, 10), reconnect)) === reconnect;
    if (!agreed) return undefined;
  }
  const previousPassword = before.sasl?.mechanism === 'DIGEST-MD5' ? await core.store.secret(connectionId, 'saslPassword') : undefined;
  await core.store.save({ ...before, sasl: { mechanism: 'DIGEST-MD5', user } }, { saslPassword: password });
  core.connections.disconnect(connectionId);
  const live = await core.connections.connect(connectionId);
  if (!live) {
    await core.store.save(before, { saslPassword: previousPassword ?? '' });
    log().info(`${name}: SASL as ${user} failed; the connection's previous settings are back`);
    void warn(t('{0} was not changed: SASL as "{1}" did not succeed, so the connection keeps its previous settings.', name, user));
    await core.connections.connect(connectionId);
    return undefined;
  }
  const identities = (await live.session.whoAmI()).map((i) => `${i.scheme}:${i.user}`);
  log().info(`${name}: reconnected with SASL DIGEST-MD5 as ${user}`);
  void info(t('{0} now connects with SASL as "{1}" (saved with the connection). The server knows this session as: {2}', name, user, identities.join(', ')));
  return identities;
}
