// The sasl and x509 ACL schemes in the ZK layer's ACL text helpers.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { formatAclEntry, isAclEntryProblem, parseAclEntry } from '../../src/zk/write/aclFormat';

test('sasl and x509 entries survive the text form (subjects with commas and colons included)', () => {
  for (const text of ['sasl:alice:cdrwa', 'x509:CN=zk-client,O=Example:r', 'x509:CN=a\\:b,OU=x:rw']) {
    const entry = parseAclEntry(text);
    assert.ok(!isAclEntryProblem(entry), text);
    assert.equal(formatAclEntry(entry), text);
  }
  const x509 = parseAclEntry('x509:CN=zk-client,O=Example:cdrwa');
  assert.ok(!isAclEntryProblem(x509));
  assert.deepEqual(x509, { scheme: 'x509', id: 'CN=zk-client,O=Example', perms: 31 });
});
