// A bastion's host key before the first tunnel of a session: an unknown key is shown with its fingerprint and
// trusted (in ZooScope's own known_hosts) only when the user says so; a changed key is refused, with the
// fingerprint it now presents, and never accepted here.
import * as vscode from 'vscode';
import { checkBastionHostKey } from '../../zk/tunnel/hostKeyCheck';
import { fetchHostKey, trustHostKey } from '../../zk/tunnel/hostKeys';
import { bastionName, SshTunnelSettings } from '../../zk/tunnel/sshSettings';
import { ask } from '../common/notifier';

const t = vscode.l10n.t;

/** The bastion's key cannot be used: the message says why, for the user. */
export class BastionRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BastionRefusedError';
  }
}

/**
 * Resolves true when the session may open its tunnels: the key is known, or the user trusted it now; false when the
 * user declined. Throws BastionRefusedError for a changed key.
 */
export async function confirmBastionHostKey(connectionName: string, ssh: SshTunnelSettings, acceptedFile: string | undefined): Promise<boolean> {
  const verdict = await checkBastionHostKey(ssh);
  const bastion = bastionName(ssh);
  if (verdict.kind === 'changed') {
    throw new BastionRefusedError(t('The SSH bastion {0} of "{1}" now presents a different host key ({2}) from the one known: refused. Someone may be in between; if the bastion was reinstalled, remove its old key from known_hosts.',
      bastion, connectionName, verdict.fingerprint ?? t('fingerprint not shown')));
  }
  if (verdict.kind === 'unknownJump') {
    throw new BastionRefusedError(t('The SSH jump host {0} on the way to the bastion {1} of "{2}" presents a host key that is not known. ZooScope trusts only the bastion\'s own key: check the jump host\'s fingerprint and accept it with ssh in a terminal (it is then in ~/.ssh/known_hosts).',
      verdict.jump, bastion, connectionName));
  }
  if (verdict.kind === 'known' || !acceptedFile) return verdict.kind === 'known';
  const key = await fetchHostKey(ssh);
  const trust = t('Trust and Connect');
  const answer = await ask('warning', t('The SSH bastion {0} of "{1}" is not known. Trust its host key?', bastion, connectionName), [
    t('{0} key fingerprint: {1}', key.keyType, key.fingerprint),
    t('Compare it with the fingerprint the bastion\'s administrator gives you. Trusted keys are kept in {0}.', acceptedFile),
  ], trust);
  if (answer !== trust) return false;
  // Checked again: a key swapped between showing and trusting is not trusted.
  await trustHostKey(ssh, acceptedFile, key.fingerprint);
  return true;
}
