// Who is connected to a server, what each session watches, and which ephemeral nodes each owns: read from every
// member (connections and watches are per server) through the AdminServer, or the four-letter words when the
// AdminServer cannot be used. Watch tables list DATA watches only; child watches show only in mntr's total.
import { ExactJson, isJsonObject, sessionHexFromJson } from './exactJson';
import {
  AdminUnavailableError, askAdmin, askAdminEither, askWord, AskOptions, parseDumpText, parseMntr, parseWchc, WordRefusedError,
} from './serverCommands';
import { parseCons } from './fourLetterWords';

export interface ServerEndpoint {
  host: string;
  /** Client port. */
  port: number;
  /** AdminServer port, if one is expected. */
  adminPort?: number;
}

export interface ServerTables {
  /** `host:clientPort`. */
  server: string;
  via: 'admin' | 'fourLetterWords' | 'none';
  /** The answers came over TLS (four-letter words on a secure port) or HTTPS (the AdminServer). */
  secure?: boolean;
  /** Why tables are missing or partial (e.g. words refused, server unreachable). */
  reason?: string;
  /** Why the AdminServer was not used when a port for it was given (e.g. an HTTPS certificate error), one line. */
  adminReason?: string;
  refusedWords: string[];
  /** Session → client address (`host:port`), for sessions connected to this server. */
  connections?: Map<string, string>;
  /** Session → data watches it holds on this server. */
  watches?: Map<string, string[]>;
  /** Session → ephemeral nodes (every server knows all of them: the data tree is replicated). */
  ephemerals?: Map<string, string[]>;
  /** Sessions this server's session tracker holds (only the leader's, or a standalone server's, is complete). */
  trackedSessions?: Map<string, number | undefined>;
  /**
   * AdminServer only: each tracked session's expiry time on the tracker's own clock (ms, a multiple of the tick;
   * not wall time), and the server's tickTime, for telling a session's expiry apart (history/sessionEnds.ts).
   */
  sessionExpiry?: Map<string, number>;
  tickMs?: number;
  /** mntr: server_state, watch_count, packets_received, … */
  monitor?: Record<string, string>;
  dataWatches?: number;
  /** Total watches (mntr watch_count), data and child. */
  totalWatches?: number;
  /** When the reading started (ms since epoch): anything newer than this is not in the tables yet. */
  readAt?: number;
}

export interface TableOptions extends AskOptions {
  /** Leave out what analysis does not need (dump is the heaviest on big servers). */
  skipDump?: boolean;
}

const positive = (value: ExactJson | undefined) => (typeof value === 'number' && value > 0 ? value : undefined);

const strip = (address: string) => address.replace(/^\//, '');

function objectField(json: { [key: string]: ExactJson }, key: string): { [key: string]: ExactJson } | undefined {
  const value = json[key];
  return isJsonObject(value) ? value : undefined;
}

function sessionPathsFromAdmin(table: { [key: string]: ExactJson } | undefined): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const [key, paths] of Object.entries(table ?? {})) {
    const session = sessionHexFromJson(key);
    if (session && Array.isArray(paths)) result.set(session, paths.filter((p): p is string => typeof p === 'string'));
  }
  return result;
}

/** The AdminServer's `connections` answer as session → client address (`host:port`). */
export function connectionsFromAdmin(connections: { [key: string]: ExactJson }): Map<string, string> {
  const bySession = new Map<string, string>();
  for (const list of [connections.connections, connections.secure_connections]) {
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!isJsonObject(c)) continue;
      const session = sessionHexFromJson(c.session_id);
      if (session && typeof c.remote_socket_address === 'string' && session !== '0x0') bySession.set(session, strip(c.remote_socket_address));
    }
  }
  return bySession;
}

/** The AdminServer's `monitor` answer as mntr's key → value. */
export function monitorFromAdmin(json: { [key: string]: ExactJson }): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(json)) if (value !== null && typeof value !== 'object') result[key] = String(value);
  return result;
}

function countPaths(watches: Map<string, string[]>): number {
  let n = 0;
  for (const paths of watches.values()) n += paths.length;
  return n;
}

function watchCount(monitor: Record<string, string> | undefined): number | undefined {
  const total = Number(monitor?.watch_count);
  return monitor?.watch_count !== undefined && Number.isFinite(total) ? total : undefined;
}

/**
 * Child watches are counted as the monitor's total minus the listed data watches, and the two come from separate
 * answers. The total is read before and after the tables and the larger kept: a data watch set between the first
 * total and the table would otherwise be taken off a total that never held it, and a waiter's only child watch could
 * vanish from the count (a false "stuck waiter").
 */
function finishCounts(tables: ServerTables, monitorAfter: Record<string, string> | undefined): ServerTables {
  if (tables.watches) tables.dataWatches = countPaths(tables.watches);
  const before = watchCount(tables.monitor);
  const after = watchCount(monitorAfter);
  // Without both readings the child-watch count is unknown rather than possibly short.
  if (before !== undefined && after !== undefined) tables.totalWatches = Math.max(before, after);
  return tables;
}

