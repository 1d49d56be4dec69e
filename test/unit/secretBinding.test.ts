// A stored secret carries what it was given for (servers, chroot, user, TLS files): the same connection written
// differently still matches, anything that sends it elsewhere does not; older plain secrets read as unbound.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { bindingFor, decodeSecret, describeHosts, encodeSecret, isLoopback, sameBinding, sendsDigestInClear, sshRoute } from '../../src/vscode/core/secretBinding';
import type { SavedConnection } from '../../src/vscode/core/savedConnection';

const prod: SavedConnection = { id: 'prod', name: 'prod', connectString: 'zk1.example.com:2181,ZK2.example.com:2181/app', digestUser: 'ops' };

test('the order, case and duplicates of servers do not change a binding', () => {
  const same = { ...prod, connectString: 'zk2.example.com:2181,zk1.example.com,zk1.example.com:2181/app' };
  assert.ok(sameBinding(bindingFor(prod, 'password'), bindingFor(same, 'password')));
  assert.equal(describeHosts(bindingFor(prod, 'password')), 'zk1.example.com:2181, zk2.example.com:2181/app');
});

test('another server, port, chroot, user or TLS file is another binding', () => {
  const given = bindingFor(prod, 'password');
  for (const changed of [
    { connectString: 'evil.example.net:2181/app' },
    { connectString: 'zk1.example.com:2182,zk2.example.com:2181/app' },
    { connectString: 'zk1.example.com:2181,zk2.example.com:2181' },
    { chroot: '/other' },
    { digestUser: 'admin' },
    { tls: { caFile: '/etc/ca.pem' } },
  ] as Partial<SavedConnection>[]) {
    assert.equal(sameBinding(given, bindingFor({ ...prod, ...changed }, 'password')), false, JSON.stringify(changed));
  }
  const tls = { ...prod, tls: { certFile: '/me/cert.pem', keyFile: '/me/key.pem' } };
  assert.equal(sameBinding(bindingFor(tls, 'tlsPassphrase'), bindingFor({ ...tls, tls: { certFile: '/me/cert.pem', keyFile: '/them/key.pem' } }, 'tlsPassphrase')), false);
});

const PIN_A = 'AB:'.repeat(31) + 'AB';
const PIN_B = 'CD:'.repeat(31) + 'CD';

test('how the servers are verified is part of the binding: the name check off or another pin is somewhere else', () => {
  const verified: SavedConnection = { ...prod, tls: { caFile: '/etc/zk-ca.pem', certFile: '/me/cert.pem', keyFile: '/me/key.pem', pinnedSha256: [PIN_A] } };
  for (const kind of ['password', 'saslPassword', 'tlsPassphrase'] as const) {
    const given = bindingFor({ ...verified, sasl: { mechanism: 'DIGEST-MD5', user: 'alice' } }, kind);
    for (const tls of [
      { ...verified.tls, checkServerName: false },
      { ...verified.tls, pinnedSha256: [PIN_B] },
      { ...verified.tls, pinnedSha256: [PIN_A, PIN_B] },
      { ...verified.tls, pinnedSha256: undefined },
      { ...verified.tls, caFile: undefined },
    ]) {
      assert.equal(sameBinding(given, bindingFor({ ...verified, sasl: { mechanism: 'DIGEST-MD5', user: 'alice' }, tls }, kind)), false, `${kind}: ${JSON.stringify(tls)}`);
    }
  }
  // The same pins written otherwise (lower case, no colons, another order, one string) are the same check.
  const given = bindingFor({ ...verified, tls: { ...verified.tls, pinnedSha256: [PIN_A, PIN_B] } }, 'password');
  const rewritten = { ...verified, tls: { ...verified.tls, pinnedSha256: `${PIN_B.replace(/:/g, '').toLowerCase()}, ${PIN_A}` as unknown as string[] } };
  assert.ok(sameBinding(given, bindingFor(rewritten, 'password')));
  // checkServerName: true is the default: a binding stored before the check was recorded still matches.
  const checked: SavedConnection = { ...prod, tls: { caFile: '/etc/zk-ca.pem' } };
  const stored = { hosts: ['zk1.example.com:2181', 'zk2.example.com:2181'], chroot: '/app', user: 'ops', tls: { caFile: '/etc/zk-ca.pem' } };
  assert.ok(sameBinding(stored, bindingFor({ ...checked, tls: { ...checked.tls, checkServerName: true } }, 'password')));
  assert.equal(sameBinding(stored, bindingFor({ ...checked, tls: { ...checked.tls, checkServerName: false } }, 'password')), false);
});

