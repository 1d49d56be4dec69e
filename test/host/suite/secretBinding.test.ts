// A stored secret goes only where it was given: a connection of the same name in the folder's settings pointing
// elsewhere does not get the user's password, editing a connection's servers asks before its password follows, and
// a digest password bound for another machine over plain TCP is sent only after a warning. The same server is
// written as 127.0.0.1 and as localhost: two different destinations as far as a secret is concerned.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import { eventually } from '../../support/clients/zkClient';
import { services, testZk } from './zooscope';

type Show = (message: unknown, options?: unknown, ...items: unknown[]) => Thenable<unknown>;

/**
 * Answers every modal warning with `answer` (what VS Code's buttons would return) until restored. `buttons`: each
 * question's items in order (the first is the dialog's default, what Enter chooses).
 */
function answerModals(answer: (message: string) => string | undefined): { asked: string[]; buttons: string[][]; restore(): void } {
  const window = vscode.window as unknown as { showWarningMessage: Show };
  const original = window.showWarningMessage;
  const asked: string[] = [];
  const buttons: string[][] = [];
  window.showWarningMessage = (message, options, ...items) => {
    if (!(options as vscode.MessageOptions | undefined)?.modal) return original.call(vscode.window, message, options, ...items);
    asked.push(String(message));
    buttons.push(items.map(String));
    return Promise.resolve(answer(String(message)));
  };
  return { asked, buttons, restore: () => { window.showWarningMessage = original; } };
}

/** Answers the connection form: the servers given, every other question as it stands (first item, value shown). */
function answerForm(connectString: string): () => void {
  const window = vscode.window as unknown as { showInputBox: Show; showQuickPick: Show };
  const { showInputBox, showQuickPick } = window;
  window.showInputBox = (options) => {
    const { prompt, value } = options as vscode.InputBoxOptions;
    return Promise.resolve(prompt?.startsWith('Servers') ? connectString : value ?? '');
  };
  window.showQuickPick = (items) => Promise.resolve((items as unknown[])[0]);
  return () => Object.assign(window, { showInputBox, showQuickPick });
}

const zooscope = () => vscode.workspace.getConfiguration('zooscope');

