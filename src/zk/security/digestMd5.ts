// SASL DIGEST-MD5 (RFC 2831) as ZooKeeper speaks it: the server sends one challenge, the client answers with a
// response computed from the password, the server proves it knew the password too (rspauth). Pure functions: no
// socket here, so the computation can be checked against the RFC's own example.
import { createHash, randomBytes } from 'node:crypto';
import { shortened, visibleText } from '../../shared/visibleText';

/** ZooKeeper fixes the protocol and server name of its SASL service ((source) ZooKeeperSaslServer). */
export const ZOOKEEPER_DIGEST_URI = 'zookeeper/zk-sasl-md5';

export interface DigestInputs {
  username: string;
  password: string;
  realm: string;
  nonce: string;
  cnonce: string;
  /** Nonce count, 8 hex digits. */
  nc: string;
  digestUri: string;
  authzid?: string;
}

const md5 = (data: Buffer | string): Buffer => createHash('md5').update(data).digest();
const md5Hex = (data: Buffer | string): string => createHash('md5').update(data).digest('hex');

/** A1 per RFC 2831 2.1.2.1: the raw (binary) H(user:realm:password), then ":nonce:cnonce[:authzid]". */
function a1(inputs: DigestInputs): Buffer {
  const secret = md5(Buffer.from(`${inputs.username}:${inputs.realm}:${inputs.password}`, 'utf8'));
  const tail = `:${inputs.nonce}:${inputs.cnonce}${inputs.authzid ? `:${inputs.authzid}` : ''}`;
  return Buffer.concat([secret, Buffer.from(tail, 'utf8')]);
}

/** The response value for qop=auth: the client's proof that it knows the password. */
export function digestResponse(inputs: DigestInputs): string {
  return kd(inputs, `AUTHENTICATE:${inputs.digestUri}`);
}

/** The rspauth value the server must send back: its proof that it knew the password too. */
export function expectedRspAuth(inputs: DigestInputs): string {
  return kd(inputs, `:${inputs.digestUri}`);
}

function kd(inputs: DigestInputs, a2: string): string {
  return md5Hex(`${md5Hex(a1(inputs))}:${inputs.nonce}:${inputs.nc}:${inputs.cnonce}:auth:${md5Hex(a2)}`);
}

/** Parses `key=value,key="quoted, value",…` (RFC 2831 directives). */
export function parseDirectives(text: string): Map<string, string> {
  const directives = new Map<string, string>();
  const pattern = /\s*([A-Za-z0-9-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,]*))\s*(?:,|$)/gy;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < text.length && (match = pattern.exec(text)) !== null) {
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '').trim();
    directives.set(match[1].toLowerCase(), value);
    if (match[0] === '') break;
  }
  return directives;
}

const quote = (value: string) => `"${value.replace(/(["\\])/g, '\\$1')}"`;

/**
 * One client side of the exchange: answers the server's challenge, then checks its rspauth. Errors are one line
 * and never contain the password.
 */
export class DigestMd5Client {
  private inputs: DigestInputs | undefined;

  constructor(
    private readonly username: string,
    private readonly password: string,
    private readonly cnonce: string = randomBytes(24).toString('base64'),
  ) {}

  /** The response to the server's first challenge. */
  respond(challenge: string): string {
    const d = parseDirectives(challenge);
    const nonce = d.get('nonce');
    if (!nonce) throw new Error('DIGEST-MD5: the server\'s challenge has no nonce');
    const qop = d.get('qop');
    if (qop !== undefined && !qop.split(',').map((q) => q.trim()).includes('auth')) {
      throw new Error(`DIGEST-MD5: the server offers qop "${shortened(visibleText(qop), 40)}" only; ZooScope speaks "auth"`);
    }
    const realm = d.get('realm') ?? '';
    this.inputs = {
      username: this.username, password: this.password, realm, nonce, cnonce: this.cnonce, nc: '00000001',
      digestUri: ZOOKEEPER_DIGEST_URI,
    };
    const parts = [
      'charset=utf-8', `username=${quote(this.username)}`, `realm=${quote(realm)}`, `nonce=${quote(nonce)}`,
      'nc=00000001', `cnonce=${quote(this.cnonce)}`, `digest-uri=${quote(ZOOKEEPER_DIGEST_URI)}`, 'maxbuf=65536',
      `response=${digestResponse(this.inputs)}`, 'qop=auth',
    ];
    return parts.join(',');
  }

  /** Checks the server's final message; throws when it does not prove knowledge of the password. */
  verify(final: string): void {
    if (!this.inputs) throw new Error('DIGEST-MD5: the server answered before it was asked');
    const rspauth = parseDirectives(final).get('rspauth');
    if (rspauth !== expectedRspAuth(this.inputs)) throw new Error('DIGEST-MD5: the server\'s rspauth is wrong: it does not know this user\'s password');
  }
}
