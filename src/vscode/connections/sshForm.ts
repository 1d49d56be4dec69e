// The SSH section of the connection form: direct, or through a bastion (`[user@]host[:port]` or an ssh config
// alias), jump hosts before it, and how to authenticate: the SSH agent, a key file (its passphrase in secret
// storage) or a password (secret storage). Host keys are settled when connecting, not here.
import * as vscode from 'vscode';
import type { SavedConnection, SavedSsh } from '../core/connectionStore';
import { input } from '../common/quickInput';
import { choose, chooseFile } from './securityForm';
import { bastionProblem, jumpsProblem, splitJumps } from './sshFormChecks';

const t = vscode.l10n.t;

export interface SshAnswers {
  ssh?: SavedSsh;
  /** undefined: keep the stored one; '': forget it. */
  sshSecret?: string;
}

/** Asks for the SSH route; undefined when the user cancelled. */
export async function sshForm(title: string, existing: SavedConnection | undefined): Promise<SshAnswers | undefined> {
  const before = existing?.ssh;
  const through = await choose(title, t('Route'), [
    { label: t('Direct'), description: t('this machine reaches the servers'), value: false },
    { label: t('Through an SSH bastion'), description: t('the system\'s OpenSSH client; your ~/.ssh/config applies'), value: true },
  ], !!before);
  if (through === undefined) return undefined;
  if (!through) return { sshSecret: '' };
  const bastion = await input({
    title, prompt: t('SSH bastion: [user@]host[:port], or a Host alias of your ssh config'), value: before?.bastion ?? '', ignoreFocusOut: true,
    validateInput: (v) => bastionProblem(t, v),
  });
  if (bastion === undefined) return undefined;
  const jumps = await input({
    title, prompt: t('Jump hosts before the bastion (optional): [user@]host[:port], comma-separated, in order'),
    value: before?.jumps?.join(', ') ?? '', ignoreFocusOut: true, validateInput: (v) => jumpsProblem(t, v),
  });
  if (jumps === undefined) return undefined;
  const auth = await choose(title, t('SSH authentication'), [
    { label: t('SSH agent'), description: t('the keys your agent holds (SSH_AUTH_SOCK)'), value: 'agent' as const },
    { label: t('Key file'), description: t('its passphrase, if any, kept in secret storage'), value: 'key' as const },
    { label: t('Password'), description: t('kept in secret storage'), value: 'password' as const },
  ], before?.auth ?? 'agent');
  if (auth === undefined) return undefined;
  const ssh: SavedSsh = { bastion: bastion.trim(), auth };
  const jumpList = splitJumps(jumps);
  if (jumpList.length) ssh.jumps = jumpList;
  if (auth === 'agent') return { ssh, sshSecret: '' };
  const keeping = before?.auth === auth;
  if (auth === 'key') {
    const file = await chooseFile(title, t('SSH private key'), before?.identityFile, false);
    if (!file) return undefined;
    ssh.identityFile = file;
  }
  const secret = await input({
    title, password: true, ignoreFocusOut: true,
    prompt: auth === 'key'
      ? t('Passphrase of the SSH key, if it is encrypted (kept in secret storage; leave empty to keep the stored one, or for none)')
      : keeping ? t('SSH password (leave empty to keep the stored one)') : t('SSH password (kept in secret storage)'),
  });
  if (secret === undefined) return undefined;
  return { ssh, sshSecret: secret === '' && keeping ? undefined : secret };
}
