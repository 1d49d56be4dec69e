// The SSH section of the connection form: what it accepts as a bastion and jump hosts, what it refuses (words ssh
// would read as options, hidden or direction-changing characters that would make the name shown differ from the
// one used), and the status bar's tooltip for a connection through a bastion, hostile names made inert.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { bastionProblem, jumpsProblem, splitJumps } from '../../src/vscode/connections/sshFormChecks';
import { connectionTooltip, Translate } from '../../src/vscode/core/connectionTooltip';
import { HOSTILE_NAMES, RAW_HIDDEN } from '../support/fixtures/hostileFixture';

const english: Translate = (message, ...args) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));

test('a bastion is [user@]host[:port] or an ssh config alias', () => {
  for (const ok of ['bastion', 'ops@bastion.example.com', 'ops@10.0.0.1:2222', '[2001:db8::1]:22', 'prod-jump', '  ops@bastion  ']) {
    assert.equal(bastionProblem(english, ok), undefined, ok);
  }
});

test('a bastion ssh would read as an option, or with spaces, hidden characters or a bad port, is refused', () => {
  for (const bad of ['', '   ', '-oProxyCommand=touch /tmp/x', 'ops@-oProxyCommand=x', 'two words', 'host:0', 'host:65536', 'host:22:22',
    `ops@${HOSTILE_NAMES.rtlOverride}`, HOSTILE_NAMES.zeroWidth, 'a,b', 'bastion\n-J x']) {
    assert.ok(bastionProblem(english, bad), JSON.stringify(bad));
  }
  assert.equal(bastionProblem(english, ''), 'The bastion cannot be empty.');
});

test('jump hosts: comma-separated, in order, empty for none; each checked like a bastion', () => {
  assert.deepEqual(splitJumps(' a@j1 , j2:2222 ,, '), ['a@j1', 'j2:2222']);
  assert.deepEqual(splitJumps(''), []);
  assert.equal(jumpsProblem(english, ''), undefined);
  assert.equal(jumpsProblem(english, 'j1, ops@j2:22'), undefined);
  assert.equal(jumpsProblem(english, 'j1, -oProxyCommand=x'), 'Not a jump host: -oProxyCommand=x (give [user@]host[:port] of letters, digits, ".", "-", "_", comma-separated).');
});

test('the tooltip says the connection goes through the bastion, and when the bastion is the problem', () => {
  assert.deepEqual(connectionTooltip(english, 'prod', '10.0.0.5:2181', undefined, '0x1', { bastion: 'j1 → ops@bastion' }).split('\n'), [
    'ZooKeeper connection "prod" (10.0.0.5:2181). Click to show the log.',
    'Through the SSH bastion j1 → ops@bastion',
    'Session 0x1',
  ]);
  const down = connectionTooltip(english, 'prod', '10.0.0.5:2181', undefined, undefined,
    { bastion: 'ops@bastion', problem: 'the SSH tunnel to 10.0.0.5:2181 through ops@bastion closed: the bastion ended the connection' });
  assert.match(down, /^The SSH bastion, not ZooKeeper, is the problem: the SSH tunnel to 10\.0\.0\.5:2181 through ops@bastion closed/m);
  assert.equal(connectionTooltip(english, 'plain', 'h:1', undefined), 'ZooKeeper connection "plain" (h:1). Click to show the log.');
});

test('hostile bastion names in the tooltip are shown as text, hidden characters written out', () => {
  const hostile = `${HOSTILE_NAMES.commandLink}@${HOSTILE_NAMES.icons.replace(/ /g, '')}`;
  const tooltip = connectionTooltip(english, 'x', 'h:1', undefined, undefined, { bastion: hostile, problem: `ssh said ${HOSTILE_NAMES.rtlOverride}` });
  assert.ok(tooltip.includes(`Through the SSH bastion ${hostile}`), tooltip);
  assert.ok(tooltip.includes('invoice-[U+202E]gnp.exe'), tooltip);
  for (const line of tooltip.split('\n')) assert.doesNotMatch(line, RAW_HIDDEN);
});
