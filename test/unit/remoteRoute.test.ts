// How a member is reached to read its logs: through the bastion, the hop to the bastion is an ssh built as a tunnel's
// (its key file, agent choice and accepted host keys, which `-J` would not pass on), given as the member's
// ProxyCommand; no secret on either hop; the command quoted for the shell ssh runs it with, and its `%` kept literal.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { memberSshSettings, proxyCommandFor } from '../../src/zk/tunnel/remoteCommand';

const bastion = {
  destination: 'ops@bastion.example:2222', jumps: ['jump.example'], identityFile: '/keys/it\'s 100%', agentSocket: 'none',
  acceptedHostKeysFile: '/storage/known_hosts', secret: 'never sent on', secretKind: 'passphrase' as const, sshPath: '/usr/bin/ssh',
};

test('the member as the bastion\'s user, with the key and host keys, no jump and no secret; the bastion as the hop', () => {
  const route = memberSshSettings(bastion, 'zk1.internal');
  assert.equal(route.member.destination, 'ops@zk1.internal');
  assert.equal(route.member.jumps, undefined);
  assert.equal(route.member.secret, undefined);
  assert.equal(route.member.identityFile, bastion.identityFile);
  assert.equal(route.via?.destination, bastion.destination);
  assert.deepEqual(route.via?.jumps, ['jump.example']);
  assert.equal(route.via?.secret, undefined);
  assert.equal(memberSshSettings(undefined, 'zk1').via, undefined);
  assert.throws(() => memberSshSettings(bastion, 'zk1;id'), /not a host name/);
});

test('the ProxyCommand: the bastion\'s ssh with its own key and host keys, every word quoted, only %h and %p expanded', () => {
  const command = proxyCommandFor(memberSshSettings(bastion, 'zk1').via!);
  assert.ok(command.startsWith(`'/usr/bin/ssh' `), command);
  assert.ok(command.includes(`'-i' '/keys/it'\\''s 100%%'`), command);
  assert.ok(command.includes(`'-o' 'IdentityAgent=none'`), command);
  assert.ok(command.includes(`'-o' 'BatchMode=yes'`) && command.includes(`'-o' 'StrictHostKeyChecking=yes'`), command);
  assert.match(command, /'-o' 'UserKnownHostsFile=[^']*\/storage\/known_hosts'/);
  assert.ok(command.includes(`'-J' 'jump.example'`), command);
  assert.ok(command.endsWith(`'-W' '[%h]:%p' '--' 'bastion.example'`), command);
  assert.equal(command.replace(/%%/g, '').replace(/%[hp]/g, '').includes('%'), false, 'no other token');
});
