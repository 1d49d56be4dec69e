// In Restricted Mode a folder's settings cannot add or change connections: the manifest declares the setting
// restricted (VS Code then ignores the folder's value), ZooScope reads only the user's list, and every setting has
// its scope said. The ssh program and config file are `machine`: VS Code ignores a folder's value of those, trusted or
// not. The connections stay `window`: `machine` scopes would hide the connections in a user's own settings in every
// remote window (VS Code applies those only from the remote machine's settings).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectionSource, userOnlyText } from '../../src/vscode/core/connectionSource';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  capabilities?: { untrustedWorkspaces?: { supported?: unknown; restrictedConfigurations?: string[] } };
  contributes: { configuration: { properties: Record<string, { scope?: string }> }; viewsWelcome: { view: string; contents: string; when?: string }[] };
};
const mine = { name: 'prod', connectString: 'zk.internal:2181' };
const lookalike = { name: 'prod', connectString: 'evil.example.net:2181' };

test('untrusted workspaces are supported in part, with zooscope.connections and the ssh program settings restricted', () => {
  const untrusted = manifest.capabilities?.untrustedWorkspaces;
  assert.equal(untrusted?.supported, 'limited');
  assert.deepEqual(untrusted?.restrictedConfigurations, ['zooscope.connections', 'zooscope.ssh.path', 'zooscope.ssh.configFile']);
});

test('the ssh program and config file come from the user\'s settings only, never a folder\'s (trusted or not)', () => {
  assert.equal(userOnlyText({ globalValue: '/usr/bin/ssh', workspaceValue: '/tmp/evil', workspaceFolderValue: '/tmp/evil' }), '/usr/bin/ssh');
  assert.equal(userOnlyText({ workspaceValue: '/tmp/evil-ssh_config' }), undefined);
  assert.equal(userOnlyText({ globalValue: '  ' }), undefined);
  assert.equal(userOnlyText({ globalValue: 42 }), undefined);
  assert.equal(userOnlyText(undefined), undefined);
});

test('every setting has its scope said: the ssh program and config file machine (no folder sets them, trusted or not), the rest window', () => {
  const properties = manifest.contributes.configuration.properties;
  const scopes = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, v.scope]));
  assert.ok(Object.keys(scopes).length >= 9);
  // What runs on this machine (a program, an ssh_config that can name a ProxyCommand) is the machine's user's choice.
  assert.deepEqual(Object.entries(scopes).filter(([, scope]) => scope === 'machine').map(([k]) => k), ['zooscope.ssh.path', 'zooscope.ssh.configFile']);
  // The connections (hosts, bastions, key files) stay window: a trusted folder's connections are a feature, kept from
  // Restricted Mode (restrictedConfigurations) and given no secret of the user's (the secret binding).
  assert.deepEqual(Object.entries(scopes).filter(([, scope]) => scope !== 'window' && scope !== 'machine'), []);
});

test('the explorer\'s welcome says in Restricted Mode that the folder\'s connections are ignored', () => {
  const restricted = manifest.contributes.viewsWelcome.filter((w) => w.view === 'zooscope.explorer' && w.when === '!isWorkspaceTrusted');
  assert.equal(restricted.length, 1);
  const en = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  assert.match(en[restricted[0].contents.replace(/%/g, '')] ?? '', /Restricted Mode: connections in this folder's settings are ignored/);
});

test('an untrusted workspace cannot add connections: only the user\'s list is read, and it is the user\'s', () => {
  const inspected = { globalValue: [mine], workspaceValue: [lookalike, { name: 'extra', connectString: 'evil.example.net:2181' }] };
  assert.deepEqual(connectionSource(inspected, false), { entries: [mine], origin: 'user' });
  assert.deepEqual(connectionSource({ workspaceFolderValue: [lookalike] }, false), { entries: [], origin: 'user' });
});

test('a trusted workspace\'s list replaces the user\'s and is marked as the workspace\'s', () => {
  assert.deepEqual(connectionSource({ globalValue: [mine], workspaceValue: [lookalike] }, true), { entries: [lookalike], origin: 'workspace' });
  assert.deepEqual(connectionSource({ globalValue: [mine] }, true), { entries: [mine], origin: 'user' });
  assert.deepEqual(connectionSource({ globalValue: 'not a list' }, true), { entries: [], origin: 'user' });
});
