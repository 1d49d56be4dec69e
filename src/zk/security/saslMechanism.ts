// The one small interface every SASL mechanism offers the channel: it sends `initial()`, then feeds each server
// token to `step()` until the server says it is done (DIGEST-MD5 in sasl.ts, GSSAPI in kerberos.ts).
export interface SaslMechanism {
  readonly name: string;
  /** The identity the server will know us as once authenticated (`sasl:<identity>` in ACLs). */
  readonly identity: string;
  /** The first token (empty for DIGEST-MD5, whose server speaks first). */
  initial(): Promise<Buffer>;
  /**
   * The answer to a server token; `undefined` means the exchange is over on our side (a last server token is
   * checked, nothing more is sent).
   */
  step(serverToken: Buffer): Promise<Buffer | undefined>;
}
