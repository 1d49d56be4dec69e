// Saved connections through an SSH bastion, in VS Code: a real sshd on loopback (test/support/servers/sshServer.ts) in front
// of the run's real ZooKeeper. The bastion's unknown host key is shown with its fingerprint (declined: no
// connection; accepted: trusted in ZooScope's known_hosts, and the session connects through the tunnel); the
// Ensemble view's four-letter words and the session directory go through the session's tunnels; a tunnel that
// drops is said in the status bar to be the bastion's doing; a key's passphrase goes only to the bastion it was
// given for; a changed host key is refused with the fingerprint it now presents.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import type { SshDialer } from '../../../src/zk/tunnel/dialer';
import { fingerprintOf, KEY_PASSPHRASE, SshBastion, startSshBastion } from '../../support/servers/sshServer';
import { eventually } from '../../support/clients/zkClient';
import { services, testZk } from './zooscope';

type Show = (message: unknown, options?: unknown, ...items: unknown[]) => Thenable<unknown>;

/** Answers every modal warning with `answer` until restored; other messages go on to VS Code. */
function answerModals(answer: (message: string) => string | undefined): { asked: string[]; restore(): void } {
  const window = vscode.window as unknown as { showWarningMessage: Show };
  const original = window.showWarningMessage;
  const asked: string[] = [];
  window.showWarningMessage = (message, options, ...items) => {
    if (!(options as vscode.MessageOptions | undefined)?.modal) return original.call(vscode.window, message, options, ...items);
    asked.push(String(message));
    return Promise.resolve(answer(String(message)));
  };
  return { asked, restore: () => { window.showWarningMessage = original; } };
}

const zooscope = () => vscode.workspace.getConfiguration('zooscope');

