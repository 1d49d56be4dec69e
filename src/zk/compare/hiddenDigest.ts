// ZooKeeper 3.7 and later answer getACL from a session without ADMIN permission on the node with each digest entry's
// password hash replaced by `x` (`alice:x`). A real digest id is `user:` and a 28-character base64 SHA-1, so `x`
// is never one. Copied as read, such an entry would lock everyone out of the copy; compared as read, it would
// differ from the real entry it stands for.
import type { AclEntry } from '../protocol/writes';

export function isHiddenDigest(entry: Pick<AclEntry, 'scheme' | 'id'>): boolean {
  return entry.scheme === 'digest' && entry.id.endsWith(':x');
}

export function hidesDigest(acl: readonly AclEntry[] | undefined): boolean {
  return acl !== undefined && acl.some(isHiddenDigest);
}

/** `digest:user:hash:perms` texts with the hash left out, to compare an ACL the server partly hid. */
export function withoutDigestHashes(aclText: readonly string[]): string[] {
  return aclText.map((entry) => entry.replace(/^digest:([^:]*):[^:]*:/, 'digest:$1:?:')).sort();
}
