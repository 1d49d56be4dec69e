// A saved connection through an SSH bastion that takes a password, in VS Code: the password is kept in secret
// storage, reaches sshd through the askpass helper run by VS Code's own program (ELECTRON_RUN_AS_NODE), opens the
// tunnel, and is in neither ssh's argv nor its environment. The bastion checks a system account of the test's own
// (test/support/servers/sshPasswordUser.ts), not the node tiers' one, whose password those tiers reset meanwhile.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import type { SshDialer } from '../../../src/zk/tunnel/dialer';
import { HOST_PASSWORD_USER, resetPasswordUser } from '../../support/servers/sshPasswordUser';
import { SshBastion, startSshBastion } from '../../support/servers/sshServer';
import { services, testZk } from './zooscope';

type Show = (message: unknown, options?: unknown, ...items: unknown[]) => Thenable<unknown>;

const zooscope = () => vscode.workspace.getConfiguration('zooscope');

describe('A connection through an SSH bastion that takes a password', function () {
  this.timeout(120000);
  let s: TestApi;
  let bastion: SshBastion;
  let password: string;
  let acceptedBefore: string | undefined;
  const id = 'host-ssh-password';

  before(async () => {
    s = await services();
    password = resetPasswordUser(HOST_PASSWORD_USER);
    bastion = await startSshBastion({ passwordUser: HOST_PASSWORD_USER });
    // No key of the machine's is offered: the test's empty ssh config, and the password route sets no agent.
    await zooscope().update('ssh.configFile', path.join(bastion.dir, 'ssh_config'), vscode.ConfigurationTarget.Global);
    const accepted = s.store.acceptedHostKeysFile!;
    acceptedBefore = fs.existsSync(accepted) ? fs.readFileSync(accepted, 'utf8') : undefined;
  });

  after(async () => {
    s.connections.disconnect(id);
    await s.commands.removeConnection(id, true);
    await zooscope().update('ssh.configFile', undefined, vscode.ConfigurationTarget.Global);
    const accepted = s.store.acceptedHostKeysFile!;
    if (acceptedBefore === undefined) fs.rmSync(accepted, { force: true });
    else fs.writeFileSync(accepted, acceptedBefore);
    await bastion?.stop();
  });

  it('the password from secret storage opens the tunnel, and is not in ssh\'s argv or environment', async () => {
    const window = vscode.window as unknown as { showWarningMessage: Show };
    const original = window.showWarningMessage;
    // The bastion's host key is new: trust it (its own test is in sshBastion.test).
    window.showWarningMessage = (message, options, ...items) =>
      ((options as vscode.MessageOptions | undefined)?.modal ? Promise.resolve('Trust and Connect') : original.call(vscode.window, message, options, ...items));
    try {
      await s.commands.addConnection({ id, name: id, connectString: testZk().split(',')[0], sshSecret: password, ssh: { bastion: bastion.destination, auth: 'password' } });
      if (s.connections.state(id) !== 'connected') await vscode.commands.executeCommand('zooscope.connect', id);
    } finally {
      window.showWarningMessage = original;
    }
    assert.strictEqual(s.connections.state(id), 'connected');
    assert.match(bastion.log, new RegExp(`Accepted password for ${HOST_PASSWORD_USER} `));
    const tunnel = (s.connections.get(id)!.session.dialer as SshDialer).openTunnels.find((t) => t.connected);
    assert.ok(tunnel?.pid, 'a connected tunnel');
    assert.ok(!fs.readFileSync(`/proc/${tunnel.pid}/cmdline`).includes(password), 'not in ssh\'s argv');
    const environment = fs.readFileSync(`/proc/${tunnel.pid}/environ`);
    assert.ok(environment.includes('SSH_ASKPASS=') && !environment.includes(password), 'not in ssh\'s environment');
    assert.strictEqual(await s.store.secret(id, 'sshSecret'), password, 'kept in secret storage');
  });
});
