// What the commands share when reading their arguments: seconds and counts with bounds (refused, never wrapped or
// clamped silently), znode paths checked before anything connects, and digest credentials that never come from
// argv (ps and shell history show it) and are never printed.
import { visibleText } from '../shared/visibleText';
import { connectStringProblemText, isConnectStringProblem, parseConnectString } from '../zk/connectString';
import { checkPath } from '../zk/paths';
import { SECRET_VARIABLES } from '../zk/secretVariables';

/** A bad argument: the command prints this one line and exits 2. */
export class UsageError extends Error {}

/** The environment variables credentials come from. */
export const DIGEST_ENV = SECRET_VARIABLES.digest;
export const PASSWORD_ENV = SECRET_VARIABLES.digestPassword;

/** A non-negative finite number from a flag's value ('' and `--next-flag` are not numbers). */
export function numberOf(text: string | undefined, flag: string, what: string): number {
  const value = text === undefined || text.trim() === '' ? NaN : Number(text);
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`${flag} takes ${what}`);
  return value;
}

/** Seconds → milliseconds, within [minMs, maxMs]. */
export function secondsOf(text: string | undefined, flag: string, minMs: number, maxMs: number): number {
  const ms = Math.round(numberOf(text, flag, 'a number of seconds') * 1000);
  if (ms < minMs || ms > maxMs) throw new UsageError(`${flag} takes ${formatSeconds(minMs)} to ${formatSeconds(maxMs)} seconds, not ${text}`);
  return ms;
}

/** A whole number within [min, max]. */
export function integerOf(text: string | undefined, flag: string, min: number, max: number): number {
  const value = numberOf(text, flag, `a whole number from ${min} to ${max}`);
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not ${text}`);
  return value;
}

function formatSeconds(ms: number): string {
  return String(Math.floor(ms / 1000) === ms / 1000 ? ms / 1000 : Math.floor(ms / 1000));
}

/** The znode path argument, refused before connecting when ZooKeeper would refuse it (or it is the root, if `root` is false). */
export function checkedPath(path: string, allowRoot: boolean): string {
  const problem = checkPath(path);
  if (problem) throw new UsageError(`bad path ${JSON.stringify(path)}: ${problem.code}${'index' in problem ? ` at ${problem.index}` : ''}`);
  if (!allowRoot && path === '/') throw new UsageError('bad path "/": the root cannot be a lock; name a node below it');
  return path;
}

export function checkedConnectString(text: string): string {
  const parsed = parseConnectString(text);
  if (isConnectStringProblem(parsed)) throw new UsageError(`bad connect string ${JSON.stringify(visibleText(text))}: ${connectStringProblemText(parsed)}`);
  return text;
}

/** What to do about a noAuth. */
export const CREDENTIALS_HINT = `the node's ACL refuses this session: give digest credentials with --digest <user> and the password in ${PASSWORD_ENV}, or ${DIGEST_ENV}=<user>:<password>`;

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/**
 * Digest credentials (`user:password`) for the session: `--digest <user>` (or `--auth`) with the password in
 * ZOOSCOPE_DIGEST_PASSWORD, or `user:password` in ZOOSCOPE_DIGEST. Errors name the user, never the password.
 */
export function digestCredentials(user: string | undefined, env: NodeJS.ProcessEnv, flag = '--digest'): string[] {
  const fromEnv = nonEmpty(env[DIGEST_ENV]);
  if (fromEnv !== undefined && fromEnv.indexOf(':') <= 0) throw new UsageError(`${DIGEST_ENV} must be <user>:<password>`);
  if (user === undefined) return fromEnv === undefined ? [] : [fromEnv];
  if (user.includes(':')) {
    throw new UsageError(`${flag} takes a user name only: a password on the command line shows in ps and shell history; put it in ${PASSWORD_ENV}`);
  }
  if (user === '' || user.startsWith('--')) throw new UsageError(`${flag} takes a user name (the password comes from ${PASSWORD_ENV})`);
  const password = nonEmpty(env[PASSWORD_ENV]) ?? (fromEnv?.startsWith(`${user}:`) ? fromEnv.slice(user.length + 1) : undefined);
  if (password === undefined) throw new UsageError(`${flag} ${user} needs the password in ${PASSWORD_ENV} (or ${DIGEST_ENV}=${user}:<password>)`);
  return [`${user}:${password}`];
}


const DURATION_UNITS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90`, `90s`, `15m`, `8h`, `2d` → milliseconds, within [minMs, maxMs]. */
export function durationOf(text: string | undefined, flag: string, minMs: number, maxMs: number): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(s|m|min|h|d)?\s*$/.exec(text ?? '');
  if (!match) throw new UsageError(`${flag} takes a duration such as 90s, 15m or 8h, not ${text ?? 'nothing'}`);
  const ms = Math.round(Number(match[1]) * DURATION_UNITS[match[2] ?? '']);
  if (ms < minMs || ms > maxMs) throw new UsageError(`${flag} takes ${minMs / 1000} s to ${Math.floor(maxMs / 1000)} s, not ${text}`);
  return ms;
}
