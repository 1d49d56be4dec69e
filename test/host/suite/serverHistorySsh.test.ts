// Server history from the members over SSH, inside a real VS Code: "The Members over SSH…" chosen for a connection
// whose bastion is a real sshd on loopback, in front of a real server whose data directory holds its logs. Each
// member's files are fetched (behind the read command, a wrapper that records what it ran) into the extension's
// private storage, the bastion's hop made with the connection's own key and trusted host keys (the ssh config names
// neither), and a Node History is read from them; a member that cannot be reached is one warning and the
// other is read; a fetch cancelled kills its ssh and leaves no copy. A connection whose bastion takes a password (a
// root sshd checking a system account's) reads them too: the password goes to that bastion's prompt only.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import type { SavedConnection } from '../../../src/vscode/core/connectionStore';
import { SshBastion, startSshBastion } from '../../support/servers/sshServer';
import { HOST_PASSWORD_USER, resetPasswordUser } from '../../support/servers/sshPasswordUser';
import { startStandalone, ZkCluster } from '../../support/servers/zkServer';
import { connectOtherClient, eventually } from '../../support/clients/zkClient';
import { captureWindow } from './heldLocksHelpers';
import { messageMark, services, shownSince } from './zooscope';

const ID = 'host-history-ssh';
const DIRECT = 'host-history-ssh-direct';
const PASSWORD = 'host-history-ssh-password';
const zooscope = () => vscode.workspace.getConfiguration('zooscope');

type Window = Record<'showQuickPick' | 'showInputBox' | 'showOpenDialog', (...args: unknown[]) => unknown>;

/** Answers the quick picks and input boxes (in order) until restored; records what they showed. */
function answering(picks: string[], inputs: (string | undefined)[]) {
  const win = vscode.window as unknown as Window;
  const original = { showQuickPick: win.showQuickPick, showInputBox: win.showInputBox, showOpenDialog: win.showOpenDialog };
  const seen = { labels: [] as string[][], prompts: [] as string[], validators: [] as ((v: string) => unknown)[], dialogs: 0 };
  win.showQuickPick = (items) => {
    const list = items as vscode.QuickPickItem[];
    seen.labels.push(list.map((i) => i.label));
    const wanted = picks.shift();
    return Promise.resolve(wanted === undefined ? undefined : list.find((i) => i.label.includes(wanted)));
  };
  win.showInputBox = (options) => {
    const { prompt, validateInput } = options as vscode.InputBoxOptions;
    seen.prompts.push(prompt ?? '');
    if (validateInput) seen.validators.push(validateInput as (v: string) => unknown);
    return Promise.resolve(inputs.shift());
  };
  // The code before the SSH choice opened the folder dialog at once: answered "cancel", so such code fails, not hangs.
  win.showOpenDialog = () => { seen.dialogs++; return Promise.resolve(undefined); };
  return { seen, restore: () => Object.assign(win, original) };
}

/** The ssh clients (this machine's side) with a word of their command line containing one of `markers`. */
function sshClientsNaming(...markers: string[]): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (path.basename(argv[0]) === 'ssh' && argv.some((word) => markers.some((marker) => word.includes(marker)))) pids.push(Number(entry));
  }
  return pids;
}

