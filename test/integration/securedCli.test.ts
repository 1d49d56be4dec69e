// `zooscope shell`, `locks` and `lock` as a user runs them (bundled like dist/cli.js) against a TLS + SASL server:
// secrets only from the environment, refused on argv, failures as one line; and Apache's own zkCli over TLS + SASL
// reads what our client wrote.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { javaClientSecurityFlags, SASL_USERS, SecuredZkServer, temporaryCertificates } from '../support/servers/securedZkServer';
import { CommandRun, ZKCLI } from '../support/clients/shellRunners';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { CLIENT_PFX_PASSPHRASE, TestCertificates } from '../support/servers/testCertificates';


/** A clean environment: no credentials unless the test gives them. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const key of Object.keys(env)) if (key.startsWith('ZOOSCOPE_') && !(key in extra)) delete env[key];
  return env;
}

function run(cli: string, args: string[], env: Record<string, string> = {}): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [cli, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    proc.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`zooscope ${args.join(' ')} still running after 60 s`)); }, 60000);
    proc.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
  });
}

describe('the CLI against a TLS (clientAuth=need) + SASL server', () => {
  let certs: { certificates: TestCertificates; remove(): void };
  let c: TestCertificates;
  let server: SecuredZkServer;
  let outDir: string;
  let cli: string;
  let pem: string[];
  const alice = { ZOOSCOPE_SASL_PASSWORD: SASL_USERS.alice };

  before(async () => {
    certs = temporaryCertificates();
    c = certs.certificates;
    pem = ['--tls-ca', c.caCrt, '--tls-cert', c.clientCrt, '--tls-key', c.clientKey];
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-secured-cli-'));
    [server, cli] = await Promise.all([
      SecuredZkServer.start({ certificates: c, tls: { keyStore: 'pkcs12', clientAuth: 'need' }, sasl: 'optional' }),
      sharedCliBundle(),
    ]);
  });
  after(async () => {
    await server?.dispose();
    certs?.remove();
    if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
  });

  test('shell: PEM certificate + SASL alice creates a node only alice may read, and reads it back', async () => {
    const created = await run(cli, ['shell', server.tlsAddress, ...pem, '--sasl-user', 'alice', 'create', '/cli-secured', 'hello', 'sasl:alice:cdrwa'], alice);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout + created.stderr, /Created \/cli-secured/);
    const read = await run(cli, ['shell', server.tlsAddress, ...pem, '--sasl-user', 'alice', 'get', '/cli-secured'], alice);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.stdout, 'hello\n');
    const acl = await run(cli, ['shell', server.tlsAddress, ...pem, '--sasl-user', 'alice', 'getAcl', '/cli-secured'], alice);
    assert.match(acl.stdout, /'sasl,'alice\n: cdrwa/, acl.stderr);
    const refused = await run(cli, ['shell', server.tlsAddress, ...pem, 'get', '/cli-secured']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr + refused.stdout, /Insufficient permission/);
  });

  test('shell: PKCS#12 with the passphrase from ZOOSCOPE_TLS_PASSPHRASE', async () => {
    const ok = await run(cli, ['shell', server.tlsAddress, '--tls-ca', c.caCrt, '--tls-pfx', c.clientP12, 'ls', '/'], { ZOOSCOPE_TLS_PASSPHRASE: CLIENT_PFX_PASSPHRASE });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /zookeeper/);
    const wrong = await run(cli, ['shell', server.tlsAddress, '--tls-ca', c.caCrt, '--tls-pfx', c.clientP12, 'ls', '/'], { ZOOSCOPE_TLS_PASSPHRASE: 'wrong-pass-77' });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /TLS: cannot use the PKCS#12 file/);
    assert.ok(!wrong.stderr.includes('wrong-pass-77'));
  });

  test('secrets on argv are refused (exit 2) without being echoed', async () => {
    for (const args of [
      ['shell', server.tlsAddress, '--tls-pfx', c.clientP12, '--tls-passphrase', 'argv-secret-1', 'ls', '/'],
      ['locks', server.tlsAddress, '/', ...pem, '--sasl-user', 'alice:argv-secret-1'],
      ['lock', server.tlsAddress, '/l', ...pem, '--sasl-password', 'argv-secret-1'],
      ['lock', server.tlsAddress, '/l', ...pem, '--sasl-user', 'alice'],
    ]) {
      const r = await run(cli, args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /ZOOSCOPE_(TLS_PASSPHRASE|SASL_PASSWORD)/);
      assert.ok(!r.stderr.includes('argv-secret-1') && !r.stdout.includes('argv-secret-1'));
    }
  });

  test('failures say what is wrong in one line: a TLS port without --tls, an unknown CA, no client certificate', async () => {
    const plain = await run(cli, ['shell', server.tlsAddress, 'ls', '/']);
    assert.equal(plain.code, 1);
    assert.match(plain.stderr, new RegExp(`${server.tlsAddress} is a TLS port: the server closes plain connections; connect with TLS`));
    const ca = await run(cli, ['locks', server.tlsAddress, '/', '--tls-ca', c.otherCaCrt, '--tls-cert', c.clientCrt, '--tls-key', c.clientKey]);
    assert.equal(ca.code, 1);
    assert.match(ca.stderr, /signed by an unknown CA \(SELF_SIGNED_CERT_IN_CHAIN\)/);
    const noCert = await run(cli, ['lock', server.tlsAddress, '/cli-lock', '--tls-ca', c.caCrt, '--hold', '0']);
    assert.equal(noCert.code, 1);
    assert.match(noCert.stdout, /^failed error=connect:security$/m);
    assert.match(noCert.stderr, /the server requires a client certificate and none was given/);
    const badPassword = await run(cli, ['lock', server.tlsAddress, '/cli-lock', ...pem, '--sasl-user', 'alice', '--hold', '0'], { ZOOSCOPE_SASL_PASSWORD: 'nope' });
    assert.equal(badPassword.code, 1);
    assert.match(badPassword.stdout, /^failed error=connect:authFailed$/m);
    assert.match(badPassword.stderr, /SASL DIGEST-MD5 as alice was rejected \(AUTHFAILED, error -115\)/);
  });

  test('locks and lock work over TLS + SASL', async () => {
    const lock = await run(cli, ['lock', server.tlsAddress, '/cli-lock', ...pem, '--sasl-user', 'alice', '--hold', '0'], alice);
    assert.equal(lock.code, 0, lock.stderr);
    assert.match(lock.stdout, /^held node=\/cli-lock\//m);
    assert.match(lock.stdout, /^released/m);
    const locks = await run(cli, ['locks', server.tlsAddress, '/', ...pem, '--sasl-user', 'alice', '--json'], alice);
    assert.equal(locks.code, 0, locks.stderr);
    assert.doesNotThrow(() => JSON.parse(locks.stdout));
  });

  test('interop: Apache zkCli over TLS with SASL as alice reads the node our client created', async () => {
    const created = await run(cli, ['shell', server.tlsAddress, ...pem, '--sasl-user', 'alice', 'create', '/cli-interop', 'from zooscope', 'sasl:alice:cdrwa'], alice);
    assert.equal(created.code, 0, created.stderr);
    // zkCli.sh's own classpath lacks netty's codec and resolver: a later -cp in CLIENT_JVMFLAGS wins.
    const java = javaClientSecurityFlags(c, outDir, 'alice');
    const classPath = [...['zookeeper', 'slf4j-simple'].map((j) => `/usr/share/java/${j}.jar`), ...java.classPath];
    const flags = ['-cp', classPath.join(':'), ...java.flags].join(' ');
    const stdout = await new Promise<string>((resolve) => {
      execFile(ZKCLI, ['-server', server.tlsAddress, 'get', '/cli-interop'], { env: cleanEnv({ CLIENT_JVMFLAGS: flags }), timeout: 60000 },
        (_error, out, err) => resolve(`${out}\n${err}`));
    });
    assert.match(stdout, /^from zooscope$/m, stdout);
  });
});
