// The questions asked before a stored secret leaves for somewhere it was not given for, and before a digest password
// goes over plain TCP to another machine. Modal: nothing is sent while the question is open.
import * as vscode from 'vscode';
import { ask } from '../common/notifier';
import type { NamedFile } from './savedConnection';
import { describeHosts, SecretBinding, SecretKind } from './secretBinding';

const t = vscode.l10n.t;

export interface SecretRequest {
  connectionName: string;
  kind: SecretKind;
  /** What the secret was given for; undefined when an older version stored it without saying. */
  givenFor?: SecretBinding;
  sendTo: SecretBinding;
  /** The connection comes from the folder's settings and the secret from the user's own connection of that name. */
  fromWorkspace: boolean;
}

function kindName(kind: SecretKind): string {
  return kind === 'password' ? t('digest password') : kind === 'saslPassword' ? t('SASL password')
    : kind === 'sshSecret' ? t('SSH passphrase or password') : t('TLS passphrase');
}

/** How the servers of a binding are told from others: over TLS with which CA, name check and pins. */
function verificationText(binding: SecretBinding): string | undefined {
  const tls = binding.tls;
  if (!tls) return undefined;
  const parts = [tls.caFile ? t('TLS, CA {0}', tls.caFile) : t('TLS, the system\'s CAs')];
  if (tls.checkServerName === false) parts.push(t('server name not checked'));
  if (tls.pinnedSha256?.length) parts.push(t('pinned to {0}', tls.pinnedSha256.map((pin) => pin.slice(0, 11)).join(', ')));
  const client = tls.pfxFile ?? tls.certFile;
  if (client) parts.push(t('client certificate {0}', client));
  return parts.join(', ');
}

/** Where a secret goes, as the user reads it: the servers and how they are verified. */
export function describeDestination(binding: SecretBinding): string {
  const verification = verificationText(binding);
  return verification ? `${describeHosts(binding)} (${verification})` : describeHosts(binding);
}

/**
 * True when the user chose to send it (and so to bind it to where it goes now). The safe answer comes first, so it
 * is the dialog's default: Enter (or a hurried click on the first button) sends nothing.
 */
export async function askToSendSecret(request: SecretRequest): Promise<boolean> {
  const send = t('Send');
  const dontSend = t('Don\'t Send');
  const what = kindName(request.kind);
  const from = request.givenFor ? describeDestination(request.givenFor) : t('servers ZooScope did not record');
  const to = describeDestination(request.sendTo);
  const message = request.fromWorkspace
    ? t('The connection "{0}" in this folder\'s settings would use the {1} of your own connection "{0}", given for {2}. Send it to {3}?', request.connectionName, what, from, to)
    : t('The {1} of "{0}" was given for {2}, but the connection now goes to {3}. Send it there?', request.connectionName, what, from, to);
  const detail = [t('Send: it goes to {0} from now on. Don\'t Send: the session opens without it and nothing is sent.', to)];
  return (await ask('warning', message, detail, dontSend, send)) === send;
}

export type DigestChoice = 'send' | 'secure' | undefined;

/** The digest scheme sends the password as it is; over plain TCP anyone on the way can read it. */
export async function warnDigestInClear(connectionName: string, hosts: string): Promise<DigestChoice> {
  const secure = t('Use TLS or SASL Instead');
  const send = t('Send Anyway');
  const answer = await ask('warning',
    t('The digest password of "{0}" would go to {1} in clear text over plain TCP: anyone on the network between can read it.', connectionName, hosts),
    [t('TLS encrypts the connection; SASL DIGEST-MD5 never sends the password itself.')], secure, send);
  return answer === send ? 'send' : answer === secure ? 'secure' : undefined;
}

function fileRole(role: NamedFile['role']): string {
  return role === 'caFile' ? t('TLS CA file') : role === 'certFile' ? t('TLS client certificate')
    : role === 'keyFile' ? t('TLS client key') : role === 'pfxFile' ? t('TLS PKCS#12 file') : t('SSH private key');
}

/**
 * A connection from the folder's settings names files on this machine. True when the user lets it use them; the safe
 * answer is the default (Enter uses none of them).
 */
export async function askToUseFolderFiles(connectionName: string, files: readonly NamedFile[], destination: string): Promise<boolean> {
  const use = t('Use Them');
  const dontUse = t('Don\'t Use');
  const list = files.map((file) => `${fileRole(file.role)}: ${file.path}`);
  const answer = await ask('warning',
    t('The connection "{0}" in this folder\'s settings would use files of this machine with {1}. Use them?', connectionName, destination),
    [...list, t('Use Them: they are used for this connection until the window reloads. Don\'t Use: the connection opens without them (a server that needs them refuses it).')],
    dontUse, use);
  return answer === use;
}
