// The CLI's security flags (one parser for lock, locks and shell), TLS failure lines, TLS settings checks and the
// optional Kerberos module's absence.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { UsageError } from '../../src/cli/args';
import { parseCommandLine } from '../../src/cli/commandLine';
import { CONNECTION_OPTIONS, connectionSettings, SASL_PASSWORD_ENV, SECRET_FLAGS, TLS_PASSPHRASE_ENV } from '../../src/cli/connectionOptions';
import { KERBEROS_MISSING, loadKerberos, setKerberosLoaderForTests } from '../../src/zk/security/kerberos';
import { createSaslMechanism } from '../../src/zk/security/sasl';
import { classifyTlsError } from '../../src/zk/security/tlsFailure';
import { NAME_CHECK_OFF_NEEDS_TRUST, prepareTls, SecurityConfigError } from '../../src/zk/security/tlsSettings';
import { normalizeSha256Fingerprint, pinMismatch, splitFingerprints } from '../../src/zk/security/certificatePin';
import type { PeerCertificate } from 'node:tls';

/** The connection options as every command reads them; the other words are positional. */
function parse(args: string[], env: NodeJS.ProcessEnv = {}) {
  const line = parseCommandLine(args, CONNECTION_OPTIONS, { refused: SECRET_FLAGS });
  assert.ok(!line.help);
  return { options: connectionSettings(line.values, env, line.spelled.digest), rest: line.positionals };
}

test('TLS flags become TLS settings; any --tls-* implies --tls; the passphrase comes from the environment', () => {
  const { options, rest } = parse(['--tls-ca', 'ca.pem', 'host:2181', '--tls-pfx', 'me.p12'], { [TLS_PASSPHRASE_ENV]: 'pp' });
  assert.deepEqual(options.tls, { checkServerName: true, caFile: 'ca.pem', pfxFile: 'me.p12', passphrase: 'pp' });
  assert.deepEqual(rest, ['host:2181']);
  assert.deepEqual(parse(['--tls']).options.tls, { checkServerName: true });
  assert.equal(parse(['--tls-no-server-name-check', '--tls-ca', 'ca.pem']).options.tls?.checkServerName, false);
  assert.equal(parse([]).options.tls, undefined);
});

test('PEM certificate and key go together, and not with PKCS#12', () => {
  assert.deepEqual(parse(['--tls-cert', 'c.pem', '--tls-key', 'k.pem']).options.tls, { checkServerName: true, certFile: 'c.pem', keyFile: 'k.pem' });
  assert.throws(() => parse(['--tls-cert', 'c.pem']), /--tls-cert needs --tls-key/);
  assert.throws(() => parse(['--tls-key', 'k.pem']), /--tls-key needs --tls-cert/);
  assert.throws(() => parse(['--tls-cert', 'c', '--tls-key', 'k', '--tls-pfx', 'p']), /not both/);
  assert.throws(() => parse(['--tls-ca']), /--tls-ca takes a file/);
  assert.throws(() => parse(['--tls-ca', '--tls']), /--tls-ca takes a file/);
});

test('SASL: the user on argv, the password only in ZOOSCOPE_SASL_PASSWORD', () => {
  assert.deepEqual(parse(['--sasl-user', 'alice'], { [SASL_PASSWORD_ENV]: 'pw' }).options.sasl, { mechanism: 'DIGEST-MD5', username: 'alice', password: 'pw' });
  assert.throws(() => parse(['--sasl-user', 'alice']), (e: Error) => e instanceof UsageError && /needs the password in ZOOSCOPE_SASL_PASSWORD/.test(e.message));
  assert.throws(() => parse(['--sasl-user', 'alice:pw'], { [SASL_PASSWORD_ENV]: 'pw' }), (e: Error) => /user name only/.test(e.message) && !e.message.includes('alice:pw'));
  assert.deepEqual(parse(['--kerberos']).options.sasl, { mechanism: 'GSSAPI' });
  assert.throws(() => parse(['--kerberos', '--sasl-user', 'a'], { [SASL_PASSWORD_ENV]: 'pw' }), /not both/);
});

test('no secret is ever taken from argv: such flags are refused and name the variable instead', () => {
  for (const [flag, env] of [['--tls-passphrase', TLS_PASSPHRASE_ENV], ['--sasl-password', SASL_PASSWORD_ENV], ['--password', SASL_PASSWORD_ENV]]) {
    assert.throws(() => parse([flag, 'hunter2']), (e: Error) => e instanceof UsageError && e.message.includes(env) && !e.message.includes('hunter2'));
    assert.throws(() => parse([`${flag}=hunter2`]), (e: Error) => e instanceof UsageError && !e.message.includes('hunter2'));
  }
});

