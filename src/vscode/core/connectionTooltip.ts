// The status bar's tooltip for a connection: its name, and how it is secured (TLS protocol and cipher, the server
// certificate's subject, the SASL identity), and the SSH bastion it goes through. The certificate subject is written by whoever made the certificate,
// so every line is made visible (hidden and direction-changing characters as [U+XXXX]; a line break in a value is
// escaped already, RFC 4514). The tooltip is a plain string, which VS Code shows as text: no icons, links or
// Markdown render in it. Pure (no VS Code import, the translation function is given) so it is unit-tested.
import type { SessionSecurity } from '../../zk/session/sessionSecurity';
import { shownLines } from '../common/untrustedText';

/** vscode.l10n.t's shape. */
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

/** The SSH route of a connection (`jump → bastion`), and the bastion's line while it is why the connection is down. */
export interface TooltipRoute {
  bastion: string;
  problem?: string;
}

export function connectionTooltip(t: Translate, name: string, connectString: string, security: SessionSecurity | undefined, sessionId?: string, route?: TooltipRoute): string {
  const lines = [t('ZooKeeper connection "{0}" ({1}). Click to show the log.', name, connectString)];
  if (route) lines.push(t('Through the SSH bastion {0}', route.bastion));
  if (route?.problem) lines.push(t('The SSH bastion, not ZooKeeper, is the problem: {0}', route.problem));
  // The session id is here rather than in the status bar's text, which VS Code cuts short beyond about 40% of the window.
  if (sessionId) lines.push(t('Session {0}', sessionId));
  if (security?.tls) {
    lines.push(t('TLS: {0}, {1}, server certificate {2}{3}', security.tls.protocol, security.tls.cipher, security.tls.peerSubject ?? t('(no subject)'),
      security.tls.serverNameChecked ? '' : t(' (server name not checked)')));
  }
  if (security?.sasl) lines.push(t('Authenticated with SASL {0} as {1} (ACL id sasl:{1})', security.sasl.mechanism, security.sasl.identity));
  return shownLines(lines);
}
