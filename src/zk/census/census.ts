// The watch census of an ensemble: every member asked one at a time, each answer under its own deadline, only
// commands that read. First every member's figures (mntr or the AdminServer's monitor: what the listing will cost),
// then per member its connections (cons / connections) and its data watches listed by path (`wchp`, streamed line by
// line into a tally, so a million watches are never held as text; the AdminServer's `watches_by_path`, read whole
// and bounded, where the word is refused), and its figures again (child watches are the total less the listed ones,
// and the total is read on both sides of the listing: the larger is kept, see servers/serverTables.ts).
import type { LockQueue } from '../../shared/lockAnalysis';
import { pathInChroot } from '../analysis/serverView';
import { isJsonObject } from '../servers/exactJson';
import { parseCons } from '../servers/fourLetterWords';
import { AdminUnavailableError, askAdmin, askAdminEither, askWord, askWordLines, AskOptions, parseMntr, WordRefusedError } from '../servers/serverCommands';
import { connectionsFromAdmin, monitorFromAdmin, ServerEndpoint } from '../servers/serverTables';
import { sessionHexFromJson } from '../servers/exactJson';
import { derivedChildWatches, fanOutOf, watchCountOf } from './watchFigures';
import { herdRisks } from './herd';
import type { CensusServer, Silence, WatchCensus } from './model';
import { WatchTally } from './tally';
import { firstLine } from '../errors';

export const DEFAULT_TOP = 20;
/** Deadline of each small answer (figures, connections), per member. */
export const DEFAULT_ANSWER_MS = 5000;
/** Deadline of one member's whole watch listing. */
export const DEFAULT_LISTING_MS = 120_000;

export interface MemberCost {
  server: string;
  /** mntr's watch_count: about the lines the member will write for the listing (undefined: it would not say). */
  watchCount?: number;
}

export interface CensusOptions extends Pick<AskOptions, 'tls' | 'dialer' | 'signal'> {
  /** Sessions and paths listed (the totals count all). */
  top?: number;
  answerTimeoutMs?: number;
  listingTimeoutMs?: number;
  /** The queues to judge for the herd (paths inside `chroot`); none: no herd part. */
  queues?: readonly LockQueue[];
  chroot?: string;
  /**
   * Told what the listing will cost before any member lists its watches; false stops the census (no member has
   * been asked for its listing then).
   */
  beforeListing?(costs: MemberCost[]): boolean | Promise<boolean>;
}

/** How one member answers small questions: its AdminServer (with the scheme it speaks) or the words. */
interface Channel {
  endpoint: ServerEndpoint;
  server: string;
  admin?: { port: number; https: boolean };
  /** Why the AdminServer could not be used, when a port was given. */
  adminReason?: string;
}

interface Figures {
  monitor?: Record<string, string>;
  silence?: Silence;
}

const errorText = (error: unknown) => firstLine(error as Error);

function silenceOf(what: Silence['what'], word: string, error: unknown, adminReason?: string): Silence {
  const silence: Silence = error instanceof WordRefusedError ? { what, reason: 'refused', detail: word } : { what, reason: 'failed', detail: errorText(error) };
  if (adminReason) silence.adminServer = adminReason;
  return silence;
}

function rethrowIfCancelled(error: unknown, options: CensusOptions): void {
  if (options.signal?.aborted) throw error;
}

async function figuresOf(channel: Channel, options: CensusOptions): Promise<Figures> {
  const ask: AskOptions = { timeoutMs: options.answerTimeoutMs ?? DEFAULT_ANSWER_MS, tls: options.tls, dialer: options.dialer, signal: options.signal };
  const { host, port } = channel.endpoint;
  if (channel.admin) {
    try {
      return { monitor: monitorFromAdmin(await askAdmin(host, channel.admin.port, 'monitor', { ...ask, https: channel.admin.https })) };
    } catch (error) {
      rethrowIfCancelled(error, options);
    }
  }
  try {
    return { monitor: parseMntr(await askWord(host, port, 'mntr', ask)) };
  } catch (error) {
    rethrowIfCancelled(error, options);
    return { silence: silenceOf('figures', 'mntr', error, channel.adminReason) };
  }
}