describe('Connections through an SSH bastion', function () {
  this.timeout(120000);
  let s: TestApi;
  let zk: string;
  let bastion: SshBastion;
  let accepted: string;
  const id = 'host-ssh-bastion';
  const readAccepted = () => (fs.existsSync(accepted) ? fs.readFileSync(accepted, 'utf8') : '');

  before(async () => {
    s = await services();
    zk = testZk().split(',')[0];
    bastion = await startSshBastion();
    // Only the test's own ssh config and known_hosts: nothing of the machine's ~/.ssh decides.
    await zooscope().update('ssh.configFile', `${bastion.dir}/ssh_config`, vscode.ConfigurationTarget.Global);
    accepted = s.store.acceptedHostKeysFile!;
    fs.rmSync(accepted, { force: true });
  });

  after(async () => {
    s.connections.disconnect(id);
    await s.commands.removeConnection(id, true);
    await zooscope().update('ssh.configFile', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(accepted, { force: true });
    await bastion?.stop();
  });

  it('an unknown host key is shown with its fingerprint: declined, no connection; trusted, connects through the bastion', async () => {
    const fingerprint = fingerprintOf(bastion.hostPublicKey);
    let modals = answerModals(() => undefined);
    try {
      await s.commands.addConnection({
        id, name: id, connectString: zk, sshSecret: KEY_PASSPHRASE,
        ssh: { bastion: bastion.destination, auth: 'key', identityFile: bastion.protectedKey },
      });
      assert.strictEqual(s.connections.state(id), 'disconnected', 'declined: not connected');
      assert.strictEqual(modals.asked.length, 1, modals.asked.join('\n'));
      assert.ok(modals.asked[0].includes(bastion.destination), modals.asked[0]);
      const dialog = s.shownMessages.filter((m) => m.surface === 'modal').pop();
      assert.ok(dialog?.detail?.includes(fingerprint), `the dialog shows ${fingerprint}: ${dialog?.detail}`);
      assert.strictEqual(readAccepted(), '', 'declined: nothing trusted');
      assert.doesNotMatch(bastion.log, /Accepted publickey/, 'declined: no key was offered');
    } finally {
      modals.restore();
    }

    modals = answerModals(() => 'Trust and Connect');
    try {
      await vscode.commands.executeCommand('zooscope.connect', id);
      assert.strictEqual(s.connections.state(id), 'connected');
      assert.ok(readAccepted().includes(fs.readFileSync(bastion.hostPublicKey, 'utf8').split(' ')[1]), 'the key is in ZooScope\'s known_hosts');
      const dialer = s.connections.get(id)?.session.dialer as SshDialer;
      assert.strictEqual(dialer.via, bastion.destination);
      assert.ok(dialer.openTunnels.some((t) => t.connected && `${t.remoteAddress}:${t.remotePort}` === zk), 'the session\'s connection is a tunnel');
      assert.match(bastion.log, /Accepted publickey/, 'the passphrase from secret storage opened the key');
      assert.ok(s.statusBar.text.includes(`via ${bastion.destination}`), s.statusBar.text);
      assert.ok(s.statusBar.tooltip.includes(`Through the SSH bastion ${bastion.destination}`), s.statusBar.tooltip);
      s.connections.disconnect(id);
      await vscode.commands.executeCommand('zooscope.connect', id);
      assert.strictEqual(s.connections.state(id), 'connected');
      assert.strictEqual(modals.asked.length, 1, 'trusted once: not asked again');
    } finally {
      modals.restore();
    }
  });

  it('the Ensemble view\'s four-letter words and the session directory go through the session\'s tunnels', async () => {
    const live = s.connections.get(id);
    assert.ok(live);
    const dialer = live.session.dialer as SshDialer;
    const dialed: string[] = [];
    const dial = dialer.dial.bind(dialer);
    dialer.dial = (host, port) => { dialed.push(`${host}:${port}`); return dial(host, port); };
    try {
      const root = s.ensemble.rootFor(id);
      const label = (node: unknown) => String(s.ensemble.getTreeItem(node as never).label);
      // An ask already under way when `dial` was wrapped (the view's timer, an earlier expansion) is joined, not
      // repeated: ask again until one that started after the wrap has run.
      await eventually(async () => {
        await s.ensemble.refresh();
        const servers = await s.ensemble.getChildren(root);
        assert.ok(servers.length >= 1 && !servers.some((n) => /Cannot ask/.test(label(n))), servers.map(label).join('; '));
        return dialed.includes(zk);
      }, 30000, `the Ensemble view asked through the bastion: ${dialed.join(', ')}`);
      dialed.length = 0;
      await live.directory.clientAddress(live.session.sessionId!);
      assert.ok(dialed.includes(zk), `cons went through the bastion: ${dialed.join(', ')}`);
    } finally {
      dialer.dial = dial;
    }
  });

  it('a tunnel that drops: the status bar says the bastion, not ZooKeeper, is the problem, until it is back', async () => {
    const session = s.connections.get(id)!.session;
    const tunnel = (session.dialer as SshDialer).openTunnels.find((t) => t.connected);
    assert.ok(tunnel?.pid);
    // New connections to the bastion hang while it is stopped; the open tunnel is then killed.
    process.kill(bastion.pid, 'SIGSTOP');
    try {
      process.kill(tunnel.pid, 'SIGKILL');
      await eventually(() => s.connections.state(id) !== 'connected' && /The SSH bastion, not ZooKeeper, is the problem: the SSH tunnel to \S+ through \S+ closed/.test(s.statusBar.tooltip),
        30000, `the tooltip names the bastion: ${s.statusBar.tooltip}`);
      assert.ok(s.statusBar.text.includes(`SSH bastion ${bastion.destination} failing`), s.statusBar.text);
    } finally {
      process.kill(bastion.pid, 'SIGCONT');
    }
    await eventually(() => s.connections.state(id) === 'connected', 60000, 'connected again through a new tunnel');
    assert.ok(!s.statusBar.tooltip.includes('is the problem'), s.statusBar.tooltip);
  });

  it('a key\'s passphrase is not sent to another bastion (a lookalike connection in the folder\'s settings)', async () => {
    s.connections.disconnect(id);
    const elsewhere = bastion.destination.replace('127.0.0.1', 'localhost');
    // The folder's key file may be used (asked first: the folder names a file of this machine); its passphrase may not.
    const modals = answerModals((message) => (/files of this machine/.test(message) ? 'Use Them' : undefined));
    try {
      await zooscope().update('connections', [{ name: id, connectString: zk, ssh: { bastion: elsewhere, auth: 'key', identityFile: bastion.protectedKey } }],
        vscode.ConfigurationTarget.Workspace);
      await eventually(() => s.store.get(id)?.ssh?.bastion === elsewhere, 10000, 'the folder\'s connection listed');
      const options = await s.store.sessionOptions(s.store.get(id)!);
      assert.strictEqual(options.ssh?.destination, elsewhere);
      assert.strictEqual(options.ssh?.identityFile, bastion.protectedKey, 'the key file, as agreed');
      assert.strictEqual(options.ssh?.secret, undefined, 'the passphrase did not go to the other bastion');
      assert.ok(modals.asked.length >= 1, 'asked before sending');
      assert.ok(modals.asked.every((m) => !m.includes(KEY_PASSPHRASE)));
      const question = modals.asked.find((m) => m.includes('SSH passphrase or password'));
      assert.ok(question?.includes(bastion.destination) && question.includes(elsewhere), `names both bastions: ${modals.asked.join('\n')}`);
      assert.strictEqual(await s.store.secret(id, 'sshSecret'), undefined, 'nothing stored for the folder\'s connection');
    } finally {
      modals.restore();
      await zooscope().update('connections', undefined, vscode.ConfigurationTarget.Workspace);
      await eventually(() => s.store.get(id)?.ssh?.bastion === bastion.destination, 10000, 'the user\'s list back');
    }
  });

  // Last: it replaces the bastion's host key.
  it('a changed host key is refused with the fingerprint it now presents, never accepted', async () => {
    const trusted = readAccepted();
    await bastion.changeHostKey();
    // A connect under way (the explorer reconnects an expanded root) began before the change: let it end first.
    await eventually(() => s.connections.state(id) !== 'connecting', 60000, 'no connect under way');
    s.connections.disconnect(id);
    const modals = answerModals(() => 'Trust and Connect');
    try {
      await vscode.commands.executeCommand('zooscope.connect', id);
      assert.strictEqual(s.connections.state(id), 'disconnected');
      assert.deepStrictEqual(modals.asked, [], 'nothing offered to accept');
      const refusal = s.shownFailures[s.shownFailures.length - 1];
      assert.ok(refusal?.message.includes(fingerprintOf(bastion.hostPublicKey)) && /refused/.test(refusal.message), refusal?.message);
      assert.strictEqual(readAccepted(), trusted, 'the new key was not trusted');
    } finally {
      modals.restore();
    }
  });
});