test('the SASL password is bound to the SASL user, the digest password to the digest user', () => {
  const sasl: SavedConnection = { ...prod, sasl: { mechanism: 'DIGEST-MD5', user: 'alice' } };
  assert.equal(bindingFor(sasl, 'saslPassword').user, 'alice');
  assert.equal(bindingFor(sasl, 'password').user, 'ops');
  assert.equal(sameBinding(bindingFor(sasl, 'saslPassword'), bindingFor({ ...sasl, sasl: { mechanism: 'DIGEST-MD5', user: 'bob' } }, 'saslPassword')), false);
});

test('a bound secret reads back with its binding; a plain (older) one without; a forged record is a plain value', () => {
  const binding = bindingFor(prod, 'password');
  assert.deepEqual(decodeSecret(encodeSecret('s3cret', binding)), { value: 's3cret', binding });
  assert.deepEqual(decodeSecret('s3cret'), { value: 's3cret' });
  assert.deepEqual(decodeSecret('{"value":"x"}'), { value: '{"value":"x"}' });
  assert.deepEqual(decodeSecret('{"zooscopeBoundSecret":1,"value":"x","binding":{"hosts":"a"}}').binding, undefined);
});

test('a digest password is said to go in clear only over plain TCP to a host that is not this machine', () => {
  assert.ok(['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', 'LOCALHOST'].every(isLoopback));
  assert.ok(!['10.0.0.1', 'zk.example.com', '128.0.0.1', '::2'].some(isLoopback));
  assert.ok(sendsDigestInClear(prod));
  assert.ok(sendsDigestInClear({ ...prod, connectString: '127.0.0.1:2181,zk.example.com:2181' }));
  assert.equal(sendsDigestInClear({ ...prod, connectString: 'localhost:2181,[::1]:2182' }), false);
  assert.equal(sendsDigestInClear({ ...prod, tls: {} }), false);
  assert.equal(sendsDigestInClear({ ...prod, digestUser: undefined }), false);
});

test('behind another bastion the same address is another machine: the route is part of every binding', () => {
  const behind: SavedConnection = { ...prod, connectString: '10.0.0.5:2181', ssh: { bastion: 'ops@bastion.example.com', jumps: ['j1'] } };
  assert.equal(sshRoute(behind), 'j1 → ops@bastion.example.com');
  assert.equal(sshRoute(prod), undefined);
  const given = bindingFor(behind, 'password');
  assert.equal(describeHosts(given), 'j1 → ops@bastion.example.com → 10.0.0.5:2181');
  assert.ok(sameBinding(given, bindingFor({ ...behind, ssh: { ...behind.ssh!, bastion: 'OPS@Bastion.example.com' } }, 'password')));
  for (const ssh of [undefined, { bastion: 'ops@evil.example.net', jumps: ['j1'] }, { bastion: 'ops@bastion.example.com' }]) {
    assert.equal(sameBinding(given, bindingFor({ ...behind, ssh }, 'password')), false, JSON.stringify(ssh));
  }
  // Direct connections keep the bindings older versions stored (no route on either side).
  assert.ok(sameBinding(bindingFor(prod, 'password'), { hosts: ['zk1.example.com:2181', 'zk2.example.com:2181'], chroot: '/app', user: 'ops' }));
});

test('the SSH secret is bound to the bastion, its jump hosts and the key file, not to the ZooKeeper servers', () => {
  const behind: SavedConnection = { ...prod, ssh: { bastion: 'ops@bastion', auth: 'key', identityFile: '/me/.ssh/id_ed25519' } };
  const given = bindingFor(behind, 'sshSecret');
  assert.deepEqual(given, { hosts: ['ops@bastion'], chroot: '', identityFile: '/me/.ssh/id_ed25519' });
  assert.ok(sameBinding(given, bindingFor({ ...behind, connectString: 'other:2181' }, 'sshSecret')));
  for (const ssh of [{ ...behind.ssh!, bastion: 'ops@elsewhere' }, { ...behind.ssh!, jumps: ['j1'] }, { ...behind.ssh!, identityFile: '/them/key' }]) {
    assert.equal(sameBinding(given, bindingFor({ ...behind, ssh }, 'sshSecret')), false, JSON.stringify(ssh));
  }
});