/** The member's channel and its first figures: the AdminServer when it answers, else the words. */
async function openChannel(endpoint: ServerEndpoint, options: CensusOptions): Promise<{ channel: Channel; figures: Figures }> {
  const server = `${endpoint.host}:${endpoint.port}`;
  const channel: Channel = { endpoint, server };
  if (endpoint.adminPort) {
    try {
      const answer = await askAdminEither(endpoint.host, endpoint.adminPort, 'monitor', {
        timeoutMs: options.answerTimeoutMs ?? DEFAULT_ANSWER_MS, tls: options.tls, dialer: options.dialer, signal: options.signal,
      });
      channel.admin = { port: endpoint.adminPort, https: answer.https };
      return { channel, figures: { monitor: monitorFromAdmin(answer.json) } };
    } catch (error) {
      rethrowIfCancelled(error, options);
      channel.adminReason = error instanceof AdminUnavailableError ? error.detail : errorText(error);
    }
  }
  return { channel, figures: await figuresOf(channel, options) };
}

async function connectionsOf(channel: Channel, options: CensusOptions): Promise<{ connections?: Map<string, string>; silence?: Silence }> {
  const ask: AskOptions = { timeoutMs: options.answerTimeoutMs ?? DEFAULT_ANSWER_MS, tls: options.tls, dialer: options.dialer, signal: options.signal };
  const { host, port } = channel.endpoint;
  let adminReason = channel.adminReason;
  if (channel.admin) {
    try {
      return { connections: connectionsFromAdmin(await askAdmin(host, channel.admin.port, 'connections', { ...ask, https: channel.admin.https })) };
    } catch (error) {
      rethrowIfCancelled(error, options);
      adminReason = errorText(error);
    }
  }
  try {
    const connections = new Map<string, string>();
    for (const c of parseCons(await askWord(host, port, 'cons', ask))) if (c.sessionId && c.sessionId !== '0x0') connections.set(c.sessionId, c.client);
    return { connections };
  } catch (error) {
    rethrowIfCancelled(error, options);
    return { silence: silenceOf('connections', 'cons', error, adminReason) };
  }
}

/**
 * Lists the member's data watches into the tally: `wchp` streamed, else the AdminServer's `watches_by_path`. Returns
 * how many were listed, or why not (a listing cut short counts what came, and says so).
 */
async function listWatches(channel: Channel, tally: WatchTally, options: CensusOptions): Promise<{ listed?: number; silence?: Silence }> {
  const { host, port } = channel.endpoint;
  const before = tally.dataWatches;
  const timeoutMs = options.listingTimeoutMs ?? DEFAULT_LISTING_MS;
  let path: string | undefined;
  try {
    await askWordLines(host, port, 'wchp', { timeoutMs, tls: options.tls, dialer: options.dialer, signal: options.signal }, (line) => {
      // A path line, then one tab-indented line per session watching it. Paths cannot hold tabs or line breaks.
      if (line.startsWith('/')) path = line;
      else if (path !== undefined && line.startsWith('\t0x')) tally.add(channel.server, line.slice(1).trim().toLowerCase(), path);
    });
    return { listed: tally.dataWatches - before };
  } catch (error) {
    rethrowIfCancelled(error, options);
    const read = tally.dataWatches - before;
    if (!(error instanceof WordRefusedError)) {
      return { silence: { what: 'watches', reason: 'failed', detail: read ? `${errorText(error)} (the ${read} watches read before are counted)` : errorText(error) } };
    }
    if (!channel.admin) return { silence: silenceOf('watches', 'wchp', error, channel.adminReason) };
    try {
      const answer = await askAdmin(host, channel.admin.port, 'watches_by_path', { timeoutMs, tls: options.tls, dialer: options.dialer, signal: options.signal, https: channel.admin.https });
      const byPath = answer.path_to_session_ids;
      if (!isJsonObject(byPath)) throw new Error('watches_by_path: no path_to_session_ids in the answer');
      for (const [watched, ids] of Object.entries(byPath)) {
        if (!Array.isArray(ids)) continue;
        for (const id of ids) {
          const session = sessionHexFromJson(id);
          if (session) tally.add(channel.server, session, watched);
        }
      }
      return { listed: tally.dataWatches - before };
    } catch (adminError) {
      rethrowIfCancelled(adminError, options);
      return { silence: silenceOf('watches', 'wchp', error, errorText(adminError)) };
    }
  }
}

