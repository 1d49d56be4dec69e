// Demo data for ZooScope: a config tree in several formats, a very wide node, naturally numbered children,
// sequential nodes, a large value and digest-protected nodes. Idempotent: a re-run only adds what is missing
// and puts changed data back.
//
//   node out/scripts/demo/seed.js <connectString> [--root /zooscope-demo]
import { parseArgs } from 'node:util';
import { ZkSession } from '../../src/zk/session/session';
import { mapBounded } from '../../src/zk/timeouts';
import { AclEntry, ALL_PERMISSIONS, digestId, OPEN_ACL } from '../../src/zk/write';
import { DemoWriter } from './demoWriter';
import { systemNodes } from './systemsSeed';

export const DEMO_ROOT = '/zooscope-demo';
/** Credentials of the protected nodes; an unauthenticated session gets NoAuth there. */
export const DEMO_DIGEST_USER = 'demo';
export const DEMO_DIGEST_PASSWORD = 'demo';

export interface SeedOptions {
  root?: string;
  /** Children of `<root>/wide` (20,000). */
  wideCount?: number;
  /** Children `item-1` … `item-N` of `<root>/natural` (1,000). */
  naturalCount?: number;
  /** Persistent-sequential children of `<root>/jobs` (5). */
  sequentialCount?: number;
  /** Most create requests in flight at once (512). */
  maxInFlight?: number;
  log?: (line: string) => void;
}

export interface SeedSummary {
  root: string;
  /** Nodes this run created (the wide and natural children included). */
  created: number;
  /** Existing nodes whose data or ACL this run put back. */
  updated: number;
  wide: { path: string; created: number; existing: number; ms: number };
  natural: { path: string; created: number; existing: number; ms: number };
  totalMs: number;
}

/** A small deterministic generator so the "random" binary value is the same on every run. */
function pseudoRandomBytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }
  return out;
}

/** A PNG signature and IHDR chunk followed by noise: not valid UTF-8 (0x89 cannot start a character). */
function pngLikeBytes(): Buffer {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = Buffer.from([
    0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, // length 13, "IHDR"
    0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10, // 16 x 16
    0x08, 0x06, 0x00, 0x00, 0x00, // 8-bit RGBA
    0x1f, 0xf3, 0xff, 0x61, // CRC
  ]);
  return Buffer.concat([signature, ihdr, pseudoRandomBytes(200, 0x5eed)]);
}

