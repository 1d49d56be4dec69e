// What the SSH section of the connection form accepts: a bastion as `[user@]host[:port]` or a Host alias of the
// ssh config, and jump hosts the same way, comma-separated. Pure (the translation function is given): unit-tested.
import { parseSshDestination } from '../../zk/tunnel/sshSettings';
import type { Translate } from '../core/connectionTooltip';

/** Why `text` cannot be a bastion; undefined when it can. */
export function bastionProblem(t: Translate, text: string): string | undefined {
  const value = text.trim();
  if (!value) return t('The bastion cannot be empty.');
  return parseSshDestination(value) ? undefined : t('Not a bastion: give [user@]host[:port] or a Host alias of your ssh config (letters, digits, ".", "-", "_"; no leading "-").');
}

/** The jump hosts written in the form, in order; empty for none. */
export function splitJumps(text: string): string[] {
  return text.split(',').map((j) => j.trim()).filter((j) => j !== '');
}

/** Why `text` cannot be the jump hosts; undefined when it can (empty: none). */
export function jumpsProblem(t: Translate, text: string): string | undefined {
  const bad = splitJumps(text).find((jump) => !parseSshDestination(jump));
  return bad === undefined ? undefined : t('Not a jump host: {0} (give [user@]host[:port] of letters, digits, ".", "-", "_", comma-separated).', bad);
}
