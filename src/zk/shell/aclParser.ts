// zkCli's AclParser: `scheme:id:perms[,…]`. Malformed entries and unknown permission letters are reported on
// stderr and skipped, as zkCli does (an ACL left empty is then refused by the server).
import type { AclEntry } from '../protocol/writes';

const PERM_BITS: Record<string, number> = { r: 1, w: 2, c: 4, d: 8, a: 16 };

export function parseAclList(text: string, err: (line: string) => void): AclEntry[] {
  const acl: AclEntry[] = [];
  // Java's split drops trailing empty strings.
  const parts = text.split(',');
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  for (const entry of parts) {
    const first = entry.indexOf(':');
    const last = entry.lastIndexOf(':');
    if (first === -1 || first === last) {
      err(`${entry} does not have the form scheme:id:perm\n`);
      continue;
    }
    let perms = 0;
    for (const letter of entry.slice(last + 1)) {
      if (letter in PERM_BITS) perms |= PERM_BITS[letter];
      else err(`Unknown perm type: ${letter}\n`);
    }
    acl.push({ scheme: entry.slice(0, first), id: entry.slice(first + 1, last), perms });
  }
  return acl;
}
