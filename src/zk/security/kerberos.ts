// SASL GSSAPI (Kerberos, RFC 4752) through the optional native module `kerberos`, loaded only when a session
// chooses Kerberos: the .vsix and the CLI stay platform-neutral, and a machine without the module gets one clear
// line instead of a crash at start-up.
import { createRequire } from 'node:module';
import type { SaslMechanism } from './saslMechanism';

/** The parts of the `kerberos` package (version 2 and later) this file uses. */
interface KerberosClient {
  contextComplete: boolean;
  username?: string;
  step(challenge: string): Promise<string | null>;
  wrap(challenge: string, options?: { user?: string }): Promise<string | null>;
  unwrap(challenge: string): Promise<string>;
}
export interface KerberosModule {
  initializeClient(service: string, options?: Record<string, unknown>): Promise<KerberosClient>;
}

export const KERBEROS_MODULE = 'kerberos';
export const KERBEROS_MISSING = 'SASL GSSAPI (Kerberos) needs the optional native module "kerberos", which is not installed here: run npm install kerberos where ZooScope is installed (it needs the MIT Kerberos libraries, e.g. Debian\'s libkrb5-dev, to build)';

/**
 * How the module is found: at run time from where ZooScope is installed (createRequire keeps bundlers from
 * trying to include it). Tests swap it to simulate a machine with or without the module.
 */
let loader: () => unknown = () => createRequire(__filename)(KERBEROS_MODULE) as unknown;

export function setKerberosLoaderForTests(load: () => unknown): () => void {
  const previous = loader;
  loader = load;
  return () => { loader = previous; };
}

/** Loads the module now, or throws the one-line KERBEROS_MISSING. */
export function loadKerberos(): KerberosModule {
  let loaded: unknown;
  try {
    loaded = loader();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') throw new Error(KERBEROS_MISSING);
    // Installed but unusable (built for another Node, missing libkrb5): say that, in one line.
    throw new Error(`SASL GSSAPI (Kerberos): the "kerberos" module is installed but cannot be loaded: ${oneLine(error)}`);
  }
  if (typeof (loaded as Partial<KerberosModule>)?.initializeClient !== 'function') {
    throw new Error('SASL GSSAPI (Kerberos): the installed "kerberos" module has no initializeClient (version 2 or later is needed)');
  }
  return loaded as KerberosModule;
}

function fromBase64(token: string | null | undefined): Buffer {
  return token ? Buffer.from(token, 'base64') : Buffer.alloc(0);
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

export function createGssapiMechanism(
  settings: { principal?: string; serviceName?: string; serviceHost?: string },
  serverHost: string,
): SaslMechanism {
  // Loaded here, when the session is built, so a missing module fails the configuration before any socket opens.
  const kerberos = loadKerberos();
  return new GssapiMechanism(kerberos, `${settings.serviceName ?? 'zookeeper'}@${settings.serviceHost ?? serverHost}`, settings.principal ?? '');
}

class GssapiMechanism implements SaslMechanism {
  readonly name = 'GSSAPI';
  private client: KerberosClient | undefined;
  private wrapped = false;

  constructor(private readonly kerberos: KerberosModule, private readonly service: string, public identity: string) {}

  async initial(): Promise<Buffer> {
    this.client = await this.kerberos.initializeClient(this.service, {});
    return fromBase64(await this.client.step(''));
  }

  async step(serverToken: Buffer): Promise<Buffer | undefined> {
    const client = this.client;
    if (!client) throw new Error('SASL GSSAPI: the server answered before it was asked');
    // The server's answer to our wrapped reply only confirms: nothing more to send.
    if (this.wrapped) return undefined;
    // The step that completes the context answers null: RFC 4752 then sends an empty token.
    if (!client.contextComplete) return fromBase64(await client.step(serverToken.toString('base64')));
    // Once the context is up the module knows our principal (from the ticket cache); it is the identity we ask for.
    if (client.username) this.identity = client.username;
    // RFC 4752 3.1: the server offers security layers; we take none (TLS protects the wire when wanted) and
    // send back "no layer" with our identity, wrapped.
    await client.unwrap(serverToken.toString('base64'));
    const reply = Buffer.from([1, 0, 0, 0]).toString('base64');
    const wrapped = await client.wrap(reply, this.identity ? { user: this.identity } : undefined);
    this.wrapped = true;
    return fromBase64(wrapped);
  }
}