test('--digest stays in the same parser: user on argv, password from ZOOSCOPE_DIGEST_PASSWORD', () => {
  assert.deepEqual(parse(['--digest', 'carol'], { ZOOSCOPE_DIGEST_PASSWORD: 'pw' }).options.digest, ['carol:pw']);
  assert.throws(() => parse(['--digest', 'carol:pw']), /user name only/);
});

test('TLS failures map to one line each', () => {
  const ctx = { hasClientCertificate: false, secured: false };
  assert.equal(classifyTlsError({ code: 'SELF_SIGNED_CERT_IN_CHAIN' }, 'h:1', ctx)?.kind, 'unknownCa');
  assert.equal(classifyTlsError({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }, 'h:1', ctx)?.kind, 'unknownCa');
  assert.equal(classifyTlsError({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 'h:1', ctx)?.kind, 'hostNameMismatch');
  assert.equal(classifyTlsError({ code: 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE' }, 'h:1', ctx)?.kind, 'noClientCertificate');
  assert.equal(classifyTlsError({ code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' }, 'h:1', ctx)?.kind, 'noClientCertificate');
  assert.equal(classifyTlsError({ code: 'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN' }, 'h:1', { ...ctx, hasClientCertificate: true })?.kind, 'clientCertificateRejected');
  assert.equal(classifyTlsError({ code: 'ECONNRESET', message: 'Client network socket disconnected before secure TLS connection was established' }, 'h:1', ctx)?.kind, 'handshakeFailed');
  assert.equal(classifyTlsError({ code: 'ECONNREFUSED' }, 'h:1', ctx), undefined);
  for (const code of ['SELF_SIGNED_CERT_IN_CHAIN', 'ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_SSL_WRONG_VERSION_NUMBER']) {
    assert.ok(!classifyTlsError({ code, message: 'a\nb' }, 'h:1', ctx)?.line.includes('\n'));
  }
});

test('TLS settings: missing files and half a client certificate are one-line configuration errors', () => {
  assert.throws(() => prepareTls({ caFile: '/nonexistent/ca.pem' }), /^SecurityConfigError: TLS: cannot read the CA file \/nonexistent\/ca.pem \(ENOENT\)$/);
  assert.throws(() => prepareTls({ certFile: 'c.pem' }), /needs its key/);
  assert.equal(prepareTls({}).checkServerName, true);
  assert.equal(prepareTls({ checkServerName: false, pinnedSha256: [PIN] }).checkServerName, false);
});

const PIN = 'ab'.repeat(32);
const PIN_NODE_FORM = Array(32).fill('AB').join(':');

test('a SHA-256 fingerprint is read as openssl prints it, colons and its prefix optional, in any case', () => {
  assert.equal(normalizeSha256Fingerprint(PIN), PIN_NODE_FORM);
  assert.equal(normalizeSha256Fingerprint(` ${PIN_NODE_FORM.toLowerCase()} `), PIN_NODE_FORM);
  assert.equal(normalizeSha256Fingerprint(`sha256 Fingerprint=${PIN_NODE_FORM}`), PIN_NODE_FORM);
  assert.equal(normalizeSha256Fingerprint(`SHA256 Fingerprint=${PIN}`), PIN_NODE_FORM);
  for (const bad of ['', 'ab'.repeat(31), 'ab'.repeat(33), 'zz'.repeat(32), `sha1 Fingerprint=${PIN}`]) {
    assert.equal(normalizeSha256Fingerprint(bad), undefined, bad);
  }
  assert.deepEqual(splitFingerprints(` ${PIN}, sha256 Fingerprint=${PIN_NODE_FORM};\n`), [PIN, `sha256 Fingerprint=${PIN_NODE_FORM}`]);
});

test('the name check goes off only with a CA file or a pin: with the system CAs alone it is refused in one line', () => {
  assert.throws(() => prepareTls({ checkServerName: false }), (e: Error) => e instanceof SecurityConfigError && e.message === NAME_CHECK_OFF_NEEDS_TRUST && !e.message.includes('\n'));
  assert.throws(() => prepareTls({ checkServerName: false, pinnedSha256: [] }), /only with a CA file or a pinned server certificate fingerprint/);
  assert.deepEqual(prepareTls({ checkServerName: false, pinnedSha256: [PIN, `sha256 Fingerprint=${PIN_NODE_FORM.toLowerCase()}`] }).pinnedSha256, [PIN_NODE_FORM, PIN_NODE_FORM]);
  // A hand-edited setting may hold one string.
  assert.deepEqual(prepareTls({ checkServerName: false, pinnedSha256: PIN as unknown as string[] }).pinnedSha256, [PIN_NODE_FORM]);
  assert.throws(() => prepareTls({ pinnedSha256: ['abc'] }), /^SecurityConfigError: TLS: "abc" is not a SHA-256 fingerprint/);
  assert.deepEqual(prepareTls({}).pinnedSha256, []);

  assert.throws(() => parse(['--tls-no-server-name-check']), (e: Error) => e instanceof UsageError && /^--tls-no-server-name-check needs --tls-ca or --tls-pin-sha256: /.test(e.message));
  const pinned = parse(['--tls-no-server-name-check', '--tls-pin-sha256', PIN, 'host:2281', '--tls-pin-sha256', `${PIN_NODE_FORM},${PIN}`]);
  assert.deepEqual(pinned.options.tls, { checkServerName: false, pinnedSha256: [PIN_NODE_FORM, PIN_NODE_FORM, PIN_NODE_FORM] });
  assert.deepEqual(pinned.rest, ['host:2281']);
  assert.deepEqual(parse(['--tls-pin-sha256', PIN]).options.tls, { checkServerName: true, pinnedSha256: [PIN_NODE_FORM] });
  assert.throws(() => parse(['--tls-pin-sha256']), /--tls-pin-sha256 takes a SHA-256 fingerprint/);
  assert.throws(() => parse(['--tls-pin-sha256', 'abc']), (e: Error) => e instanceof UsageError && /"abc" is not a SHA-256 fingerprint/.test(e.message));
});

test('a certificate that is not the pinned one fails with a certificate error naming both fingerprints', () => {
  const other = Array(32).fill('CD').join(':');
  const cert = { fingerprint256: other } as PeerCertificate;
  assert.equal(pinMismatch([], cert), undefined);
  assert.equal(pinMismatch([other], cert), undefined);
  const error = pinMismatch([PIN_NODE_FORM], cert) as Error & { code: string };
  assert.equal(error.code, 'CERT_PIN_MISMATCH');
  const failure = classifyTlsError(error, 'h:1', { hasClientCertificate: false, secured: false });
  assert.equal(failure?.kind, 'pinMismatch');
  assert.equal(failure?.line, `TLS with h:1 failed: its certificate's SHA-256 fingerprint is ${other}, not the pinned ${PIN_NODE_FORM} (CERT_PIN_MISMATCH)`);
});

test('Kerberos without the optional module: one clear line, and only when Kerberos is chosen', () => {
  const restore = setKerberosLoaderForTests(() => {
    throw Object.assign(new Error("Cannot find module 'kerberos'"), { code: 'MODULE_NOT_FOUND' });
  });
  try {
    assert.throws(() => loadKerberos(), (e: Error) => e.message === KERBEROS_MISSING);
    assert.throws(() => createSaslMechanism({ mechanism: 'GSSAPI' }, 'zk1'), (e: Error) => e.message === KERBEROS_MISSING);
    // DIGEST-MD5 never touches the module.
    assert.equal(createSaslMechanism({ mechanism: 'DIGEST-MD5', username: 'a', password: 'b' }, 'zk1').name, 'DIGEST-MD5');
  } finally {
    restore();
  }
});

test('Kerberos with a module that loads: the GSSAPI mechanism drives its client', async () => {
  const calls: string[] = [];
  const restore = setKerberosLoaderForTests(() => ({
    initializeClient: (service: string) => {
      calls.push(`init ${service}`);
      const client = {
        contextComplete: false, username: 'alice@EXAMPLE.COM',
        step: (challenge: string) => { calls.push(`step ${challenge}`); client.contextComplete = true; return Promise.resolve(Buffer.from('tok').toString('base64')); },
        unwrap: (challenge: string) => { calls.push(`unwrap ${challenge}`); return Promise.resolve(''); },
        wrap: (_: string, options?: { user?: string }) => { calls.push(`wrap ${options?.user}`); return Promise.resolve(Buffer.from('wrapped').toString('base64')); },
      };
      return Promise.resolve(client);
    },
  }));
  try {
    const mechanism = createSaslMechanism({ mechanism: 'GSSAPI' }, 'zk1.example.com');
    assert.equal((await mechanism.initial()).toString(), 'tok');
    assert.equal((await mechanism.step(Buffer.from('layers')))?.toString(), 'wrapped');
    assert.equal(await mechanism.step(Buffer.alloc(0)), undefined);
    assert.deepEqual(calls, ['init zookeeper@zk1.example.com', 'step ', `unwrap ${Buffer.from('layers').toString('base64')}`, 'wrap alice@EXAMPLE.COM']);
    assert.equal(mechanism.identity, 'alice@EXAMPLE.COM');
  } finally {
    restore();
  }
});
