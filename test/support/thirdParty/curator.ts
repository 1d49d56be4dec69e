// Starts the Java driver for Curator 5.4.0 and ZooKeeper's own lock/election recipes (CuratorDriver.java,
// Contender.java, Workloads.java; protocol in driver.ts). The sources are compiled with javac against Debian's jars
// into .tmp/thirdParty/curator-<hash of the sources>/, once per change of the sources.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, startDriver, ThirdPartyClient } from './driver';

const JARS = [
  'curator-recipes', 'curator-framework', 'curator-client', 'zookeeper', 'zookeeper-jute', 'zookeeper-recipes-lock',
  'zookeeper-recipes-election', 'guava', 'slf4j-api', 'slf4j-nop',
].map((name) => `/usr/share/java/${name}.jar`);
const SOURCES = ['CuratorDriver.java', 'Contender.java', 'Workloads.java'];

export function curatorClassPath(): string {
  const missing = JARS.filter((jar) => !fs.existsSync(jar));
  if (missing.length) throw new Error(`Curator/ZooKeeper jars missing (${missing.join(', ')}): run scripts/zk/ensure-clients.sh`);
  return JARS.join(':');
}

/** Compiles the driver if needed; returns the folder with its classes. */
export function compileCuratorDriver(): string {
  const root = repoRoot();
  const sourceDir = path.join(root, 'test', 'support', 'thirdParty');
  const hash = createHash('sha256');
  for (const file of SOURCES) hash.update(fs.readFileSync(path.join(sourceDir, file)));
  const classes = path.join(root, '.tmp', 'thirdParty', `curator-${hash.digest('hex').slice(0, 16)}`);
  if (fs.existsSync(path.join(classes, 'CuratorDriver.class'))) return classes;
  // Compile beside and rename: another test process may be compiling the same sources at the same time.
  const building = `${classes}.${process.pid}`;
  fs.mkdirSync(building, { recursive: true });
  execFileSync('javac', ['-nowarn', '-d', building, '-cp', curatorClassPath(), ...SOURCES.map((f) => path.join(sourceDir, f))], { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    fs.renameSync(building, classes);
  } catch {
    fs.rmSync(building, { recursive: true, force: true }); // the other process won
  }
  return classes;
}

/**
 * A Curator/ZooKeeper-recipes driver connected to `connectString` (each contender on a session of its own).
 * `java`: JVM flags and class path additions for the ZooKeeper client, e.g. TLS and SASL (javaClientSecurityFlags).
 */
export function startCurator(connectString: string, sessionTimeoutMs = 15000, java: { flags: string[]; classPath: string[] } = { flags: [], classPath: [] }): Promise<ThirdPartyClient> {
  const classes = compileCuratorDriver();
  return startDriver('curator', 'java', [
    '-Xss512k', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', ...java.flags, '-cp', [classes, curatorClassPath(), ...java.classPath].join(':'),
    'CuratorDriver', connectString, String(sessionTimeoutMs),
  ]);
}