describe('Server history from the members over SSH', function () {
  this.timeout(180000);
  let s: TestApi;
  let zk: ZkCluster;
  let bastion: SshBastion;
  /** The password connection's bastion; `bastion` is then the member it reaches. */
  let passwordBastion: SshBastion;
  let config: string;
  let dataDir: string;
  let wrapper: string;
  let wrapperLog: string;
  let hold: string;
  let acceptedBefore: string | undefined;
  let storage: string;
  const ran = () => (fs.existsSync(wrapperLog) ? fs.readFileSync(wrapperLog, 'utf8').trim().split('\n').filter(Boolean) : []);
  /** The members' copies in the extension's storage (only ID's are ever fetched here). */
  const copies = () => {
    const root = path.join(storage, 'memberLogs');
    return fs.existsSync(root) ? fs.readdirSync(root).map((name) => path.join(root, name)) : [];
  };

  before(async () => {
    s = await services();
    const password = resetPasswordUser(HOST_PASSWORD_USER);
    [zk, bastion, passwordBastion] = await Promise.all([startStandalone({ adminServer: false }), startSshBastion(), startSshBastion({ passwordUser: HOST_PASSWORD_USER })]);
    const writer = await connectOtherClient(zk.connectString);
    try {
      await writer.mkdirp('/over-ssh');
      await writer.create('/over-ssh/app', 'v0');
      for (let i = 1; i <= 3; i++) await writer.setData('/over-ssh/app', `v${i}`);
    } finally {
      writer.close();
    }
    // The member's own data directory, read where the server writes it.
    dataDir = path.join(zk.members[0].dir, 'data');
    // The member is "localhost" (ssh refuses a jump host that is the destination itself); both names reach this sshd.
    const hostKey = fs.readFileSync(bastion.hostPublicKey, 'utf8');
    // The ssh config says only where the member's sshd listens: the key, the agent (none) and the host keys are the
    // connection's own settings, for the bastion's hop as for the member's.
    config = path.join(bastion.dir, 'history_ssh_config');
    fs.writeFileSync(config, ['Host localhost', `  Port ${bastion.port}`].join('\n') + '\n');
    await zooscope().update('ssh.configFile', config, vscode.ConfigurationTarget.Global);
    // Both host keys as the user would have them: trusted in ZooScope (the bastion's) and known (the member's).
    const accepted = s.store.acceptedHostKeysFile!;
    storage = path.dirname(path.dirname(accepted));
    acceptedBefore = fs.existsSync(accepted) ? fs.readFileSync(accepted, 'utf8') : undefined;
    fs.mkdirSync(path.dirname(accepted), { recursive: true });
    fs.appendFileSync(accepted, `[127.0.0.1]:${bastion.port} ${hostKey}[localhost]:${bastion.port} ${hostKey}[127.0.0.1]:${passwordBastion.port} ${fs.readFileSync(passwordBastion.hostPublicKey, 'utf8')}`);
    // A read command standing in for `sudo -n`: it records what it was asked to run, waits while `hold` exists, runs it.
    wrapperLog = path.join(bastion.dir, 'read-command.log');
    hold = path.join(bastion.dir, 'hold');
    wrapper = path.join(bastion.dir, 'read-as-zookeeper');
    fs.writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${wrapperLog}'\nif [ "$1" = cat ]; then while [ -e '${hold}' ]; do sleep 0.1; done; fi\nexec "$@"\n`, { mode: 0o755 });
    const ssh = { bastion: bastion.destination, auth: 'key', identityFile: bastion.clientKey } as const;
    const member = `localhost:${zk.members[0].clientPort}`;
    const saved: SavedConnection[] = [
      { id: ID, name: ID, connectString: `${member},nosuchhost.invalid:2181`, ssh },
      { id: DIRECT, name: DIRECT, connectString: member },
      // The bastion's user comes from the ssh config (the test's own account), the member's is this one.
      { id: PASSWORD, name: PASSWORD, connectString: member, ssh: { bastion: `127.0.0.1:${passwordBastion.port}`, auth: 'password' } },
    ];
    for (const connection of saved) await s.store.save(connection, connection.id === PASSWORD ? { sshSecret: password } : {});
  });

  after(async () => {
    fs.rmSync(hold, { force: true });
    for (const id of [ID, DIRECT, PASSWORD]) await s?.commands.removeConnection(id, true);
    await zooscope().update('ssh.configFile', undefined, vscode.ConfigurationTarget.Global);
    const accepted = s?.store.acceptedHostKeysFile;
    if (accepted && acceptedBefore === undefined) fs.rmSync(accepted, { force: true });
    else if (accepted) fs.writeFileSync(accepted, acceptedBefore!);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await Promise.all([zk?.stop(), bastion?.stop(), passwordBastion?.stop()]);
  });

  it('"The Members over SSH…": the files fetched behind the read command, a Node History read from them, the unreachable member one warning', async () => {
    const mark = messageMark(s);
    const ui = answering(['The Members over SSH…'], [dataDir, wrapper]);
    let entries;
    try {
      entries = await s.commands.showNodeServerHistory(ID, { path: '/over-ssh/app', open: 0 });
    } finally {
      ui.restore();
    }
    assert.strictEqual(ui.seen.dialogs, 0, 'no folder dialog: the user chose SSH');
    assert.ok(ui.seen.labels[0]?.some((l) => l.includes('Folders on This Machine…')) && ui.seen.labels[0].some((l) => l.includes('The Members over SSH…')), JSON.stringify(ui.seen.labels));
    assert.match(ui.seen.prompts[0] ?? '', new RegExp(`through the bastion ${bastion.destination.replace(/\./g, '\\.')}`));
    assert.match(ui.seen.prompts[1] ?? '', /zookeeper user.*sudo -n/);
    const [dirCheck, readCheck] = ui.seen.validators;
    assert.ok(dirCheck('var/lib/zookeeper') && dirCheck('/var/lib/zk\u202e') && !dirCheck('/var/lib/zookeeper'), 'the data directory is checked');
    assert.ok(readCheck('sudo\u2066 -n') && !readCheck('') && !readCheck('sudo -n'), 'the read command is checked');

    assert.deepStrictEqual(entries?.map((e) => e.op), ['create', 'setData', 'setData', 'setData'], JSON.stringify(shownSince(s, mark)));
    const commands = ran();
    assert.ok(commands.some((line) => line === `ls -1 -- ${dataDir}/version-2`), commands.join('\n'));
    assert.ok(commands.some((line) => line.startsWith(`cat -- ${dataDir}/version-2/log.`)), commands.join('\n'));
    assert.ok(commands.every((line) => /^(ls -1 -- |cat -- )/.test(line)), 'only ls and cat ran, behind the read command');

    const shown = shownSince(s, mark);
    const unreachable = shown.filter((m) => m.message.includes('nosuchhost.invalid'));
    assert.strictEqual(unreachable.length, 1, JSON.stringify(shown));
    assert.strictEqual(unreachable[0].severity, 'warning');
    assert.match(unreachable[0].message, /could not be read over SSH/);
    assert.ok(shown.some((m) => /Fetched the server logs of .* from localhost:.* over SSH at /.test(m.message)), JSON.stringify(shown));

    // The copies: in the extension's private storage, a folder only the user can open.
    const fetched = copies();
    assert.strictEqual(fetched.length, 1);
    assert.strictEqual(fs.statSync(path.dirname(fetched[0])).mode & 0o777, 0o700);
    assert.strictEqual(fs.statSync(fetched[0]).mode & 0o777, 0o700);
  });

  it('asked again, the copies of this window are used; chosen again, fetched anew; cancelled, the ssh is killed and no copy is left', async () => {
    const before = ran().length;
    const unasked = answering([], []);
    try {
      assert.deepStrictEqual((await s.commands.showNodeServerHistory(ID, { path: '/over-ssh/app', open: 0 }))?.length, 4);
    } finally {
      unasked.restore();
    }
    assert.deepStrictEqual([unasked.seen.labels.length, unasked.seen.dialogs], [0, 0], 'the remembered choice: nothing asked');
    assert.strictEqual(ran().length, before, 'this window\'s copies, not fetched again unasked');

    fs.writeFileSync(hold, '');
    const ui = answering(['The Members over SSH…'], [dataDir, wrapper]);
    const progress = captureWindow('withProgress');
    const mark = messageMark(s);
    try {
      const choosing = vscode.commands.executeCommand<{ kind: string; sources?: unknown[] } | undefined>('zooscope.chooseServerLogFolders', ID);
      await eventually(() => ran().slice(before).some((line) => line.startsWith('cat -- ')) && progress.titles.some((t) => /Fetching the server logs/.test(t)), 60000, 'the fetch is copying a file');
      // The member's ssh (its command names the file) and the bastion's hop (forwarding to the member's sshd).
      assert.ok(sshClientsNaming(dataDir).length > 0, 'an ssh copies it');
      assert.ok(sshClientsNaming(`[localhost]:${bastion.port}`).length > 0, 'through the bastion\'s hop');
      progress.cancel();
      const choice = await choosing;
      assert.strictEqual(choice?.sources, undefined, 'cancelled: no sources');
    } finally {
      progress.restore();
      ui.restore();
      fs.rmSync(hold, { force: true });
    }
    await eventually(() => sshClientsNaming(dataDir, `[localhost]:${bastion.port}`).length === 0, 30000, 'the ssh (and its hop) ended');
    assert.deepStrictEqual(copies(), [], 'nothing of the cancelled fetch is left');
    assert.ok(!shownSince(s, mark).some((m) => /Fetched the server logs/.test(m.message)), JSON.stringify(shownSince(s, mark)));
  });

  it('without a bastion the prompt says the members are reached directly', async () => {
    const ui = answering(['The Members over SSH…'], [undefined]);
    try {
      assert.strictEqual(await vscode.commands.executeCommand('zooscope.chooseServerLogFolders', DIRECT), undefined);
    } finally {
      ui.restore();
    }
    assert.match(ui.seen.prompts[0] ?? '', /has no SSH bastion: each member is reached directly over SSH/);
  });

  it('a bastion that takes a password: its password from secret storage opens the hop, and a Node History is read from the member', async () => {
    // The member takes this machine's key, which only the ssh config names (a password connection offers none).
    const passwordConfig = path.join(bastion.dir, 'password_ssh_config');
    fs.writeFileSync(passwordConfig, ['Host 127.0.0.1', `  User ${HOST_PASSWORD_USER}`, '  PubkeyAuthentication no', 'Host localhost', `  Port ${bastion.port}`, `  IdentityFile ${bastion.clientKey}`].join('\n') + '\n');
    await zooscope().update('ssh.configFile', passwordConfig, vscode.ConfigurationTarget.Global);
    // The extension's bridge folders (named by this process's pid: the tests run in the extension host).
    const bridges = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(`zooscope-bridge-${process.pid}-`));
    const before = ran().length;
    const mark = messageMark(s);
    const ui = answering(['The Members over SSH…'], [dataDir, wrapper]);
    let entries;
    try {
      entries = await s.commands.showNodeServerHistory(PASSWORD, { path: '/over-ssh/app', open: 0 });
    } finally {
      ui.restore();
      await zooscope().update('ssh.configFile', config, vscode.ConfigurationTarget.Global);
    }
    assert.match(ui.seen.prompts[0] ?? '', /goes to the bastion only/);
    assert.deepStrictEqual(entries?.map((e) => e.op), ['create', 'setData', 'setData', 'setData'], JSON.stringify(shownSince(s, mark)));
    assert.match(passwordBastion.log, new RegExp(`Accepted password for ${HOST_PASSWORD_USER} `));
    assert.ok(ran().slice(before).some((line) => line.startsWith(`cat -- ${dataDir}/version-2/log.`)), ran().join('\n'));
    assert.deepStrictEqual(bridges(), [], 'each bridge\'s socket and folder removed after use');
  });
});
