// The Security section of the connection form: TLS (CA, client certificate as PEM or PKCS#12, server name check)
// and SASL (DIGEST-MD5 or Kerberos). Files are referenced by path; passphrases and passwords go to secret storage.
import * as vscode from 'vscode';
import type { ConnectionSecrets, SavedConnection, SavedSasl, SavedTls } from '../core/connectionStore';
import { input, pickItem } from '../common/quickInput';
import { normalizeSha256Fingerprint, splitFingerprints } from '../../zk/security/certificatePin';

const t = vscode.l10n.t;

export interface SecurityAnswers {
  tls?: SavedTls;
  sasl?: SavedSasl;
  secrets: ConnectionSecrets;
}

type Choice<T> = { label: string; description?: string; value: T };

export async function choose<T>(title: string, placeHolder: string, choices: Choice<T>[], current: T): Promise<T | undefined> {
  const ordered = [...choices.filter((c) => c.value === current), ...choices.filter((c) => c.value !== current)];
  const picked = await pickItem(ordered.map((c) => ({ ...c, label: c.label })), { title, placeHolder, ignoreFocusOut: true });
  return picked?.value;
}

/** A file chosen in the open dialog; `undefined` when cancelled, `null` when the user keeps none. */
export async function chooseFile(title: string, label: string, current: string | undefined, optional: boolean): Promise<string | null | undefined> {
  if (optional || current) {
    const keep = current ? t('Keep {0}', current) : undefined;
    const choices: Choice<'keep' | 'choose' | 'none'>[] = [
      ...(keep ? [{ label: keep, value: 'keep' as const }] : []),
      { label: t('Choose a file…'), value: 'choose' },
      ...(optional ? [{ label: t('None'), value: 'none' as const }] : []),
    ];
    const what = await choose(title, label, choices, keep ? 'keep' : 'choose');
    if (what === undefined) return undefined;
    if (what === 'keep') return current;
    if (what === 'none') return null;
  }
  const picked = await vscode.window.showOpenDialog({ title: `${title}: ${label}`, canSelectMany: false, openLabel: t('Use This File') });
  return picked?.[0]?.fsPath;
}

async function tlsAnswers(title: string, existing: SavedTls | undefined): Promise<{ tls: SavedTls; tlsPassphrase?: string } | undefined> {
  const ca = await chooseFile(title, t('CA certificates (PEM); None uses the system\'s CAs'), existing?.caFile, true);
  if (ca === undefined) return undefined;
  const currentKind = existing?.pfxFile ? 'pfx' : existing?.certFile ? 'pem' : 'none';
  const kind = await choose(title, t('Client certificate'), [
    { label: t('No client certificate'), value: 'none' as const },
    { label: t('PEM certificate and key'), value: 'pem' as const },
    { label: t('PKCS#12 file (.p12, .pfx)'), value: 'pfx' as const },
  ], currentKind);
  if (kind === undefined) return undefined;
  const tls: SavedTls = { caFile: ca ?? undefined };
  let tlsPassphrase: string | undefined;
  if (kind === 'pem' || kind === 'pfx') {
    if (kind === 'pem') {
      const cert = await chooseFile(title, t('Client certificate (PEM)'), existing?.certFile, false);
      if (!cert) return undefined;
      const key = await chooseFile(title, t('Private key (PEM)'), existing?.keyFile, false);
      if (!key) return undefined;
      Object.assign(tls, { certFile: cert, keyFile: key });
    } else {
      const pfx = await chooseFile(title, t('PKCS#12 file'), existing?.pfxFile, false);
      if (!pfx) return undefined;
      tls.pfxFile = pfx;
    }
    const passphrase = await input({
      title, password: true, ignoreFocusOut: true,
      prompt: kind === 'pfx' ? t('Passphrase of the PKCS#12 file (kept in secret storage; leave empty to keep the stored one, or for none)')
        : t('Passphrase of the key, if it is encrypted (kept in secret storage; leave empty to keep the stored one, or for none)'),
    });
    if (passphrase === undefined) return undefined;
    tlsPassphrase = passphrase || undefined;
  } else {
    tlsPassphrase = '';
  }
  const check = await choose(title, t('Server name check'), [
    { label: t('Check the server name against its certificate'), description: t('recommended'), value: true },
    { label: t('Do not check the server name'), description: t('any certificate the CA signed is accepted'), value: false },
  ], existing?.checkServerName !== false);
  if (check === undefined) return undefined;
  if (check) {
    if (existing?.pinnedSha256?.length) tls.pinnedSha256 = existing.pinnedSha256;
  } else {
    const pins = await pinAnswer(title, !!tls.caFile, existing?.pinnedSha256);
    if (pins === undefined) return undefined;
    tls.checkServerName = false;
    if (pins.length) tls.pinnedSha256 = pins;
  }
  return { tls, tlsPassphrase };
}

