// Words for the ids of the `sasl` and `x509` ACL schemes next to the older ones, for views and editors.
// `sasl:<user>` names a SASL identity (a DIGEST-MD5 user or a Kerberos principal); `x509:<subject>` names a
// client certificate by its subject DN as the server prints it (RFC 2253, e.g. `CN=zk-client,O=Example`, commas
// included: such an id cannot be typed into zkCli's comma-separated ACL syntax, only into one entry at a time).
import type { AclEntry } from '../protocol/writes';

export type AclIdKind = 'anyone' | 'digestUser' | 'saslUser' | 'certificate' | 'address' | 'authenticatedUsers' | 'other';

export interface AclIdDescription {
  kind: AclIdKind;
  /** Plain words for the id: `SASL user alice`, `client certificate CN=zk-client`, … */
  text: string;
}

export function describeAclId(entry: Pick<AclEntry, 'scheme' | 'id'>): AclIdDescription {
  switch (entry.scheme) {
    case 'world': return entry.id === 'anyone' ? { kind: 'anyone', text: 'anyone' } : { kind: 'other', text: `world:${entry.id}` };
    case 'digest': return { kind: 'digestUser', text: `digest user ${entry.id.split(':')[0]}` };
    case 'sasl': return { kind: 'saslUser', text: `SASL user ${entry.id}` };
    case 'x509': return { kind: 'certificate', text: `client certificate ${entry.id}` };
    case 'ip': return { kind: 'address', text: `clients from ${entry.id}` };
    case 'auth': return { kind: 'authenticatedUsers', text: 'every user this session authenticated as' };
    default: return { kind: 'other', text: `${entry.scheme}:${entry.id}` };
  }
}

