// Starts the Python driver for kazoo 2.8.0 (kazoo_driver.py; protocol in driver.ts) with Debian's /usr/bin/python3,
// where python3-kazoo is installed (the python3 first on PATH may be another one, without kazoo).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, startDriver, ThirdPartyClient } from './driver';

export const SYSTEM_PYTHON = '/usr/bin/python3';

/** TLS (PEM files) and SASL DIGEST-MD5 for kazoo's sessions (kazoo's SASL needs python3-pure-sasl). */
export interface KazooSecurity {
  tls?: { caFile: string; certFile: string; keyFile: string };
  sasl?: { username: string; password: string };
}

/** A kazoo driver connected to `connectString` (each contender on a session of its own). */
export function startKazoo(connectString: string, sessionTimeoutMs = 15000, security: KazooSecurity = {}): Promise<ThirdPartyClient> {
  if (!fs.existsSync(SYSTEM_PYTHON)) throw new Error(`${SYSTEM_PYTHON} missing: run scripts/zk/ensure-clients.sh`);
  const script = path.join(repoRoot(), 'test', 'support', 'thirdParty', 'kazoo_driver.py');
  const env: Record<string, string> = {};
  if (security.tls) Object.assign(env, { KAZOO_TLS_CA: security.tls.caFile, KAZOO_TLS_CERT: security.tls.certFile, KAZOO_TLS_KEY: security.tls.keyFile });
  if (security.sasl) Object.assign(env, { KAZOO_SASL_USER: security.sasl.username, KAZOO_SASL_PASSWORD: security.sasl.password });
  return startDriver('kazoo', SYSTEM_PYTHON, ['-u', script, connectString, String(sessionTimeoutMs)], env);
}
