// Runs DiscoveryDriver.java (Curator's service discovery) against a test server: compiled with javac against
// Debian's jars into .tmp/systems/discovery-<hash>/, once per change of the source.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { repoRoot } from '../thirdParty/driver';

const JARS = ['curator-x-discovery', 'curator-framework', 'curator-client', 'zookeeper', 'zookeeper-jute', 'guava', 'jackson-databind',
  'jackson-core', 'jackson-annotations', 'slf4j-api', 'slf4j-nop'].map((name) => `/usr/share/java/${name}.jar`);

export interface DiscoveredInstance { id: string; name: string; address: string; port: number; registrationTimeUTC: number; serviceType: string }

function compile(): string {
  const missing = JARS.filter((jar) => !fs.existsSync(jar));
  if (missing.length) throw new Error(`jars missing (${missing.join(', ')}): run scripts/zk/ensure-systems.sh`);
  const source = path.join(repoRoot(), 'test', 'support', 'systems', 'DiscoveryDriver.java');
  const classes = path.join(repoRoot(), '.tmp', 'systems', `discovery-${createHash('sha256').update(fs.readFileSync(source)).digest('hex').slice(0, 16)}`);
  if (fs.existsSync(path.join(classes, 'DiscoveryDriver.class'))) return classes;
  const building = `${classes}.${process.pid}`;
  fs.mkdirSync(building, { recursive: true });
  execFileSync('javac', ['-nowarn', '-d', building, '-cp', JARS.join(':'), source], { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    fs.renameSync(building, classes);
  } catch {
    fs.rmSync(building, { recursive: true, force: true }); // another process compiled it first
  }
  return classes;
}

/** Registers `count` instances of `service` under `basePath`; resolves with what the discovery API reports for them. */
export function registerInstances(connectString: string, basePath: string, service: string, count: number):
  Promise<{ instances: DiscoveredInstance[]; process: ChildProcess }> {
  const classes = compile();
  const child = spawn('java', ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-cp', [classes, ...JARS].join(':'), 'DiscoveryDriver',
    connectString, basePath, service, String(count)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return new Promise((resolve, reject) => {
    const instances: DiscoveredInstance[] = [];
    const lines = readline.createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line === 'ready') resolve({ instances, process: child });
      else instances.push(JSON.parse(line) as DiscoveredInstance);
    });
    child.on('exit', (code) => reject(new Error(`DiscoveryDriver exited with ${code}: ${stderr}`)));
  });
}
