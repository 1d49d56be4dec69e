// One line of health per ensemble member (mode, version, latency, connections, znodes, watches), from the
// AdminServer's `monitor` when it answers, else `mntr`, else `srvr` (the word every server answers).
import { isConnectStringProblem, parseConnectString } from '../connectString';
import type { PreparedTls } from '../security/tlsSettings';
import type { Dialer } from '../tunnel/dialer';
import { askAdmin, askAdminEither, askWord, parseMntr, WordRefusedError } from './serverCommands';

export interface ServerStatus {
  /** `host:clientPort`. */
  address: string;
  reachable: boolean;
  error?: string;
  /** Why the AdminServer was not used (e.g. an HTTPS certificate error), when the words answered instead. */
  adminError?: string;
  /** leader | follower | observer | standalone */
  mode?: string;
  version?: string;
  latencyMs?: { min: number; avg: number; max: number };
  connections?: number;
  znodes?: number;
  /** All watches (mntr watch_count: data and child). */
  watches?: number;
  /** Data watches (the ones watch tables can list). */
  dataWatches?: number;
  via: 'admin' | 'fourLetterWords' | 'none';
  /** The answers came over TLS (four-letter words on a secure port) or HTTPS (the AdminServer). */
  secure?: boolean;
  refusedWords?: string[];
  /** Where the member came from (see ensembleConfig.ts); the connect string when not said. */
  source?: 'connectString' | 'config' | 'both';
}

export interface EnsembleStatusOptions {
  /** AdminServer port on every member (default 8080). */
  adminPort?: number;
  /** Per member (`host:clientPort` → AdminServer port), where members differ. */
  adminPorts?: Record<string, number>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The session's TLS settings when it uses TLS: words over TLS, the AdminServer over HTTPS first. */
  tls?: PreparedTls;
  /** The session's SSH bastion, when it has one. */
  dialer?: Dialer;
  /** Members beyond the connect string (from `/zookeeper/config`), and which connect-string members it lists too. */
  members?: readonly { address: string; source: 'connectString' | 'config' | 'both' }[];
}

const num = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
};

const versionOf = (text: string | undefined) => text?.split(/[-,\s]/)[0] || undefined;

function fromMonitor(status: ServerStatus, m: Record<string, string>): void {
  status.mode = m.server_state;
  status.version = versionOf(m.version);
  const min = num(m.min_latency);
  const avg = num(m.avg_latency);
  const max = num(m.max_latency);
  if (min !== undefined && avg !== undefined && max !== undefined) status.latencyMs = { min, avg, max };
  status.connections = num(m.num_alive_connections);
  status.znodes = num(m.znode_count);
  status.watches = num(m.watch_count);
}

/** Parses `srvr`: `Zookeeper version: …`, `Latency min/avg/max: 0/0.5/3`, `Connections: 2`, `Mode: …`, `Node count: …`. */
export function parseSrvr(text: string): Partial<ServerStatus> {
  const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'mi').exec(text)?.[1].trim();
  const latency = field('Latency min/avg/max')?.split('/').map(Number);
  return {
    version: versionOf(field('Zookeeper version')),
    mode: field('Mode'),
    connections: num(field('Connections')),
    znodes: num(field('Node count')),
    latencyMs: latency && latency.length === 3 && latency.every(Number.isFinite) ? { min: latency[0], avg: latency[1], max: latency[2] } : undefined,
  };
}

async function viaAdmin(host: string, adminPort: number, status: ServerStatus, options: EnsembleStatusOptions): Promise<void> {
  const ask = { timeoutMs: options.timeoutMs, signal: options.signal, tls: options.tls, dialer: options.dialer };
  const first = await askAdminEither(host, adminPort, 'monitor', ask);
  const monitor = first.json;
  const summary = await askAdmin(host, adminPort, 'watch_summary', { ...ask, https: first.https });
  const m: Record<string, string> = {};
  for (const [k, v] of Object.entries(monitor)) if (v !== null && typeof v !== 'object') m[k] = String(v);
  fromMonitor(status, m);
  status.dataWatches = num(String(summary.num_total_watches ?? ''));
  status.via = 'admin';
  status.secure = first.https;
}

async function viaWords(host: string, port: number, status: ServerStatus, options: EnsembleStatusOptions): Promise<void> {
  const ask = { timeoutMs: options.timeoutMs, signal: options.signal, tls: options.tls, dialer: options.dialer };
  const refused: string[] = [];
  const tryWord = (word: string) => askWord(host, port, word, ask).catch((error: unknown) => {
    if (error instanceof WordRefusedError) { refused.push(word); return undefined; }
    throw error;
  });
  const [mntr, wchs] = await Promise.all([tryWord('mntr'), tryWord('wchs')]);
  if (mntr !== undefined) {
    fromMonitor(status, parseMntr(mntr));
  } else {
    const srvr = await tryWord('srvr');
    if (srvr !== undefined) Object.assign(status, Object.fromEntries(Object.entries(parseSrvr(srvr)).filter(([, v]) => v !== undefined)));
  }
  const total = wchs !== undefined ? /Total watches:\s*(\d+)/.exec(wchs) : null;
  if (total) status.dataWatches = Number(total[1]);
  status.via = status.mode || status.version ? 'fourLetterWords' : 'none';
  if (status.via === 'fourLetterWords') status.secure = !!options.tls;
  if (refused.length) status.refusedWords = refused;
}

/** Asks every member of the connect string, in parallel; never throws for a member that does not answer. */
export async function getEnsembleStatus(connectString: string, options: EnsembleStatusOptions = {}): Promise<ServerStatus[]> {
  const parsed = parseConnectString(connectString);
  if (isConnectStringProblem(parsed)) throw new Error(`bad connect string: ${parsed.code}`);
  const listed = parsed.servers.map(({ host, port }) => ({ address: `${host}:${port}`, source: 'connectString' as ServerStatus['source'] }));
  for (const m of options.members ?? []) {
    const known = listed.find((l) => l.address === m.address);
    if (known) known.source = m.source;
    else listed.push({ address: m.address, source: m.source });
  }
  return Promise.all(listed.map(async ({ address, source }) => {
    const colon = address.lastIndexOf(':');
    const host = address.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
    const port = Number(address.slice(colon + 1));
    const status: ServerStatus = { address, reachable: false, via: 'none', source };
    const adminPort = options.adminPorts?.[address] ?? options.adminPort ?? 8080;
    let adminError: string | undefined;
    try {
      await viaAdmin(host, adminPort, status, options);
      status.reachable = true;
      return status;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      adminError = (error as Error).message;
    }
    try {
      await viaWords(host, port, status, options);
      status.reachable = true;
      if (adminError) status.adminError = adminError;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      status.error = `${(error as Error).message}; ${adminError}`;
    }
    return status;
  }));
}
