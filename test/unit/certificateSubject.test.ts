// A server certificate's subject is untrusted text: formatSubject writes it in RFC 4514 form (no value can pass for
// another attribute, no control character stays raw), and the status bar's tooltip shows it with every hidden or
// direction-changing character written out. The same against a real server: test/integration/securedHostileSubject.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { formatSubject } from '../../src/zk/security/secureTransport';
import { connectionTooltip, Translate } from '../../src/vscode/core/connectionTooltip';
import { HOSTILE_NAMES, RAW_HIDDEN } from '../support/fixtures/hostileFixture';

const english: Translate = (message, ...args) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));

test('formatSubject escapes the DN syntax and controls, lists repeated attributes, keeps the rest as written', () => {
  assert.equal(formatSubject({ CN: 'zk1.example.com' }), 'CN=zk1.example.com');
  assert.equal(formatSubject({ CN: 'a,O=Trusted+OU=x', OU: ['b;c', '<d>"e"'] }), 'CN=a\\,O=Trusted\\+OU=x,OU=b\\;c,OU=\\<d\\>\\"e\\"');
  // A backslash is escaped itself, so `\41` in a value cannot read as the escape of "A".
  assert.equal(formatSubject({ CN: 'a\\41' }), 'CN=a\\\\41');
  assert.equal(formatSubject({ CN: '#hash', O: ' lead', OU: 'trail ' }), 'CN=\\#hash,O=\\ lead,OU=trail\\ ');
  assert.equal(formatSubject({ CN: 'line\nbreak\r\u0000\u001b[31m\u007f' }), 'CN=line\\0Abreak\\0D\\00\\1B[31m\\7F');
  assert.equal(formatSubject({ CN: HOSTILE_NAMES.rtlOverride }), `CN=${HOSTILE_NAMES.rtlOverride}`, 'Unicode is the surfaces\' business');
});

test('the status bar tooltip: one line per fact, hidden characters written out', () => {
  const tooltip = connectionTooltip(english, `name\u202E${HOSTILE_NAMES.zeroWidth}`, '127.0.0.1:2281', {
    tls: { server: '127.0.0.1:2281', protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384', serverNameChecked: false,
      peerSubject: formatSubject({ CN: `x\n${HOSTILE_NAMES.commandLink}`, O: HOSTILE_NAMES.isolates, OU: [HOSTILE_NAMES.icons, 'a,O=b'] }) },
    sasl: { mechanism: 'DIGEST-MD5', identity: `bob\u200B` },
  });
  assert.deepEqual(tooltip.split('\n'), [
    'ZooKeeper connection "name[U+202E]adm[U+200B]in[U+200D][U+FEFF]" (127.0.0.1:2281). Click to show the log.',
    'TLS: TLSv1.3, TLS_AES_256_GCM_SHA384, server certificate CN=x\\0A[run](command:workbench.action.terminal.new),'
      + 'O=a[U+2066]b[U+2067]c[U+2068]d[U+2069]e[U+202A]f[U+202B]g[U+202C]h[U+202D]i,OU=$(error) $(shield) spoof,OU=a\\,O=b (server name not checked)',
    'Authenticated with SASL DIGEST-MD5 as bob[U+200B] (ACL id sasl:bob[U+200B])',
  ]);
  assert.ok(!RAW_HIDDEN.test(tooltip.replace(/\n/g, ' ')));
  assert.equal(connectionTooltip(english, 'plain', 'h:1', {}), 'ZooKeeper connection "plain" (h:1). Click to show the log.');
});
