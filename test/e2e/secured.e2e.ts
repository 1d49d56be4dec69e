// A secured cluster added as a person does it: the connection form's Security section against a real ZooKeeper 3.8
// that requires client certificates (TLS, PKCS#12) and knows SASL users. Files are chosen in VS Code's file dialog,
// the passphrase and password typed; the connection opens, lists the tree, and the status bar says TLS and as whom.
// Screenshots: secured-form-tls, secured-connected.
import * as assert from 'node:assert';
import { SASL_USERS, SecuredZkServer, temporaryCertificates } from '../support/servers/securedZkServer';
import { CLIENT_PFX_PASSPHRASE } from '../support/servers/testCertificates';
import { E2eTest, Workbench } from './workbench';

const NAME = 'Secured ZooKeeper';

/** Picks "Choose a file…" and answers the file dialog titled `… : <label>` that opens with `file`. */
async function chooseFile(wb: Workbench, label: RegExp, file: string): Promise<void> {
  await wb.pickItem('Choose a file…');
  await wb.answerFileDialog(label, file);
}

export const tests: E2eTest[] = [
  {
    name: 'secured: the connection form with TLS (PKCS#12 client certificate) and SASL DIGEST-MD5 connects, and the status bar says so',
    timeoutMs: 240000,
    async run(ctx) {
      const certificates = temporaryCertificates();
      const c = certificates.certificates;
      const server = await SecuredZkServer.start({ certificates: c, tls: { keyStore: 'pkcs12', clientAuth: 'need' }, sasl: 'optional' });
      try {
        const wb = await ctx.open({ settings: { 'zooscope.connections': [] } });
        await wb.openZooScope();
        await wb.page.locator('.part.sidebar .welcome-view-content a.monaco-button', { hasText: 'Add Connection' }).click();
        await wb.answerInput(/Servers: host:port/, server.tlsAddress);
        await wb.answerInput(/A name for this connection/, NAME);
        await wb.answerInput(/Chroot/, '');
        await wb.answerInput(/Digest user/, '');
        await wb.pickItem('TLS');
        await chooseFile(wb, /: CA certificates/, c.caCrt);
        await wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'PKCS#12 file' }).first().waitFor({ timeout: 15000 });
        await wb.screenshot('secured-form-tls');
        await wb.pickItem('PKCS#12 file');
        await wb.answerFileDialog(/: PKCS#12 file/, c.clientP12);
        await wb.answerInput(/Passphrase of the PKCS#12 file/, CLIENT_PFX_PASSPHRASE);
        await wb.pickItem('Check the server name');
        await wb.pickItem('DIGEST-MD5');
        await wb.answerInput(/SASL user/, 'alice');
        await wb.answerInput(/SASL password/, SASL_USERS.alice);
        await wb.pickItem('Direct');
        await wb.pickItem('Read and write');

        await wb.explorerRow(NAME).waitFor({ timeout: 60000 });
        await wb.explorerRow('zookeeper').waitFor({ timeout: 60000 });
        const status = wb.statusBarItem(NAME);
        await status.filter({ hasText: /TLSv1\.[23]/ }).filter({ hasText: /SASL alice/ }).waitFor({ timeout: 30000 });
        await wb.screenshot('secured-connected');
        // All of it is seen: VS Code cuts a long status bar entry short (it cut "SASL alice" off when the text also
        // held the session id).
        const clipped = await status.evaluate((item) => [item, ...item.querySelectorAll<HTMLElement>('*')]
          .some((el) => el instanceof HTMLElement && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible'));
        assert.equal(clipped, false, 'the status bar entry is shown whole');
        const text = await status.innerText();
        assert.ok(!text.includes(CLIENT_PFX_PASSPHRASE) && !text.includes(SASL_USERS.alice), `no secret in the status bar: ${text}`);
      } finally {
        await server.dispose();
        certificates.remove();
      }
    },
  },
];
