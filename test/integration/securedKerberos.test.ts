// SASL GSSAPI against a real MIT Kerberos KDC on loopback (Debian's krb5-kdc, krb5-admin-server, krb5-user) and a
// ZooKeeper 3.8 server that enforces SASL with a keytab. The native `kerberos` module is optional and not in
// package.json: the test uses the project's copy if one is installed, the one scripts/zk/ensure-kerberos.sh
// builds into .tmp/ (the test scripts run it first), or the one named by ZOOSCOPE_TEST_KERBEROS_MODULE; without
// any (or without the KDC packages) it fails and says why.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { setKerberosLoaderForTests } from '../../src/zk/security/kerberos';
import { ConnectFailure, ZkSession } from '../../src/zk/session/session';
import { fourLetterWord, freePort } from '../support/ports';
import { eventually } from '../support/waiting';

const REALM = 'ZOOSCOPE.TEST';

/** Where scripts/zk/ensure-kerberos.sh builds the module (outside node_modules, out of package.json). */
const BUILT_MODULE = path.resolve(__dirname, '..', '..', '..', '.tmp', 'kerberos-module', 'node_modules', 'kerberos');

function kerberosModulePath(): string | undefined {
  const named = process.env.ZOOSCOPE_TEST_KERBEROS_MODULE;
  if (named) return named;
  try {
    return require.resolve('kerberos');
  } catch {
    return fs.existsSync(path.join(BUILT_MODULE, 'build', 'Release', 'kerberos.node')) ? BUILT_MODULE : undefined;
  }
}

function whyNot(): string | undefined {
  for (const tool of ['/usr/sbin/krb5kdc', '/usr/sbin/kdb5_util', '/usr/sbin/kadmin.local', '/usr/bin/kinit']) {
    if (!fs.existsSync(tool)) return `${tool} is missing (Debian: krb5-kdc krb5-admin-server krb5-user)`;
  }
  if (!kerberosModulePath()) return 'the optional "kerberos" module is not built: run scripts/zk/ensure-kerberos.sh';
  return undefined;
}

