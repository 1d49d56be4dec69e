// What ssh's stderr says went wrong with a tunnel, as one line that names the bastion: the user must see that the
// bastion, not ZooKeeper, is the problem. Only the lines OpenSSH writes are read; nothing here is a secret (ssh
// never prints passwords or passphrases).
export type TunnelFailureKind =
  /** Host key not in any known_hosts file: the user may accept it after checking its fingerprint. */
  | 'hostKeyUnknown'
  /** Host key differs from the known one: refused, never accepted here. */
  | 'hostKeyChanged'
  | 'authFailed'
  | 'identityFile'
  | 'bastionUnresolved'
  | 'bastionUnreachable'
  /** The bastion is fine but could not open the connection to the ZooKeeper member. */
  | 'memberRefused'
  | 'memberUnreachable'
  | 'notInstalled'
  /** Settings or a member that must not reach ssh (see sshSettings.ts): nothing was run. */
  | 'settings'
  /** The tunnel ended after it was up (ssh killed, the bastion went away). */
  | 'closed'
  | 'other';

export interface TunnelFailure {
  kind: TunnelFailureKind;
  line: string;
  /** The key's SHA256 fingerprint ssh printed (a changed key). */
  fingerprint?: string;
  /**
   * The host whose key it is, as ssh names it in known_hosts (`host`, or `[host]:port`): with jump hosts it may be a
   * jump's rather than the bastion's.
   */
  keyHost?: string;
}

/** Failures that trying again cannot heal: the session gives up on them instead of retrying until its deadline. */
export function isFinalTunnelFailure(kind: TunnelFailureKind): boolean {
  return kind === 'hostKeyUnknown' || kind === 'hostKeyChanged' || kind === 'authFailed' || kind === 'identityFile' || kind === 'notInstalled' || kind === 'bastionUnresolved' || kind === 'settings';
}

/** Lines LogLevel=VERBOSE adds that say nothing about a failure. */
const CHATTER = /^(Authenticated to |Server host key: |Host '.*' is known|Transferred: |Bytes per second|Connection established|Will attempt key|Offering |Server accepts key|Found key in |Authentication succeeded|debug\d: |Warning: Permanently added|Authenticating to |Connecting to |Local connections to |Remote connections from |Connection to .* closed\.?$)/;

/** What ssh prints when the bastion's side of an established connection went away. */
const BASTION_HUNG_UP = /closed by remote host|Broken pipe|Connection reset by peer|Connection closed by \S+ port \d+/;

/** The one line about a tunnel to `target` through `bastion` that failed with ssh's stderr `lines`. */
export function classifySshFailure(lines: readonly string[], bastion: string, target: string, exit: { code: number | null; signal: string | null; wasUp: boolean }): TunnelFailure {
  const text = lines.join('\n');
  const via = `SSH bastion ${bastion}`;
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED/.test(text)) {
    const fingerprint = /(SHA256:[A-Za-z0-9+/=]+)/.exec(text)?.[1];
    return {
      kind: 'hostKeyChanged', fingerprint,
      line: `${via}: its host key has changed (it now presents ${fingerprint ?? 'an unknown fingerprint'}); refused. If the change is expected, remove the old key from known_hosts`,
    };
  }
  // ssh names the host whose key it lacks: the bastion's own, or a jump host's on the way to it.
  const unknown = /No (\S+) host key is known for (\S+)/.exec(text);
  if (unknown) return { kind: 'hostKeyUnknown', keyHost: unknown[2], line: `${via}: the ${unknown[1]} host key of ${unknown[2]} is not known; check its fingerprint and accept it first` };
  if (/Host key verification failed/.test(text)) return { kind: 'hostKeyUnknown', line: `${via}: host key verification failed` };
  const loadKey = /Load key "([^"]*)": (.*)/.exec(text);
  if (loadKey && !/Permission denied \(/.test(text)) return { kind: 'identityFile', line: `${via}: cannot use the key ${loadKey[1]}: ${loadKey[2]}` };
  const denied = /Permission denied \(([^)]*)\)/.exec(text);
  if (denied) return { kind: 'authFailed', line: `${via} refused authentication (it accepts: ${denied[1]})${loadKey ? `; key ${loadKey[1]}: ${loadKey[2]}` : ''}` };
  if (/Too many authentication failures/.test(text)) return { kind: 'authFailed', line: `${via} refused authentication: too many authentication failures (too many keys offered)` };
  const unresolved = /Could not resolve hostname (\S+?):? (.*)/.exec(text);
  if (unresolved) return { kind: 'bastionUnresolved', line: `${via}: cannot resolve ${unresolved[1]} (${unresolved[2]})` };
  const unreachable = /connect to host (\S+) port (\d+): (.*)/.exec(text);
  if (unreachable) return { kind: 'bastionUnreachable', line: `${via}: cannot connect to ${unreachable[1]} port ${unreachable[2]}: ${unreachable[3]}` };
  const openFailed = /open failed: (.*)/.exec(text);
  if (openFailed || /stdio forwarding failed/.test(text)) {
    const reason = openFailed?.[1] ?? 'forwarding failed';
    return { kind: /refused/i.test(reason) ? 'memberRefused' : 'memberUnreachable', line: `${via} cannot reach ${target}: ${reason}` };
  }
  const last = [...lines].reverse().find((l) => l.trim() !== '' && !CHATTER.test(l));
  if (exit.wasUp) {
    const said = last ?? (exit.signal ? `ssh ended by ${exit.signal}` : `ssh exited with code ${exit.code}`);
    // Which of these ssh prints when the bastion hangs up depends on whether it was reading or writing then.
    const why = BASTION_HUNG_UP.test(text) ? `the bastion ended the connection (${said})` : said;
    return { kind: 'closed', line: `the SSH tunnel to ${target} through ${bastion} closed: ${why}` };
  }
  return { kind: 'other', line: `${via}: ${last ?? (exit.signal ? `ssh ended by ${exit.signal}` : `ssh exited with code ${exit.code}`)}` };
}

/** ssh could not be started at all. */
export function sshNotStarted(program: string, error: NodeJS.ErrnoException): TunnelFailure {
  return {
    kind: 'notInstalled',
    line: error.code === 'ENOENT' ? `cannot start ${program}: OpenSSH's client is not installed or not on PATH` : `cannot start ${program}: ${error.message}`,
  };
}

/** Errors of a tunnel carry what went wrong in one line. */
export class SshTunnelError extends Error {
  constructor(readonly failure: TunnelFailure) {
    super(failure.line);
    this.name = 'SshTunnelError';
  }
}
