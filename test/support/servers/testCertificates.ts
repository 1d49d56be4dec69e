// Throw-away certificates for the secured-server tests, made with openssl (and keytool for Java's trust store)
// into a temp folder at test time: a CA, a server certificate for localhost and 127.0.0.1, one for a name no test
// connects to, a client certificate (PEM and PKCS#12), and a second CA with its own client certificate.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const STORE_PASSWORD = 'changeit';
/** The passphrase of client.p12; tests hand it over in the environment only. */
export const CLIENT_PFX_PASSPHRASE = 'pfx-secret-42';

export interface TestCertificates {
  dir: string;
  caCrt: string;
  /** PKCS#12 trust store holding caCrt, for the server. */
  trustStoreP12: string;
  /** Server certificate (localhost, 127.0.0.1) + key + CA chain as PKCS#12. */
  serverP12: string;
  /** Key then certificate, ZooKeeper's PEM key store format. */
  serverPem: string;
  /** A server certificate valid only for zk.invalid, as a PEM key store. */
  wrongNamePem: string;
  clientCrt: string;
  clientKey: string;
  /** client certificate + key, encrypted with CLIENT_PFX_PASSPHRASE. */
  clientP12: string;
  otherCaCrt: string;
  /** A client certificate signed by the other CA (the server does not trust it). */
  otherClientCrt: string;
  otherClientKey: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function makeCa(dir: string, name: string, cn: string): void {
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '30', '-subj', `/CN=${cn}`]);
}

/** A subject as attribute/value pairs, in order (an attribute may repeat): `[['CN', 'zk1'], ['OU', 'a'], ['OU', 'b']]`. */
export type Subject = readonly (readonly [string, string])[];

/** `-subj` text: values are taken literally (openssl's separators "/" and "+" and its escape "\" escaped), as UTF-8. */
function subjectArgument(subject: Subject): string {
  return subject.map(([key, value]) => `/${key}=${value.replace(/[\\/+]/g, '\\$&')}`).join('');
}

function makeSigned(dir: string, name: string, ca: string, cn: string, extensions: string, subject?: Subject): void {
  openssl(dir, ['req', '-utf8', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`,
    '-subj', subjectArgument(subject ?? [['CN', cn]])]);
  fs.writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial',
    '-out', `${name}.crt`, '-days', '30', '-extfile', `${name}.ext`]);
}

export interface CertificateOptions {
  /**
   * The server certificate's subject (default CN=localhost). It is still valid for localhost and 127.0.0.1: those
   * are in its subjectAltName, which is what clients check.
   */
  serverSubject?: Subject;
}

export function makeTestCertificates(dir: string, options: CertificateOptions = {}): TestCertificates {
  fs.mkdirSync(dir, { recursive: true });
  makeCa(dir, 'ca', 'ZooScope Test CA');
  makeCa(dir, 'other-ca', 'Some Other CA');
  const serverExt = 'extendedKeyUsage=serverAuth,clientAuth\n';
  makeSigned(dir, 'server', 'ca', 'localhost', `subjectAltName=DNS:localhost,IP:127.0.0.1\n${serverExt}`, options.serverSubject);
  makeSigned(dir, 'wrong-name', 'ca', 'zk.invalid', `subjectAltName=DNS:zk.invalid\n${serverExt}`);
  makeSigned(dir, 'client', 'ca', 'zk-client', 'extendedKeyUsage=clientAuth\n');
  makeSigned(dir, 'other-client', 'other-ca', 'intruder', 'extendedKeyUsage=clientAuth\n');
  openssl(dir, ['pkcs12', '-export', '-inkey', 'server.key', '-in', 'server.crt', '-certfile', 'ca.crt', '-passout', `pass:${STORE_PASSWORD}`, '-out', 'server.p12']);
  openssl(dir, ['pkcs12', '-export', '-inkey', 'client.key', '-in', 'client.crt', '-passout', `pass:${CLIENT_PFX_PASSPHRASE}`, '-out', 'client.p12']);
  execFileSync('keytool', ['-importcert', '-noprompt', '-alias', 'ca', '-file', 'ca.crt', '-keystore', 'truststore.p12',
    '-storetype', 'PKCS12', '-storepass', STORE_PASSWORD], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const cat = (out: string, ...files: string[]) => fs.writeFileSync(path.join(dir, out), files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join(''));
  cat('server-bundle.pem', 'server.key', 'server.crt');
  cat('wrong-name-bundle.pem', 'wrong-name.key', 'wrong-name.crt');
  const at = (file: string) => path.join(dir, file);
  return {
    dir, caCrt: at('ca.crt'), trustStoreP12: at('truststore.p12'), serverP12: at('server.p12'), serverPem: at('server-bundle.pem'),
    wrongNamePem: at('wrong-name-bundle.pem'), clientCrt: at('client.crt'), clientKey: at('client.key'), clientP12: at('client.p12'),
    otherCaCrt: at('other-ca.crt'), otherClientCrt: at('other-client.crt'), otherClientKey: at('other-client.key'),
  };
}
