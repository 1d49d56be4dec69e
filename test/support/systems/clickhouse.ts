// A ClickHouse server (Debian's clickhouse-server) for the meaning tests: its own data folder under .tmp, loopback
// ports, and a test ZooKeeper server for its replicated tables. Queries go through clickhouse-client.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freePort } from '../ports';
import { repoRoot } from '../thirdParty/driver';

export interface ClickHouse {
  tcpPort: number;
  /** Runs one query; resolves with clickhouse-client's TabSeparated output. */
  query(sql: string): Promise<string>;
  stop(): Promise<void>;
}

function config(dir: string, ports: { tcp: number; http: number; interserver: number }, zk: { host: string; port: number }): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/error.log</errorlog></logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>${ports.tcp}</tcp_port>
  <http_port>${ports.http}</http_port>
  <interserver_http_port>${ports.interserver}</interserver_http_port>
  <interserver_http_host>127.0.0.1</interserver_http_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>1073741824</mark_cache_size>
  <zookeeper><node><host>${zk.host}</host><port>${zk.port}</port></node><session_timeout_ms>15000</session_timeout_ms></zookeeper>
</yandex>
`;
}

const USERS = `<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`;

/** Starts ClickHouse against the ZooKeeper at `zkAddress` (host:port); resolves once it answers queries. */
export async function startClickHouse(zkAddress: string): Promise<ClickHouse> {
  const [host, port] = [zkAddress.slice(0, zkAddress.lastIndexOf(':')), Number(zkAddress.slice(zkAddress.lastIndexOf(':') + 1))];
  const dir = fs.mkdtempSync(path.join(repoRoot(), '.tmp', 'clickhouse-'));
  const ports = { tcp: await freePort(), http: await freePort(), interserver: await freePort() };
  fs.writeFileSync(path.join(dir, 'config.xml'), config(dir, ports, { host, port }));
  fs.writeFileSync(path.join(dir, 'users.xml'), USERS);
  const server: ChildProcess = spawn('clickhouse-server', [`--config-file=${dir}/config.xml`], { cwd: dir, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const query = (sql: string) => new Promise<string>((resolve, reject) => {
    execFile('clickhouse-client', ['--host', '127.0.0.1', '--port', String(ports.tcp), '--query', sql], { timeout: 60000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${sql}: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
  // Ready when it answers: each try fails at once (connection refused) until the server listens.
  for (let attempt = 0; ; attempt++) {
    if (server.exitCode !== null) throw new Error(`clickhouse-server exited with ${server.exitCode}: ${readLog(dir)}`);
    try {
      await query('SELECT 1');
      break;
    } catch (error) {
      if (attempt >= 600) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    tcpPort: ports.tcp,
    query,
    stop: async () => {
      if (server.exitCode === null) {
        server.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readLog(dir: string): string {
  try {
    return fs.readFileSync(path.join(dir, 'error.log'), 'utf8').slice(-2000);
  } catch {
    return '(no log)';
  }
}
