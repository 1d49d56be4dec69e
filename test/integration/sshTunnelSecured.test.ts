// TLS and SASL through an SSH bastion, and the CLI's --ssh flags: a TLS (clientAuth=need) + SASL server behind a
// real sshd on loopback. TLS runs on top of the tunnel, so it verifies the ZooKeeper member's certificate and name;
// the CLI reaches the bastion by an alias of the ssh config it is given (HostName, Port, User, IdentityFile).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ZkSession } from '../../src/zk/session/session';
import { SshDialer } from '../../src/zk/tunnel/dialer';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { SASL_USERS, SecuredZkServer, temporaryCertificates } from '../support/servers/securedZkServer';
import { alive } from '../support/processes';
import type { CommandRun } from '../support/clients/shellRunners';
import { SshBastion, startSshBastion } from '../support/servers/sshServer';
import type { TestCertificates } from '../support/servers/testCertificates';
import { eventually } from '../support/waiting';

function runCli(cli: string, args: string[], env: Record<string, string>): Promise<CommandRun> {
  const clean = { ...process.env, ...env };
  for (const key of Object.keys(clean)) if (key.startsWith('ZOOSCOPE_') && !(key in env)) delete clean[key];
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [cli, ...args], { env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    proc.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`zooscope ${args.join(' ')} still running after 60 s`)); }, 60000);
    proc.on('close', (code) => { clearTimeout(timer); resolve({ stdout, stderr, code }); });
  });
}

describe('TLS (clientAuth=need) + SASL behind an SSH bastion', () => {
  let certs: { certificates: TestCertificates; remove(): void };
  let server: SecuredZkServer;
  let bastion: SshBastion;
  let cli: string;
  let member: string;
  const closers: (() => void)[] = [];

  before(async () => {
    certs = temporaryCertificates();
    [server, bastion, cli] = await Promise.all([
      SecuredZkServer.start({ certificates: certs.certificates, tls: { keyStore: 'pkcs12', clientAuth: 'need' }, sasl: 'optional' }),
      startSshBastion(),
      sharedCliBundle(),
    ]);
    // The name the certificate is for (localhost), not the bastion's (127.0.0.1): TLS must check this one.
    member = `localhost:${server.tlsAddress.split(':').pop()}`;
  });
  after(async () => {
    for (const close of closers) close();
    await Promise.all([server?.dispose(), bastion?.stop()]);
    certs?.remove();
  });

  test('a session verifies the member\'s certificate and name over the tunnel and authenticates with SASL', async () => {
    const c = certs.certificates;
    const session = new ZkSession({
      connectString: member, sessionTimeoutMs: 20000, requestTimeoutMs: 8000, ssh: bastion.settings(),
      tls: { caFile: c.caCrt, certFile: c.clientCrt, keyFile: c.clientKey },
      sasl: { mechanism: 'DIGEST-MD5', username: 'alice', password: SASL_USERS.alice },
    });
    closers.push(() => session.close());
    await session.open();
    assert.equal(session.security.tls?.server, member);
    assert.equal(session.serverAddress, member, 'the member the TLS connection is on, as status lines show it');
    assert.equal(session.security.tls?.serverNameChecked, true);
    assert.match(session.security.tls?.peerSubject ?? '', /CN=localhost/);
    assert.deepEqual(session.security.sasl, { mechanism: 'DIGEST-MD5', identity: 'alice' });
    assert.ok((session.dialer as SshDialer).openTunnels.some((t) => t.connected && `${t.remoteAddress}:${t.remotePort}` === member), 'through the tunnel');
    const identities = (await session.whoAmI()).map((id) => `${id.scheme}:${id.user}`);
    assert.ok(identities.includes('sasl:alice') && identities.includes('x509:CN=zk-client'), identities.join(', '));
    const tunnels = (session.dialer as SshDialer).openTunnels;
    session.close();
    // Closing the TLS connection ends the ssh under it too.
    await eventually(() => tunnels.every((t) => t.destroyed && t.pid !== undefined && !alive(t.pid)), 15000, 'the tunnels\' ssh processes gone');
  });

  test('the CLI: --ssh with an alias of --ssh-config, TLS and SASL; shell creates and reads through the bastion', async () => {
    const c = certs.certificates;
    const config = path.join(bastion.dir, 'alias_config');
    fs.writeFileSync(config, [
      'Host zoo-bastion', '  HostName 127.0.0.1', `  Port ${bastion.port}`, `  User ${os.userInfo().username}`,
      `  IdentityFile ${bastion.clientKey}`, '  IdentityAgent none', `  UserKnownHostsFile ${bastion.knownHosts}`,
    ].join('\n') + '\n');
    const flags = [member, '--ssh', 'zoo-bastion', '--ssh-config', config, '--tls-ca', c.caCrt, '--tls-cert', c.clientCrt, '--tls-key', c.clientKey, '--sasl-user', 'alice'];
    const env = { ZOOSCOPE_SASL_PASSWORD: SASL_USERS.alice };
    const created = await runCli(cli, ['shell', ...flags, 'create', '/via-bastion', 'hello'], env);
    assert.equal(created.code, 0, created.stderr);
    const read = await runCli(cli, ['shell', ...flags, 'get', '/via-bastion'], env);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.stdout, 'hello\n');
    // Without the alias's known_hosts the bastion's key is unknown: refused, and the line says the bastion did it.
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace(/UserKnownHostsFile .*/, 'UserKnownHostsFile /dev/null'));
    const refused = await runCli(cli, ['shell', ...flags, 'get', '/via-bastion'], env);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /SSH bastion zoo-bastion: the ED25519 host key of .* is not known/);
  });
});
