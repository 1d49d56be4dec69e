// A server certificate is written by whoever made it: its subject is untrusted text like a znode name. A real
// ZooKeeper 3.8 serves a certificate whose subject carries the hostile fixture (a line break and a command link in
// the CN, ANSI escapes, bidi overrides and isolates, zero-width characters, codicon syntax, and an OU that tries
// to pass for another attribute); the session reports it in RFC 4514 form, and the status bar's tooltip made from
// it shows every character for what it is, one line per fact.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ZkSession } from '../../src/zk/session/session';
import { connectionTooltip, Translate } from '../../src/vscode/core/connectionTooltip';
import { ANSI_TEXT, HOSTILE_NAMES, RAW_HIDDEN } from '../support/fixtures/hostileFixture';
import { SASL_USERS, SecuredZkServer } from '../support/servers/securedZkServer';
import { makeTestCertificates, Subject, TestCertificates } from '../support/servers/testCertificates';

const SUBJECT: Subject = [
  ['CN', `localhost\n${HOSTILE_NAMES.commandLink}`],
  ['ST', ANSI_TEXT],
  ['L', HOSTILE_NAMES.isolates],
  ['O', `${HOSTILE_NAMES.icons} ${HOSTILE_NAMES.rtlOverride}`],
  ['OU', HOSTILE_NAMES.zeroWidth],
  ['OU', 'evil,O=Trusted Corp+CN=x'],
];

/** What the session reports: every value as written, RFC 4514 escapes for controls and the DN's own syntax. */
const EXPECTED_SUBJECT = [
  'CN=localhost\\0A[run](command:workbench.action.terminal.new)',
  'ST=red\\1B[31mALERT\\1B[0m',
  `L=${HOSTILE_NAMES.isolates}`,
  `O=${HOSTILE_NAMES.icons} ${HOSTILE_NAMES.rtlOverride}`,
  `OU=${HOSTILE_NAMES.zeroWidth}`,
  'OU=evil\\,O=Trusted Corp\\+CN=x',
].join(',');

/** vscode.l10n.t for English: the placeholders filled in. */
const english: Translate = (message, ...args) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));

describe('a server certificate whose subject carries the hostile fixture', () => {
  let dir: string;
  let certs: TestCertificates;
  let server: SecuredZkServer;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-hostile-certs-'));
    certs = makeTestCertificates(dir, { serverSubject: SUBJECT });
    server = await SecuredZkServer.start({ tls: { keyStore: 'pem', clientAuth: 'none' }, sasl: 'optional', certificates: certs });
  });
  after(async () => {
    await server?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the session reports the subject escaped (RFC 4514), and the status bar tooltip shows it inertly', { timeout: 120000 }, async () => {
    const s = new ZkSession({
      connectString: server.tlsAddress, sessionTimeoutMs: 15000, requestTimeoutMs: 15000,
      tls: { caFile: certs.caCrt }, sasl: { mechanism: 'DIGEST-MD5', username: 'alice', password: SASL_USERS.alice },
    });
    try {
      await s.open();
      const security = s.security;
      assert.ok(security.tls, 'connected over TLS');
      // The hostile text is kept (it is the certificate's), but no value can pass for another attribute and no
      // control character is left raw.
      assert.equal(security.tls.peerSubject, EXPECTED_SUBJECT);
      assert.deepEqual(security.sasl, { mechanism: 'DIGEST-MD5', identity: 'alice' });

      const tooltip = connectionTooltip(english, 'Hostile subject', server.tlsAddress, security);
      const lines = tooltip.split('\n');
      assert.equal(lines.length, 3, `one line per fact: ${JSON.stringify(tooltip)}`);
      for (const line of lines) assert.ok(!RAW_HIDDEN.test(line), `no raw hidden character: ${JSON.stringify(line)}`);
      // Hidden and direction-changing characters are written out; the codicon syntax and the link stay text (a
      // plain-string tooltip renders neither).
      const visibleSubject = [
        'CN=localhost\\0A[run](command:workbench.action.terminal.new)',
        'ST=red\\1B[31mALERT\\1B[0m',
        'L=a[U+2066]b[U+2067]c[U+2068]d[U+2069]e[U+202A]f[U+202B]g[U+202C]h[U+202D]i',
        'O=$(error) $(shield) spoof invoice-[U+202E]gnp.exe',
        'OU=adm[U+200B]in[U+200D][U+FEFF]',
        'OU=evil\\,O=Trusted Corp\\+CN=x',
      ].join(',');
      assert.equal(lines[1], `TLS: ${security.tls.protocol}, ${security.tls.cipher}, server certificate ${visibleSubject}`);
      assert.equal(lines[2], 'Authenticated with SASL DIGEST-MD5 as alice (ACL id sasl:alice)');
      assert.equal(lines[0], `ZooKeeper connection "Hostile subject" (${server.tlsAddress}). Click to show the log.`);
    } finally {
      s.close();
    }
  });
});