/**
 * The servers' certificate fingerprints, asked when the name check is off: required without a CA file (the system's
 * CAs alone would accept any public certificate of any host), optional with one.
 */
async function pinAnswer(title: string, hasCaFile: boolean, existing: readonly string[] | undefined): Promise<string[] | undefined> {
  const text = await input({
    title, ignoreFocusOut: true, value: existing?.join(', ') ?? '',
    prompt: hasCaFile
      ? t('SHA-256 fingerprints of the servers\' certificates, comma-separated (optional: only these are accepted)')
      : t('SHA-256 fingerprints of the servers\' certificates, comma-separated (openssl x509 -fingerprint -sha256)'),
    validateInput: (value) => {
      const pins = splitFingerprints(value);
      if (!pins.length && !hasCaFile) return t('Without a CA file, the name check can be turned off only with a pinned server certificate: give its SHA-256 fingerprint.');
      const bad = pins.find((pin) => !normalizeSha256Fingerprint(pin));
      return bad === undefined ? undefined : t('{0} is not a SHA-256 fingerprint (64 hexadecimal digits, colons optional).', bad);
    },
  });
  if (text === undefined) return undefined;
  return splitFingerprints(text).map((pin) => normalizeSha256Fingerprint(pin) ?? pin);
}

async function saslAnswers(title: string, existing: SavedSasl | undefined): Promise<{ sasl?: SavedSasl; saslPassword?: string } | undefined> {
  const mechanism = await choose(title, t('SASL authentication'), [
    { label: t('No SASL'), value: 'none' as const },
    { label: 'DIGEST-MD5', description: t('user and password (JAAS DigestLoginModule on the server)'), value: 'DIGEST-MD5' as const },
    { label: t('Kerberos (GSSAPI)'), description: t('needs the optional "kerberos" module and a ticket'), value: 'GSSAPI' as const },
  ], existing?.mechanism ?? 'none');
  if (mechanism === undefined) return undefined;
  if (mechanism === 'none') return { saslPassword: '' };
  if (mechanism === 'DIGEST-MD5') {
    const user = await input({
      title, prompt: t('SASL user'), value: existing?.mechanism === 'DIGEST-MD5' ? existing.user : '', ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : t('The user cannot be empty.')),
    });
    if (user === undefined) return undefined;
    const keeping = existing?.mechanism === 'DIGEST-MD5';
    const password = await input({
      title, password: true, ignoreFocusOut: true,
      prompt: keeping ? t('SASL password (leave empty to keep the stored one)') : t('SASL password (kept in secret storage)'),
    });
    if (password === undefined) return undefined;
    return { sasl: { mechanism, user: user.trim() }, saslPassword: password === '' && keeping ? undefined : password };
  }
  const principal = await input({
    title, prompt: t('Kerberos principal (optional: the ticket cache decides)'), ignoreFocusOut: true,
    value: existing?.mechanism === 'GSSAPI' ? existing.principal ?? '' : '',
  });
  if (principal === undefined) return undefined;
  const serviceName = await input({
    title, prompt: t('ZooKeeper\'s service name'), ignoreFocusOut: true,
    value: existing?.mechanism === 'GSSAPI' ? existing.serviceName ?? 'zookeeper' : 'zookeeper',
  });
  if (serviceName === undefined) return undefined;
  return { sasl: { mechanism, principal: principal.trim() || undefined, serviceName: serviceName.trim() || undefined }, saslPassword: '' };
}

/** Asks for TLS and SASL; undefined when the user cancelled. */
export async function securityForm(title: string, existing: SavedConnection | undefined): Promise<SecurityAnswers | undefined> {
  const useTls = await choose(title, t('Transport'), [
    { label: t('Plain TCP'), value: false },
    { label: 'TLS', description: t('the server\'s secureClientPort'), value: true },
  ], !!existing?.tls);
  if (useTls === undefined) return undefined;
  const tls = useTls ? await tlsAnswers(title, existing?.tls) : { tls: undefined, tlsPassphrase: '' };
  if (!tls) return undefined;
  const sasl = await saslAnswers(title, existing?.sasl);
  if (!sasl) return undefined;
  return { tls: tls.tls, sasl: sasl.sasl, secrets: { tlsPassphrase: tls.tlsPassphrase, saslPassword: sasl.saslPassword } };
}
