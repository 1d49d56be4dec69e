// ACL permissions as letters (`cdrwa`, the order zkCli prints) and back, plus digest ids computed the way the
// server's DigestAuthenticationProvider does (base64 of SHA-1 of `user:password`).
import { createHash } from 'node:crypto';
import type { AclEntry } from '../protocol/writes';
import type { Permission } from './outcome';

/** ZooDefs.Perms bits, in the order zkCli prints their letters. */
export const PERMISSION_BITS: readonly (readonly [Permission, number])[] = [
  ['c', 4], ['d', 8], ['r', 1], ['w', 2], ['a', 16],
];

export const ALL_PERMISSIONS = 31;

/** `31` → `cdrwa`, `3` → `rw`, `0` → `` (no permission). */
export function formatPermissions(perms: number): string {
  return PERMISSION_BITS.filter(([, bit]) => (perms & bit) !== 0).map(([letter]) => letter).join('');
}

export type PermissionsProblem = { code: 'unknownPermission'; letter: string; index: number };

/** `rw` → 3; letters in any order, case-insensitive, repeats allowed; `-` or empty means none. */
export function parsePermissions(text: string): number | PermissionsProblem {
  let perms = 0;
  const trimmed = text.trim();
  if (trimmed === '-') return 0;
  for (let i = 0; i < trimmed.length; i++) {
    const letter = trimmed[i].toLowerCase();
    const bit = PERMISSION_BITS.find(([l]) => l === letter)?.[1];
    if (bit === undefined) return { code: 'unknownPermission', letter: trimmed[i], index: i };
    perms |= bit;
  }
  return perms;
}

export function isPermissionsProblem(value: number | PermissionsProblem): value is PermissionsProblem {
  return typeof value !== 'number';
}

/** The letters for a permission bit set, as a list. */
export function permissionLetters(perms: number): Permission[] {
  return PERMISSION_BITS.filter(([, bit]) => (perms & bit) !== 0).map(([letter]) => letter);
}

/** An entry as zkCli prints it: `digest:alice:XyZ…=:cdrwa`. */
export function formatAclEntry(entry: AclEntry): string {
  return `${entry.scheme}:${entry.id}:${formatPermissions(entry.perms)}`;
}

export type AclEntryProblem =
  | { code: 'badAclEntry'; text: string }
  | PermissionsProblem;

/**
 * Parses `scheme:id:perms`; the id may contain colons (digest `user:hash`, IPv6). `world:anyone:r`,
 * `digest:alice:hash=:cdrwa`, `ip:10.0.0.0/8:r`, `auth::cdrwa`.
 */
export function parseAclEntry(text: string): AclEntry | AclEntryProblem {
  const first = text.indexOf(':');
  const last = text.lastIndexOf(':');
  if (first <= 0 || last === first) return { code: 'badAclEntry', text };
  const perms = parsePermissions(text.slice(last + 1));
  if (isPermissionsProblem(perms)) return perms;
  return { scheme: text.slice(0, first), id: text.slice(first + 1, last), perms };
}

export function isAclEntryProblem(value: AclEntry | AclEntryProblem): value is AclEntryProblem {
  return 'code' in value;
}

/** The id a digest ACL entry needs for `user`/`password`: `user:base64(sha1(user:password))`. */
export function digestId(user: string, password: string): string {
  const hash = createHash('sha1').update(`${user}:${password}`, 'utf8').digest('base64');
  return `${user}:${hash}`;
}
