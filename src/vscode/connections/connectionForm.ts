// Add / edit a connection with a short sequence of validated inputs. The password never leaves secret storage.
import * as vscode from 'vscode';
import { isConnectStringProblem, parseConnectString } from '../../zk/connectString';
import { checkPath } from '../../zk/paths';
import type { ConnectionSecrets, SavedConnection } from '../core/connectionStore';
import { securityForm } from './securityForm';
import { sshForm } from './sshForm';
import { describeConnectStringProblem, describePathProblem } from '../common/failureTexts';
import { input, pickItem } from '../common/quickInput';

const t = vscode.l10n.t;

export interface ConnectionFormResult {
  connection: SavedConnection;
  /** A secret left undefined keeps the stored one. */
  secrets: ConnectionSecrets;
}

export async function connectionForm(existing: SavedConnection | undefined, takenNames: string[]): Promise<ConnectionFormResult | undefined> {
  const title = existing ? t('Edit ZooKeeper Connection') : t('Add ZooKeeper Connection');
  const connectString = await input({
    title, prompt: t('Servers: host:port[,host:port…], optionally followed by a chroot'),
    value: existing?.connectString ?? '127.0.0.1:2181', ignoreFocusOut: true,
    validateInput: (v) => { const p = parseConnectString(v); return isConnectStringProblem(p) ? describeConnectStringProblem(p) : undefined; },
  });
  if (connectString === undefined) return undefined;
  const name = await input({
    title, prompt: t('A name for this connection'), value: existing?.name ?? connectString.split(',')[0], ignoreFocusOut: true,
    validateInput: (v) => (!v.trim() ? t('The name cannot be empty.') : v !== existing?.name && takenNames.includes(v.trim()) ? t('A connection named "{0}" exists already.', v) : undefined),
  });
  if (name === undefined) return undefined;
  const chroot = await input({
    title, prompt: t('Chroot (optional), e.g. /app'), value: existing?.chroot ?? '', ignoreFocusOut: true,
    validateInput: (v) => { const p = v ? checkPath(v) : undefined; return p ? describePathProblem(p) : undefined; },
  });
  if (chroot === undefined) return undefined;
  const digestUser = await input({
    title, prompt: t('Digest user (optional; leave empty for no authentication)'), value: existing?.digestUser ?? '', ignoreFocusOut: true,
    validateInput: (v) => (v.includes(':') ? t('The user name cannot contain ":".') : undefined),
  });
  if (digestUser === undefined) return undefined;
  let password: string | undefined;
  if (digestUser) {
    password = await input({
      title, prompt: existing?.digestUser ? t('Password (leave empty to keep the stored one)') : t('Password'),
      password: true, ignoreFocusOut: true,
    });
    if (password === undefined) return undefined;
    if (password === '' && existing?.digestUser) password = undefined;
  }
  const security = await securityForm(title, existing);
  if (!security) return undefined;
  const route = await sshForm(title, existing);
  if (!route) return undefined;
  const mode = await pickItem([
    { label: t('Read and write'), readOnly: false },
    { label: t('Read-only'), description: t('ZooScope refuses every write on this connection'), readOnly: true },
  ], { title, placeHolder: t('Access') });
  if (!mode) return undefined;
  // Fields the form does not ask about (the AdminServer port, hand-written settings) are kept.
  const connection: SavedConnection = {
    ...existing,
    id: existing?.id ?? name.trim(), name: name.trim(), connectString: connectString.trim(),
    chroot: chroot || undefined, digestUser: digestUser || undefined, readOnly: mode.readOnly || undefined,
    sessionTimeoutMs: existing?.sessionTimeoutMs, tls: security.tls, sasl: security.sasl, ssh: route.ssh,
  };
  return { connection, secrets: { password, ...security.secrets, sshSecret: route.sshSecret } };
}
