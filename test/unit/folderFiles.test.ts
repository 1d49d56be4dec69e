// The files of this machine a saved connection would read and present (filesNamed): what a folder's connection may
// use only once the user agreed (ConnectionStore.mayUseFiles; in-host test in secretBinding.test).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { filesNamed } from '../../src/vscode/core/savedConnection';

test('filesNamed lists the TLS CA, certificate, key and PKCS#12 files and the SSH key, in that order', () => {
  const files = filesNamed({
    tls: { caFile: '/ca.pem', certFile: '/cert.pem', keyFile: '/key.pem', pfxFile: '/id.p12', checkServerName: false, pinnedSha256: ['AB'] },
    ssh: { bastion: 'b', auth: 'key', identityFile: '/home/me/.ssh/id_ed25519' },
  });
  assert.deepEqual(files, [
    { role: 'caFile', path: '/ca.pem' }, { role: 'certFile', path: '/cert.pem' }, { role: 'keyFile', path: '/key.pem' },
    { role: 'pfxFile', path: '/id.p12' }, { role: 'identityFile', path: '/home/me/.ssh/id_ed25519' },
  ]);
});

test('filesNamed: none without TLS files or SSH key; an SSH key counts only when the key is the method', () => {
  assert.deepEqual(filesNamed({}), []);
  assert.deepEqual(filesNamed({ tls: { checkServerName: true }, ssh: { bastion: 'b' } }), []);
  assert.deepEqual(filesNamed({ ssh: { bastion: 'b', auth: 'agent', identityFile: '/k' } }), []);
  assert.deepEqual(filesNamed({ ssh: { bastion: 'b', auth: 'password', identityFile: '/k' } }), []);
  assert.deepEqual(filesNamed({ tls: { caFile: '' } }), [], 'an empty path names no file');
});