export async function takeCensus(endpoints: readonly ServerEndpoint[], options: CensusOptions = {}): Promise<WatchCensus | undefined> {
  const takenAt = Date.now();
  const top = options.top ?? DEFAULT_TOP;
  const queues = options.queues ?? [];
  const waiterSessions = new Set(queues.flatMap((q) => q.participants.filter((p) => p.role === 'waiter' && p.session).map((p) => p.session!)));
  const queuePaths = new Set(queues.flatMap((q) => [q.path, ...q.participants.map((p) => p.path)]));
  const inQueue = (path: string) => queuePaths.has(pathInChroot(path, options.chroot) ?? '');
  const tally = new WatchTally((session, path) => waiterSessions.has(session) && inQueue(path));

  // One member at a time, also for the figures: a census must not make every member busy at once.
  const opened: { channel: Channel; figures: Figures }[] = [];
  for (const endpoint of endpoints) opened.push(await openChannel(endpoint, options));
  const costs = opened.map(({ channel, figures }) => ({ server: channel.server, watchCount: watchCountOf(figures.monitor) }));
  if (options.beforeListing && !(await options.beforeListing(costs))) return undefined;

  const servers: CensusServer[] = [];
  const connectedTo = new Map<string, { server: string; client: string }>();
  const byServer = new Map<string, CensusServer>();
  for (const { channel, figures } of opened) {
    const row: CensusServer = { server: channel.server, via: channel.admin ? 'admin' : figures.monitor ? 'fourLetterWords' : 'none', silences: [] };
    if (figures.silence) row.silences.push(figures.silence);
    const { connections, silence: consSilence } = await connectionsOf(channel, options);
    if (consSilence) row.silences.push(consSilence);
    if (connections) {
      row.sessions = connections.size;
      if (row.via === 'none') row.via = 'fourLetterWords';
      for (const [session, client] of connections) connectedTo.set(session, { server: channel.server, client });
    }
    const { listed, silence: listSilence } = await listWatches(channel, tally, options);
    if (listSilence) row.silences.push(listSilence);
    if (listed !== undefined) {
      row.dataWatches = listed;
      if (row.via === 'none') row.via = 'fourLetterWords';
    }
    const after = figures.monitor ? await figuresOf(channel, options) : undefined;
    const totals = [watchCountOf(figures.monitor), watchCountOf(after?.monitor)];
    row.watchCount = totals[0];
    const childWatches = derivedChildWatches(listed, totals[0], totals[1]);
    if (childWatches !== undefined) {
      row.childWatches = childWatches;
      row.childWatchesDerived = true;
    }
    const fanOut = fanOutOf(after?.monitor ?? figures.monitor);
    if (fanOut) row.fanOut = fanOut;
    servers.push(row);
    byServer.set(row.server, row);
  }

  const clientOf = (session: string) => connectedTo.get(session)?.client;
  const herd = herdRisks({
    queues,
    watchesOf: (session) => new Set([...tally.keptWatches(session)].map((p) => pathInChroot(p, options.chroot)).filter((p): p is string => p !== undefined)),
    memberOf: (session) => {
      const server = connectedTo.get(session)?.server ?? tally.serverOf(session);
      const row = server === undefined ? undefined : byServer.get(server);
      return row && { server: row.server, listed: row.dataWatches !== undefined, childWatches: row.childWatches };
    },
    clientOf,
  });
  const childCounts = servers.map((s) => s.childWatches).filter((c): c is number => c !== undefined);
  return {
    takenAt, servers,
    sessions: tally.topSessions(top, clientOf),
    paths: tally.topPaths(top),
    herd,
    totals: {
      dataWatches: tally.dataWatches,
      ...(childCounts.length ? { childWatches: childCounts.reduce((a, b) => a + b, 0) } : {}),
      watchingSessions: tally.watchingSessions, watchedPaths: tally.watchedPaths,
    },
    complete: servers.every((s) => s.dataWatches !== undefined && !s.silences.some((x) => x.what === 'watches')),
  };
}