describe('SASL GSSAPI (Kerberos) with a real KDC on loopback', () => {
  let dir: string;
  let kdc: ChildProcess;
  let zk: ChildProcess;
  let zkPort: number;
  let env: NodeJS.ProcessEnv;
  let restoreLoader: () => void;

  before(async () => {
    const missing = whyNot();
    if (missing) throw new Error(`the Kerberos test cannot run: ${missing}`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-krb-'));
    const kdcPort = await freePort();
    zkPort = await freePort();
    fs.writeFileSync(path.join(dir, 'krb5.conf'), `[libdefaults]\n default_realm = ${REALM}\n dns_lookup_kdc = false\n rdns = false\n udp_preference_limit = 1\n`
      + `[realms]\n ${REALM} = {\n  kdc = 127.0.0.1:${kdcPort}\n }\n[domain_realm]\n localhost = ${REALM}\n`);
    fs.writeFileSync(path.join(dir, 'kdc.conf'), `[kdcdefaults]\n kdc_listen = 127.0.0.1:${kdcPort}\n kdc_tcp_listen = 127.0.0.1:${kdcPort}\n`
      + `[realms]\n ${REALM} = {\n  database_name = ${dir}/principal\n  key_stash_file = ${dir}/stash\n  acl_file = ${dir}/kadm5.acl\n }\n`);
    env = { ...process.env, KRB5_CONFIG: path.join(dir, 'krb5.conf'), KRB5_KDC_PROFILE: path.join(dir, 'kdc.conf'), KRB5CCNAME: `FILE:${dir}/cc` };
    const run = (file: string, args: string[], input?: string) => execFileSync(file, args, { env, input, stdio: ['pipe', 'ignore', 'pipe'] });
    run('/usr/sbin/kdb5_util', ['create', '-s', '-r', REALM, '-P', 'master-pw']);
    run('/usr/sbin/kadmin.local', ['-r', REALM, '-q', `addprinc -randkey zookeeper/localhost@${REALM}`]);
    run('/usr/sbin/kadmin.local', ['-r', REALM, '-q', `addprinc -pw alice-krb-pw alice@${REALM}`]);
    run('/usr/sbin/kadmin.local', ['-r', REALM, '-q', `ktadd -k ${dir}/zk.keytab zookeeper/localhost@${REALM}`]);
    kdc = spawn('/usr/sbin/krb5kdc', ['-n'], { env, stdio: 'ignore' });
    await eventually(() => { try { run('/usr/bin/kinit', [`alice@${REALM}`], 'alice-krb-pw\n'); return true; } catch { return false; } }, 20000, 'kinit');
    fs.mkdirSync(path.join(dir, 'data'));
    fs.writeFileSync(path.join(dir, 'zoo.cfg'), [`tickTime=2000`, `dataDir=${dir}/data`, `clientPort=${zkPort}`, 'clientPortAddress=127.0.0.1',
      'admin.enableServer=false', '4lw.commands.whitelist=*', 'authProvider.1=org.apache.zookeeper.server.auth.SASLAuthenticationProvider',
      'enforce.auth.enabled=true', 'enforce.auth.schemes=sasl'].join('\n') + '\n');
    fs.writeFileSync(path.join(dir, 'jaas.conf'), `Server {\n com.sun.security.auth.module.Krb5LoginModule required\n useKeyTab=true\n keyTab="${dir}/zk.keytab"\n`
      + ` storeKey=true\n useTicketCache=false\n principal="zookeeper/localhost@${REALM}";\n};\n`);
    const log = fs.openSync(path.join(dir, 'zk.log'), 'a');
    zk = spawn('java', ['-Xmx256m', `-Djava.security.krb5.conf=${dir}/krb5.conf`, `-Djava.security.auth.login.config=${dir}/jaas.conf`,
      '-cp', '/usr/share/java/zookeeper.jar:/usr/share/java/slf4j-simple.jar', 'org.apache.zookeeper.server.ZooKeeperServerMain', `${dir}/zoo.cfg`],
    { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    await eventually(async () => /Mode: /.test(await fourLetterWord(zkPort, 'srvr', 1000)), 60000, 'ZooKeeper serving');
    // The module reads KRB5_CONFIG and KRB5CCNAME from this process's environment.
    Object.assign(process.env, { KRB5_CONFIG: env.KRB5_CONFIG, KRB5CCNAME: env.KRB5CCNAME });
    const modulePath = kerberosModulePath() as string;
    restoreLoader = setKerberosLoaderForTests(() => createRequire(__filename)(modulePath) as unknown);
  });

  after(() => {
    restoreLoader?.();
    zk?.kill('SIGKILL');
    kdc?.kill('SIGKILL');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('authenticates with the ticket cache; the server knows the principal as sasl:<principal>', async () => {
    const s = new ZkSession({ connectString: `localhost:${zkPort}`, sessionTimeoutMs: 10000, sasl: { mechanism: 'GSSAPI' } });
    try {
      await s.open();
      assert.deepEqual(s.security.sasl, { mechanism: 'GSSAPI', identity: `alice@${REALM}` });
      assert.ok((await s.whoAmI()).some((id) => id.scheme === 'sasl' && id.user === `alice@${REALM}`));
    } finally {
      s.close();
    }
  });

  test('a service principal the KDC does not know fails in one line, final', async () => {
    const s = new ZkSession({ connectString: `localhost:${zkPort}`, sessionTimeoutMs: 10000, sasl: { mechanism: 'GSSAPI', serviceName: 'nosuchservice' } });
    try {
      const e = await s.open().then(() => undefined, (error: unknown) => error);
      assert.ok(e instanceof ConnectFailure && e.reason === 'authFailed', String(e));
      assert.match(e.message, /SASL failed: .*not found in Kerberos database/);
      assert.ok(!e.message.includes('\n'));
    } finally {
      s.close();
    }
  });
});