describe('Secrets go only where they were given', function () {
  let s: TestApi;
  let zk: string;
  let elsewhere: string;
  const sentDigest = (id: string) => s.connections.get(id)?.session.options.digest;
  const hostOf = (connectString: string) => connectString.split('/')[0].toLowerCase();

  before(async () => {
    s = await services();
    zk = testZk().split(',')[0];
    elsewhere = /^127\.0\.0\.1:/.test(zk) ? zk.replace('127.0.0.1', 'localhost') : zk.replace(/^[^:]+/, '127.0.0.1');
    assert.notStrictEqual(elsewhere, zk);
  });

  async function addUserConnection(id: string, password: string): Promise<void> {
    await s.commands.addConnection({ id, name: id, connectString: zk, digestUser: 'ops', password });
    await eventually(() => s.connections.state(id) === 'connected', 30000, `${id} connected`);
    assert.deepStrictEqual(sentDigest(id), [`ops:${password}`], 'where it was given, the password goes without a question');
    s.connections.disconnect(id);
  }

  it('a lookalike connection in the folder\'s settings (same name, other servers) gets no secret of the user\'s', async () => {
    const id = 'host-secret-lookalike';
    await addUserConnection(id, 'only-for-my-server');
    const modals = answerModals(() => undefined);
    try {
      await zooscope().update('connections', [{ name: id, connectString: elsewhere, digestUser: 'ops' }], vscode.ConfigurationTarget.Workspace);
      await eventually(() => s.store.get(id)?.connectString === elsewhere, 10000, 'the folder\'s connection listed');
      await vscode.commands.executeCommand('zooscope.connect', id);
      assert.strictEqual(s.connections.state(id), 'connected', 'the session opens, without the secret');
      assert.deepStrictEqual(sentDigest(id), [], 'the user\'s password was not sent to the folder\'s servers');
      assert.strictEqual(modals.asked.length, 1, modals.asked.join('\n'));
      assert.ok(modals.asked[0].includes(hostOf(zk)) && modals.asked[0].includes(hostOf(elsewhere)), `names both servers: ${modals.asked[0]}`);
      assert.strictEqual(await s.store.secret(id, 'password'), undefined, 'nothing stored for the folder\'s connection');
    } finally {
      modals.restore();
      s.connections.disconnect(id);
      await zooscope().update('connections', undefined, vscode.ConfigurationTarget.Workspace);
      await eventually(() => s.store.get(id)?.connectString === zk, 10000, 'the user\'s list back');
      await s.commands.removeConnection(id, true);
    }
  });

  it('editing a connection\'s servers asks before its password follows: Cancel sends nothing, Send rebinds it', async () => {
    const id = 'host-secret-edited';
    await addUserConnection(id, 'given-for-the-first-server');
    let modals = answerModals(() => undefined);
    let restoreForm = answerForm(elsewhere);
    try {
      await vscode.commands.executeCommand('zooscope.editConnection', id);
      assert.strictEqual(s.store.get(id)?.connectString, elsewhere);
      assert.strictEqual(modals.asked.length, 1, `asked at save time: ${modals.asked.join('\n')}`);
      assert.ok(modals.asked[0].includes(hostOf(zk)) && modals.asked[0].includes(hostOf(elsewhere)), modals.asked[0]);
      await vscode.commands.executeCommand('zooscope.connect', id);
      assert.strictEqual(modals.asked.length, 2, 'declined at save time, asked again before sending');
      assert.deepStrictEqual(sentDigest(id), [], 'declined: not sent');
      s.connections.disconnect(id);
      modals.restore();
      restoreForm();

      modals = answerModals(() => 'Send');
      restoreForm = answerForm(elsewhere);
      await vscode.commands.executeCommand('zooscope.editConnection', id);
      assert.strictEqual(modals.asked.length, 1, modals.asked.join('\n'));
      await vscode.commands.executeCommand('zooscope.connect', id);
      assert.strictEqual(modals.asked.length, 1, 'bound to the new servers: no second question');
      assert.deepStrictEqual(sentDigest(id), ['ops:given-for-the-first-server']);
    } finally {
      modals.restore();
      restoreForm();
      await s.commands.removeConnection(id, true);
    }
  });

  it('a digest password for another machine over plain TCP is sent only after a warning, once per connection', async () => {
    const remote = { id: 'host-secret-remote', name: 'host-secret-remote', connectString: '192.0.2.7:2181', digestUser: 'ops' };
    const local = { ...remote, id: 'host-secret-local', name: 'host-secret-local', connectString: zk };
    await s.store.save(remote, { password: 'readable-on-the-wire' });
    await s.store.save(local, { password: 'stays-here' });
    let answer: string | undefined;
    const modals = answerModals(() => answer);
    try {
      assert.deepStrictEqual((await s.store.sessionOptions(local)).digest, ['ops:stays-here']);
      assert.strictEqual(modals.asked.length, 0, 'no warning for this machine');
      assert.deepStrictEqual((await s.store.sessionOptions(remote)).digest, [], 'dismissed: not sent');
      assert.strictEqual(modals.asked.length, 1);
      assert.match(modals.asked[0], /clear text/);
      assert.ok(modals.asked[0].includes('192.0.2.7:2181'), modals.asked[0]);
      answer = 'Send Anyway';
      assert.deepStrictEqual((await s.store.sessionOptions(remote)).digest, ['ops:readable-on-the-wire']);
      assert.deepStrictEqual((await s.store.sessionOptions(remote)).digest, ['ops:readable-on-the-wire']);
      assert.strictEqual(modals.asked.length, 2, 'warned once, then sent as agreed');
    } finally {
      modals.restore();
      await s.store.remove(remote.id);
      await s.store.remove(local.id);
    }
  });

  it('a folder\'s connection uses files of this machine (TLS CA, certificate, key; SSH key) only once the user agreed', async () => {
    const id = 'host-folder-files';
    const tls = { caFile: '/etc/zooscope-test-ca.pem', certFile: '/etc/zooscope-test-cert.pem', keyFile: '/etc/zooscope-test-key.pem' };
    const ssh = { bastion: 'ops@127.0.0.1:1', auth: 'key' as const, identityFile: '/etc/zooscope-test-ssh-key' };
    let answer: string | undefined;
    const modals = answerModals(() => answer);
    try {
      // The user's own connection: their files, no question.
      await s.store.save({ id, name: id, connectString: zk, tls, ssh });
      const own = await s.store.sessionOptions(s.store.get(id)!);
      assert.deepStrictEqual([own.tls?.caFile, own.tls?.certFile, own.tls?.keyFile, own.ssh?.identityFile], [tls.caFile, tls.certFile, tls.keyFile, ssh.identityFile]);
      assert.strictEqual(modals.asked.length, 0, modals.asked.join('\n'));

      await zooscope().update('connections', [{ name: id, connectString: zk, tls, ssh }], vscode.ConfigurationTarget.Workspace);
      await eventually(() => s.store.origin() === 'workspace' && s.store.get(id)?.ssh?.identityFile === ssh.identityFile, 10000, 'the folder\'s connection listed');
      const declined = await s.store.sessionOptions(s.store.get(id)!);
      assert.deepStrictEqual([declined.tls?.caFile, declined.tls?.certFile, declined.tls?.keyFile, declined.ssh?.identityFile], [undefined, undefined, undefined, undefined],
        'Enter (the default) uses none of the folder\'s files');
      assert.strictEqual(modals.asked.length, 1, modals.asked.join('\n'));
      assert.strictEqual(modals.buttons[0][0], 'Don\'t Use', `the safe answer is the default: ${modals.buttons[0].join(' | ')}`);
      assert.ok(modals.asked[0].includes(hostOf(zk)) && modals.asked[0].includes('127.0.0.1:1'), `names the servers and the bastion: ${modals.asked[0]}`);
      await s.store.sessionOptions(s.store.get(id)!);
      assert.strictEqual(modals.asked.length, 1, 'answered once for this window');

      // Other files: asked again; agreed, they are used.
      const otherKey = '/etc/zooscope-test-other-ssh-key';
      await zooscope().update('connections', [{ name: id, connectString: zk, tls, ssh: { ...ssh, identityFile: otherKey } }], vscode.ConfigurationTarget.Workspace);
      await eventually(() => s.store.get(id)?.ssh?.identityFile === otherKey, 10000, 'the folder\'s key changed');
      answer = 'Use Them';
      const agreed = await s.store.sessionOptions(s.store.get(id)!);
      assert.strictEqual(modals.asked.length, 2, modals.asked.join('\n'));
      assert.deepStrictEqual([agreed.tls?.caFile, agreed.tls?.certFile, agreed.tls?.keyFile, agreed.ssh?.identityFile], [tls.caFile, tls.certFile, tls.keyFile, otherKey]);
    } finally {
      modals.restore();
      await zooscope().update('connections', undefined, vscode.ConfigurationTarget.Workspace);
      await eventually(() => s.store.origin() === 'user', 10000, 'the user\'s list back');
      await s.store.remove(id);
    }
  });

  it('the same servers checked less (the server name check off) are asked about, and Enter sends nothing', async () => {
    const id = 'host-secret-weaker-check';
    const verified = { id, name: id, connectString: zk, digestUser: 'ops', tls: { caFile: '/etc/zooscope-test-ca.pem' } };
    const nameCheckOff = { ...verified, tls: { ...verified.tls, checkServerName: false } };
    await s.store.save(verified, { password: 'for-the-verified-servers' });
    let answer: string | undefined;
    const modals = answerModals(() => answer);
    try {
      assert.deepStrictEqual((await s.store.sessionOptions(verified)).digest, ['ops:for-the-verified-servers']);
      assert.strictEqual(modals.asked.length, 0, 'where it was given: no question');
      // The user's own connection, its check turned off behind their back (a synced or hand-edited settings file).
      assert.deepStrictEqual((await s.store.sessionOptions(nameCheckOff)).digest, [], 'not given silently');
      assert.strictEqual(modals.asked.length, 1, modals.asked.join('\n'));
      assert.match(modals.asked[0], /server name not checked/);
      assert.strictEqual(modals.buttons[0][0], 'Don\'t Send', `the safe answer is the default: ${modals.buttons[0].join(' | ')}`);
      answer = modals.buttons[0][0];
      assert.deepStrictEqual((await s.store.sessionOptions(nameCheckOff)).digest, [], 'the default answer sends nothing');

      // A trusted folder's connection of that name: agreed once for the verified servers, then its check turned off.
      await zooscope().update('connections', [{ name: id, connectString: zk, digestUser: 'ops', tls: verified.tls }], vscode.ConfigurationTarget.Workspace);
      await eventually(() => s.store.get(id)?.tls?.caFile === verified.tls.caFile && s.store.origin() === 'workspace', 10000, 'the folder\'s connection listed');
      answer = 'Send';
      assert.deepStrictEqual((await s.store.sessionOptions(s.store.get(id)!)).digest, ['ops:for-the-verified-servers']);
      const agreed = modals.asked.length;
      await zooscope().update('connections', [{ name: id, connectString: zk, digestUser: 'ops', tls: nameCheckOff.tls }], vscode.ConfigurationTarget.Workspace);
      await eventually(() => s.store.get(id)?.tls?.checkServerName === false, 10000, 'the folder\'s check turned off');
      answer = undefined;
      assert.deepStrictEqual((await s.store.sessionOptions(s.store.get(id)!)).digest, [], 'the lookalike is not given the secret silently');
      assert.strictEqual(modals.asked.length, agreed + 1, modals.asked.join('\n'));
      assert.strictEqual(modals.buttons.at(-1)?.[0], 'Don\'t Send');
    } finally {
      modals.restore();
      // The folder's secret goes with the folder's connection, then the user's with theirs.
      if (s.store.origin() === 'workspace') await s.store.remove(id);
      await zooscope().update('connections', undefined, vscode.ConfigurationTarget.Workspace);
      await eventually(() => s.store.origin() === 'user', 10000, 'the user\'s list back');
      await s.store.remove(id);
    }
  });
});
