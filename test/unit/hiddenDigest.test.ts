// The digest entries ZooKeeper 3.7+ hides from a session without ADMIN permission are told apart from real ones.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hidesDigest, isHiddenDigest, withoutDigestHashes } from '../../src/zk/compare/hiddenDigest';

test('a hidden digest entry is `user:x`; a real one carries its hash; other schemes are never hidden', () => {
  assert.equal(isHiddenDigest({ scheme: 'digest', id: 'alice:x' }), true);
  assert.equal(isHiddenDigest({ scheme: 'digest', id: 'alice:kR2TdtMnQ7Fh6VwF9sRtq8cJ1Ys=' }), false);
  assert.equal(isHiddenDigest({ scheme: 'sasl', id: 'alice:x' }), false);
  assert.equal(hidesDigest(undefined), false);
  assert.equal(hidesDigest([{ scheme: 'world', id: 'anyone', perms: 1 }, { scheme: 'digest', id: 'bob:x', perms: 31 }]), true);
  assert.deepEqual(withoutDigestHashes(['world:anyone:r', 'digest:alice:x:cdrwa', 'digest:bob:abc=:r']), ['digest:alice:?:cdrwa', 'digest:bob:?:r', 'world:anyone:r']);
});
