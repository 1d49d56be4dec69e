// "Check Members Agree" and "Compare Path Across Members…" inside a real VS Code against a real 3-member ensemble:
// the side-by-side report opened read-only, a SIGSTOPped follower marked unreachable within the deadline set in
// the settings, and a hostile path and data inert in the report.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import { freeze, Frozen } from '../../support/fakes/freeze';
import { HOSTILE_DATA, HOSTILE_NAMES, RAW_HIDDEN, UNESCAPED_ICON, VSCODE_LINK } from '../../support/fixtures/hostileFixture';
import { connectOtherClient, OtherClient } from '../../support/clients/zkClient';
import { startEnsemble, ZkCluster, ZkMember } from '../../support/servers/zkServer';
import { services, znodeAt } from './zooscope';

const ID = 'host-ensemble-check';

/** How a member's address shows in the Markdown report (markdownSafe escapes `.`). */
const shownAddress = (m: ZkMember) => m.address.replace(/\./g, '\\.');

describe('Check Members Agree (a real 3-member ensemble)', function () {
  this.timeout(180000);
  let s: TestApi;
  let zk: ZkCluster;
  let leader: ZkMember;
  let follower: ZkMember;
  let other: OtherClient;
  let frozen: Frozen | undefined;

  before(async () => {
    s = await services();
    zk = await startEnsemble(3);
    const modes = await Promise.all(zk.members.map((m) => m.waitServing()));
    leader = zk.members[modes.indexOf('leader')];
    follower = zk.members.find((m) => m !== leader)!;
    other = await connectOtherClient(leader.address, 20000);
    await s.commands.addConnection({ id: ID, name: 'Host Ensemble Check', connectString: zk.connectString });
  });

  after(async () => {
    frozen?.thaw();
    await vscode.workspace.getConfiguration('zooscope.ensemble').update('memberDeadlineSeconds', undefined, vscode.ConfigurationTarget.Global);
    await s.commands.removeConnection(ID, true);
    other?.close();
    await zk?.stop();
  });

  it('opens the members side by side, read-only, with the thresholds: all agree', async () => {
    const text = await vscode.commands.executeCommand<string>('zooscope.checkMembersAgree', ID);
    assert.ok(text, 'the command returns its report');
    assert.match(text, /All members agree\./);
    for (const m of zk.members) assert.ok(text.includes(`| ${shownAddress(m)}${m === leader ? ' ★' : ''} |`), `${m.address} has a row: ${text}`);
    assert.match(text, /Lagging: more than 100 transactions behind the leader/);
    assert.ok(!text.includes('⚠'), 'nothing flagged');
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.scheme, 'zooscope-report');
    assert.strictEqual(editor?.document.getText(), text);
  });

  it('marks a follower frozen with SIGSTOP unreachable, within the deadline set in the settings', async () => {
    await vscode.workspace.getConfiguration('zooscope.ensemble').update('memberDeadlineSeconds', 2, vscode.ConfigurationTarget.Global);
    frozen = freeze(follower);
    try {
      const text = await vscode.commands.executeCommand<string>('zooscope.checkMembersAgree', ID);
      assert.ok(text);
      assert.match(text, /\*\*⚠ The members do not agree\.\*\*/);
      const row = text.split('\n').find((line) => line.startsWith(`| ${shownAddress(follower)} |`));
      assert.ok(row, text);
      assert.match(row, /\*\*⚠ unreachable\*\*/);
      assert.match(row, /unreachable: no answer within 2000 ms/);
      assert.match(text, /Unreachable: no answer within 2000 ms/);
    } finally {
      frozen.thaw();
    }
    await follower.waitServing(60000);
  });

  it('compares a hostile path across members: every member the same as the leader, nothing in it acts', async () => {
    const path = `/${HOSTILE_NAMES.commandLink}`;
    await other.create(path, HOSTILE_DATA);
    await vscode.commands.executeCommand('zooscope.connect', ID);
    const node = await znodeAt(s, ID, path);
    const text = await vscode.commands.executeCommand<string>('zooscope.comparePathAcrossMembers', node);
    assert.ok(text);
    assert.strictEqual(text.split('same as the leader').length - 1, 2, text);
    assert.match(text, /No sync was issued, on purpose/);
    assert.ok(!VSCODE_LINK.test(text), 'no link');
    assert.ok(!RAW_HIDDEN.test(text.replace(/\n/g, '')), 'no raw hidden character');
    assert.ok(!UNESCAPED_ICON.test(text), 'no icon syntax');
    assert.ok(!/<script|<img|<b>/i.test(text), 'no markup');
  });
});
