// The check before a session's first tunnel, against a real sshd: an unknown host key, the same key once the user
// accepted it (in ZooScope's known_hosts), and a changed key refused with the fingerprint it now presents. Nothing
// authenticates: the check sends no key, agent or password.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkBastionHostKey } from '../../src/zk/tunnel/hostKeyCheck';
import { fetchHostKey, trustHostKey } from '../../src/zk/tunnel/hostKeys';
import type { SshTunnelSettings } from '../../src/zk/tunnel/sshSettings';
import { fingerprintOf, SshBastion, startSshBastion } from '../support/sshServer';

describe('checking a bastion\'s host key before connecting', () => {
  let bastion: SshBastion;
  let settings: SshTunnelSettings;

  before(async () => {
    bastion = await startSshBastion();
    const empty = path.join(bastion.dir, 'empty_known_hosts');
    fs.writeFileSync(empty, '');
    settings = bastion.settings({ knownHostsFiles: [empty], acceptedHostKeysFile: path.join(bastion.dir, 'accepted_known_hosts') });
  });
  after(() => bastion?.stop());

  test('unknown, then known once accepted, and the check offered no key', async () => {
    const unknown = await checkBastionHostKey(settings);
    assert.equal(unknown.kind, 'unknown');
    assert.match(unknown.kind === 'unknown' ? unknown.line : '', /host key \(\S+\) is not known/);
    const presented = await fetchHostKey(settings);
    await trustHostKey(settings, settings.acceptedHostKeysFile!, presented.fingerprint);
    assert.deepEqual(await checkBastionHostKey(settings), { kind: 'known' });
    assert.doesNotMatch(bastion.log, /Accepted publickey|Failed publickey/, 'no key was offered by the checks');
  });

  // Last: it replaces the bastion's host key.
  test('a changed key is refused with the fingerprint it now presents', async () => {
    await bastion.changeHostKey();
    const verdict = await checkBastionHostKey(settings);
    assert.equal(verdict.kind, 'changed');
    assert.equal(verdict.kind === 'changed' ? verdict.fingerprint : '', fingerprintOf(bastion.hostPublicKey));
  });
});