async function readViaAdmin(endpoint: ServerEndpoint, adminPort: number, options: TableOptions): Promise<ServerTables> {
  // The first answer tells which scheme the AdminServer speaks; the others use it.
  const first = await askAdminEither(endpoint.host, adminPort, 'monitor', options);
  const ask = (command: string) => askAdmin(endpoint.host, adminPort, command, { ...options, https: first.https });
  const monitor = first.json;
  const [connections, watches, dump] = await Promise.all([
    ask('connections'), ask('watches'), options.skipDump ? Promise.resolve(undefined) : ask('dump'),
  ]);
  const monitorAfter = await ask('monitor').then(monitorFromAdmin, () => undefined);
  const tables: ServerTables = {
    server: `${endpoint.host}:${endpoint.port}`, via: 'admin', secure: first.https, refusedWords: [],
    connections: connectionsFromAdmin(connections),
    watches: sessionPathsFromAdmin(objectField(watches, 'session_id_to_watched_paths')),
    monitor: monitorFromAdmin(monitor),
  };
  if (dump) {
    tables.ephemerals = sessionPathsFromAdmin(objectField(dump, 'session_id_to_ephemeral_paths'));
    const expiry = objectField(dump, 'expiry_time_to_session_ids');
    if (expiry) {
      // The keys are the tracker's own clock, not wall time: they stay apart from trackedSessions' wall times.
      tables.trackedSessions = new Map();
      tables.sessionExpiry = new Map();
      for (const [time, ids] of Object.entries(expiry)) {
        if (!Array.isArray(ids)) continue;
        for (const id of ids) {
          const session = sessionHexFromJson(id);
          if (!session) continue;
          tables.trackedSessions.set(session, undefined);
          if (/^\d+$/.test(time)) tables.sessionExpiry.set(session, Number(time));
        }
      }
    }
    // Only a complete tracker (the leader's, or a standalone server's) is worth its tick.
    const state = tables.monitor?.server_state;
    if (state === 'leader' || state === 'standalone') tables.tickMs = await ask('configuration').then((c) => positive(c.tick_time), () => undefined);
  }
  return finishCounts(tables, monitorAfter);
}

async function readViaWords(endpoint: ServerEndpoint, options: TableOptions, adminReason?: string): Promise<ServerTables> {
  const refused: string[] = [];
  const ask = async (word: string): Promise<string | undefined> => {
    try {
      return await askWord(endpoint.host, endpoint.port, word, options);
    } catch (error) {
      if (error instanceof WordRefusedError) {
        refused.push(word);
        return undefined;
      }
      throw error;
    }
  };
  const mntr = await ask('mntr');
  const [cons, wchc, dump] = await Promise.all([
    ask('cons'), ask('wchc'), options.skipDump ? Promise.resolve(undefined) : ask('dump'),
  ]);
  const mntrAfter = mntr === undefined ? undefined : await askWord(endpoint.host, endpoint.port, 'mntr', options).catch(() => undefined);
  const tables: ServerTables = { server: `${endpoint.host}:${endpoint.port}`, via: 'fourLetterWords', secure: !!options.tls, refusedWords: refused };
  if (cons !== undefined) {
    tables.connections = new Map();
    for (const c of parseCons(cons)) if (c.sessionId && c.sessionId !== '0x0') tables.connections.set(c.sessionId, c.client);
  }
  if (wchc !== undefined) tables.watches = parseWchc(wchc);
  if (dump !== undefined) {
    const parsed = parseDumpText(dump);
    tables.ephemerals = parsed.ephemeralsBySession;
    tables.trackedSessions = parsed.trackedSessions;
  }
  if (mntr !== undefined) tables.monitor = parseMntr(mntr);
  if (refused.length === 4 - (options.skipDump ? 1 : 0)) {
    tables.via = 'none';
    tables.reason = 'refused';
  } else if (refused.length) {
    tables.reason = 'partlyRefused';
  }
  if (adminReason) tables.adminReason = adminReason;
  if (adminReason && tables.via === 'none') tables.reason = `refused; AdminServer: ${adminReason}`;
  return finishCounts(tables, mntrAfter === undefined ? undefined : parseMntr(mntrAfter));
}

/** Reads one server's tables: AdminServer first when a port is given, else (or failing that) four-letter words. */
export async function readServerTables(endpoint: ServerEndpoint, options: TableOptions = {}): Promise<ServerTables> {
  const readAt = Date.now();
  return { ...(await readServerTablesOnce(endpoint, options)), readAt };
}

async function readServerTablesOnce(endpoint: ServerEndpoint, options: TableOptions): Promise<ServerTables> {
  let adminReason: string | undefined;
  if (endpoint.adminPort) {
    try {
      return await readViaAdmin(endpoint, endpoint.adminPort, options);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      adminReason = error instanceof AdminUnavailableError ? error.message : String(error);
    }
  }
  try {
    return await readViaWords(endpoint, options, adminReason);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return {
      server: `${endpoint.host}:${endpoint.port}`, via: 'none', refusedWords: [],
      reason: `unreachable: ${(error as Error).message}${adminReason ? `; ${adminReason}` : ''}`,
    };
  }
}

/** Reads every member's tables in parallel; a member that fails is reported with via 'none', never thrown. */
export function readAllServerTables(endpoints: ServerEndpoint[], options: TableOptions = {}): Promise<ServerTables[]> {
  return Promise.all(endpoints.map((e) => readServerTables(e, options)));
}