/** Exactly 64 KiB of readable lines, so the UI's large-value handling can be seen. */
function largeText(bytes: number): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const line = `line ${String(i).padStart(5, '0')}: ZooKeeper keeps values up to jute.maxbuffer (1 MiB by default).\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, bytes);
}

const text = (value: string) => Buffer.from(value, 'utf8');
/** ZooDefs.Perms.READ. */
const READ = 1;

/** Path (relative to the root) → data of the config subtree; parents are created empty. */
function configNodes(): [string, Buffer | null][] {
  const apiSettings = (env: string, replicas: number) => text(JSON.stringify({
    service: 'api', environment: env, replicas,
    http: { port: 8080, tls: env === 'prod', timeouts: { connectMs: 2000, readMs: 15000 } },
    features: ['search', 'export', env === 'prod' ? 'billing' : 'billing-sandbox'],
    owner: { team: 'platform', email: 'platform@example.com' },
  }, null, 2) + '\n');
  return [
    ['config', text('Demo configuration tree: JSON, YAML, properties, XML and binary values.')],
    ['config/env/prod/services/api/settings.json', apiSettings('prod', 6)],
    ['config/env/prod/services/api/logging.yaml', text([
      'logging:', '  level: INFO', '  format: json', '  loggers:', '    org.apache.zookeeper: WARN',
      '    com.example.api: DEBUG', '  appenders:', '    - type: console', '    - type: file',
      '      path: /var/log/api/api.log', '      maxSizeMb: 100', '',
    ].join('\n'))],
    ['config/env/prod/services/billing/db.properties', text([
      '# Billing database', 'db.url=jdbc:postgresql://db.prod.internal:5432/billing', 'db.user=billing',
      'db.pool.min=4', 'db.pool.max=32', 'db.pool.idleTimeout=PT10M', 'feature.invoices.v2=true', '',
    ].join('\n'))],
    ['config/env/staging/services/api/settings.json', apiSettings('staging', 2)],
    ['config/env/staging/services/api/logging.yaml', text('logging:\n  level: DEBUG\n  format: text\n')],
    ['config/legacy/spring/beans.xml', text([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<beans xmlns="http://www.springframework.org/schema/beans">',
      '  <bean id="zkClient" class="org.apache.curator.framework.CuratorFrameworkFactory" factory-method="newClient">',
      '    <constructor-arg value="127.0.0.1:2181"/>',
      '    <constructor-arg><bean class="org.apache.curator.retry.ExponentialBackoffRetry">',
      '      <constructor-arg value="1000"/><constructor-arg value="3"/>',
      '    </bean></constructor-arg>',
      '  </bean>',
      '</beans>', '',
    ].join('\n'))],
    ['config/assets/logo.png', pngLikeBytes()],
    ['config/feature-flags/dark-mode', text('on')],
    ['config/feature-flags/new-checkout', text('off')],
    ['config/empty', null],
  ];
}

class Seeder {
  created = 0;
  updated = 0;
  constructor(private readonly writer: DemoWriter, private readonly root: string, private readonly log: (line: string) => void) {}

  path(relative: string): string {
    return relative ? `${this.root}/${relative}` : this.root;
  }

  /** The node exists with exactly this data (and this ACL, when given). */
  async ensureNode(relative: string, data: Buffer | null, acl?: readonly AclEntry[]): Promise<void> {
    const path = this.path(relative);
    const parent = path.slice(0, path.lastIndexOf('/'));
    if (parent) await this.writer.ensurePath(parent);
    if (await this.writer.createIfMissing(path, data ?? undefined, acl)) {
      this.created++;
      return;
    }
    let changed = false;
    if (acl && !sameAcl(await this.writer.getAcl(path), acl)) {
      await this.writer.setAcl(path, acl);
      changed = true;
    }
    const wanted = data ?? Buffer.alloc(0);
    if (!(await this.writer.getData(path)).equals(wanted)) {
      await this.writer.setData(path, wanted);
      changed = true;
    }
    if (changed) {
      this.updated++;
      this.log(`updated ${path}`);
    }
  }

  /** Creates the missing children among `names` under `relative`, pipelined with a bounded window. */
  async ensureChildren(relative: string, names: string[], maxInFlight: number) {
    const parent = this.path(relative);
    const started = Date.now();
    await this.writer.ensurePath(parent);
    const present = new Set(await this.writer.children(parent));
    const missing = names.filter((name) => !present.has(name));
    // Another seeder may get there first: a node that exists counts as present.
    const results = await mapBounded(missing, maxInFlight, (name) => this.writer.createIfMissing(`${parent}/${name}`));
    const created = results.filter(Boolean).length;
    this.created += created;
    const ms = Date.now() - started;
    this.log(`${parent}: ${created} children created, ${names.length - missing.length} already there (${ms} ms)`);
    return { path: parent, created, existing: names.length - missing.length, ms };
  }

  /** Tops `relative` up to `count` persistent-sequential children named `<prefix><seq10>`. */
  async ensureSequential(relative: string, prefix: string, count: number): Promise<void> {
    const parent = this.path(relative);
    await this.writer.ensurePath(parent);
    const present = (await this.writer.children(parent)).filter((name) => name.startsWith(prefix)).length;
    for (let i = present; i < count; i++) {
      const data = text(JSON.stringify({ job: `nightly-report-${i + 1}`, state: i === 0 ? 'done' : 'queued' }));
      await this.writer.create(`${parent}/${prefix}`, data, 'persistentSequential');
      this.created++;
    }
  }
}

function sameAcl(a: readonly AclEntry[], b: readonly AclEntry[]): boolean {
  const key = (entry: AclEntry) => `${entry.perms}/${entry.scheme}/${entry.id}`;
  return a.length === b.length && a.map(key).sort().join('|') === b.map(key).sort().join('|');
}

/** Creates (or completes) the demo data under `options.root` (default `/zooscope-demo`). */
export async function seedDemoData(connectString: string, options: SeedOptions = {}): Promise<SeedSummary> {
  const root = (options.root ?? DEMO_ROOT).replace(/\/+$/, '');
  if (!root.startsWith('/') || root === '') throw new Error(`root must be an absolute path other than /: ${root}`);
  const log = options.log ?? (() => undefined);
  const maxInFlight = options.maxInFlight ?? 512;
  const started = Date.now();
  // Authenticated, so a re-run may read and repair the protected nodes.
  const session = new ZkSession({ connectString, sessionTimeoutMs: 15000, digest: [`${DEMO_DIGEST_USER}:${DEMO_DIGEST_PASSWORD}`] });
  await session.open();
  try {
    const seeder = new Seeder(new DemoWriter(session), root, log);
    await seeder.ensureNode('', text('ZooScope demo data (scripts/demo/seed.ts)'));

    for (const [relative, data] of configNodes()) await seeder.ensureNode(relative, data);

    const wideCount = options.wideCount ?? 20000;
    const wideNames = Array.from({ length: wideCount }, (_, i) => `child-${String(i + 1).padStart(5, '0')}`);
    await seeder.ensureNode('wide', text(`${wideCount} children`));
    const wide = await seeder.ensureChildren('wide', wideNames, maxInFlight);

    const naturalCount = options.naturalCount ?? 1000;
    await seeder.ensureNode('natural', text('children item-1 … item-N, not zero-padded: sort them naturally'));
    const natural = await seeder.ensureChildren('natural', Array.from({ length: naturalCount }, (_, i) => `item-${i + 1}`), maxInFlight);

    await seeder.ensureNode('jobs', text('persistent-sequential children'));
    await seeder.ensureSequential('jobs', 'job-', options.sequentialCount ?? 5);

    await seeder.ensureNode('big-value', largeText(64 * 1024));

    const digestAcl: AclEntry[] = [{ scheme: 'digest', id: digestId(DEMO_DIGEST_USER, DEMO_DIGEST_PASSWORD), perms: ALL_PERMISSIONS }];
    await seeder.ensureNode('secured', text('only digest demo:demo may read this'), digestAcl);
    await seeder.ensureNode('secured/credentials', text('{"apiKey":"not-a-real-key"}'), digestAcl);
    const readOnly: AclEntry[] = [{ scheme: 'world', id: 'anyone', perms: READ }, ...digestAcl];
    await seeder.ensureNode('read-only', text('world may read, only demo:demo may write'), readOnly);

    // What other systems keep in ZooKeeper, for the tree to show what it means.
    for (const [relative, data] of systemNodes()) await seeder.ensureNode(relative, data);

    // Parents the lock clients and services use (they create them too, if the seed did not run).
    await seeder.ensureNode('locks', null, OPEN_ACL);
    await seeder.ensureNode('services/api', null, OPEN_ACL);

    const totalMs = Date.now() - started;
    log(`seeded ${root}: ${seeder.created} created, ${seeder.updated} updated in ${totalMs} ms`);
    return { root, created: seeder.created, updated: seeder.updated, wide, natural, totalMs };
  } finally {
    session.close();
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { root: { type: 'string' }, 'wide-count': { type: 'string' } },
  });
  const connectString = positionals[0];
  if (!connectString) {
    console.error('usage: node out/scripts/demo/seed.js <connectString> [--root /zooscope-demo] [--wide-count 20000]');
    process.exit(2);
  }
  await seedDemoData(connectString, {
    root: values.root,
    wideCount: values['wide-count'] === undefined ? undefined : Number(values['wide-count']),
    log: (line) => console.log(line),
  });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`seed failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
