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
import { fingerprintOf, SshBastion, startSshBastion } from '../support/servers/sshServer';

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
    assert.match(unknown.kind === 'unknown' ? unknown.line : '', /the ED25519 host key of \S+ is not known/);
    const presented = await fetchHostKey(settings);
    await trustHostKey(settings, settings.acceptedHostKeysFile!, presented.fingerprint);
    assert.deepEqual(await checkBastionHostKey(settings), { kind: 'known' });
    assert.doesNotMatch(bastion.log, /Accepted publickey|Failed publickey/, 'no key was offered by the checks');
  });

  test('a jump host\'s unknown key is told as the jump\'s, never offered as the bastion\'s', async () => {
    const jump = await startSshBastion();
    try {
      // Everything knows the bastion's key and nothing the jump's (the jump's own ssh reads the config's file).
      const bastionOnly = path.join(bastion.dir, 'bastion_only_known_hosts');
      fs.writeFileSync(bastionOnly, `[127.0.0.1]:${bastion.port} ${fs.readFileSync(bastion.hostPublicKey, 'utf8')}`);
      const config = path.join(bastion.dir, 'jump_config');
      fs.writeFileSync(config, `Host *\n  UserKnownHostsFile ${bastionOnly}\n  StrictHostKeyChecking yes\n  IdentityAgent none\n  IdentityFile ${jump.clientKey}\n`);
      const through = bastion.settings({ jumps: [`127.0.0.1:${jump.port}`], configFile: config, knownHostsFiles: [bastionOnly] });
      const verdict = await checkBastionHostKey(through);
      assert.deepEqual(verdict.kind === 'unknownJump' ? verdict.jump : verdict, `[127.0.0.1]:${jump.port}`);
      // Straight to the bastion with the same files: its key is known.
      assert.deepEqual(await checkBastionHostKey(bastion.settings({ configFile: config, knownHostsFiles: [bastionOnly] })), { kind: 'known' });
    } finally {
      await jump.stop();
    }
  });

  // Last: it replaces the bastion's host key.
  test('a changed key is refused with the fingerprint it now presents', async () => {
    await bastion.changeHostKey();
    const verdict = await checkBastionHostKey(settings);
    assert.equal(verdict.kind, 'changed');
    assert.equal(verdict.kind === 'changed' ? verdict.fingerprint : '', fingerprintOf(bastion.hostPublicKey));
  });
});
