// Patroni (Debian's patroni 3.0.2 with kazoo and PostgreSQL 15) for the meaning tests: members of one cluster
// on loopback ports, their folders under the system's temporary directory, using a test ZooKeeper as DCS.
// PostgreSQL refuses to run as root, so when the tests run as root each member runs as the `postgres` user.
import { ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../ports';

export interface PatroniMember { name: string; dir: string; config: string; process: ChildProcess; exited: Promise<void> }

/** One row of `patronictl list -f json`. */
export interface PatronictlRow { Cluster: string; Member: string; Host: string; Role: string; State: string; TL?: number; 'Lag in MB'?: number | string }

function binDir(): string {
  const versions = fs.readdirSync('/usr/lib/postgresql').filter((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/initdb`)).sort();
  if (!versions.length) throw new Error('PostgreSQL missing: run scripts/zk/ensure-systems.sh');
  return `/usr/lib/postgresql/${versions.at(-1)}/bin`;
}

const asPostgres = process.getuid?.() === 0;
const command = (args: string[]): [string, string[]] => (asPostgres ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0], args.slice(1)]);

export async function startPatroniMember(scope: string, name: string, zkAddress: string): Promise<PatroniMember> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `zooscope-patroni-${name}-`));
  const [apiPort, pgPort] = [await freePort(), await freePort()];
  const config = path.join(dir, 'patroni.yml');
  fs.writeFileSync(config, `scope: ${scope}
namespace: /service/
name: ${name}
log: {level: WARNING}
restapi: {listen: 127.0.0.1:${apiPort}, connect_address: 127.0.0.1:${apiPort}}
zookeeper: {hosts: ['${zkAddress}']}
bootstrap:
  dcs: {ttl: 30, loop_wait: 2, retry_timeout: 10, maximum_lag_on_failover: 1048576}
  initdb: [{encoding: UTF8}]
postgresql:
  listen: 127.0.0.1:${pgPort}
  connect_address: 127.0.0.1:${pgPort}
  data_dir: ${dir}/data
  bin_dir: ${binDir()}
  pgpass: ${dir}/pgpass
  authentication:
    replication: {username: replicator, password: rep-pass}
    superuser: {username: postgres, password: su-pass}
  parameters: {unix_socket_directories: '${dir}'}
`);
  if (asPostgres) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const [cmd, args] = command(['patroni', config]);
  const child = spawn(cmd, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { name, dir, config, process: child, exited };
}

/** `patronictl list -f json` for the member's cluster. */
export function patronictlList(member: PatroniMember): Promise<PatronictlRow[]> {
  const [cmd, args] = command(['patronictl', '-c', member.config, 'list', '-f', 'json']);
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: 60000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(stderr || error.message));
      else resolve(JSON.parse(stdout || '[]') as PatronictlRow[]);
    });
  });
}

export async function stopPatroniMember(member: PatroniMember): Promise<void> {
  if (member.process.exitCode === null) {
    member.process.kill('SIGTERM'); // runuser passes it on; Patroni stops PostgreSQL before it exits
    await member.exited;
  }
  fs.rmSync(member.dir, { recursive: true, force: true });
}
