// One ensemble member's figures for the consistency check, read from what it allows: `mntr`, `srvr` and `conf`
// (four-letter words), or the AdminServer's `monitor`, `server_stats` and `configuration`. Every answer is
// untrusted: a figure that is missing, malformed or out of range is unknown, with the reason, never a guess.
import type { ExactJson } from './exactJson';
import { parseMntr } from './serverCommands';

/** The figures compared across members, in the order they are shown. */
export const FIGURE_NAMES = ['mode', 'zxid', 'znodes', 'ephemerals', 'connections', 'watches', 'dataSize', 'outstanding', 'latency'] as const;
export type FigureName = (typeof FIGURE_NAMES)[number];

/** A zxid: the leader's epoch (high 32 bits) and the transaction counter within it (low 32 bits). */
export interface Zxid {
  epoch: number;
  counter: number;
}

export interface MemberFigures {
  mode?: string;
  zxid?: Zxid;
  znodes?: number;
  ephemerals?: number;
  connections?: number;
  watches?: number;
  /** Approximate data size in bytes. */
  dataSize?: number;
  outstanding?: number;
  latency?: { min: number; avg: number; max: number };
  /** `serverId` from `conf` / `configuration` (myid), when allowed. */
  serverId?: number;
  /** Why a figure is unknown (the word was not allowed, the answer lacked it). */
  unknown: Partial<Record<FigureName, string>>;
}

const MAX_ZXID = (1n << 64n) - 1n;

/** `0x100000003` (srvr) or a decimal (AdminServer) → epoch and counter; undefined for anything else. */
export function parseZxid(text: string | undefined): Zxid | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (!/^(0x[0-9a-f]{1,16}|\d{1,20})$/i.test(trimmed)) return undefined;
  const value = BigInt(trimmed);
  if (value > MAX_ZXID) return undefined;
  return { epoch: Number(value >> 32n), counter: Number(value & 0xffffffffn) };
}

export function zxidText(zxid: Zxid): string {
  return `0x${((BigInt(zxid.epoch) << 32n) | BigInt(zxid.counter)).toString(16)}`;
}

/** A count: a whole, non-negative number within what a server could report. */
function count(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,15}$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

function decimal(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,15}(\.\d{1,20})?$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

const MODES = new Set(['leader', 'follower', 'observer', 'standalone', 'read-only']);

/** Only the modes ZooKeeper has; anything else a server sends is not shown as a mode. */
function mode(text: string | undefined): string | undefined {
  const m = text?.trim().toLowerCase();
  return m && MODES.has(m) ? m : undefined;
}

function latency(min?: string, avg?: string, max?: string): MemberFigures['latency'] {
  const [a, b, c] = [decimal(min), decimal(avg), decimal(max)];
  return a !== undefined && b !== undefined && c !== undefined ? { min: a, avg: b, max: c } : undefined;
}

/** `mntr` / `monitor` keys (without `zk_`) → figures. */
function fromMonitor(m: Record<string, string>): Partial<MemberFigures> {
  return {
    mode: mode(m.server_state), znodes: count(m.znode_count), ephemerals: count(m.ephemerals_count),
    connections: count(m.num_alive_connections), watches: count(m.watch_count), dataSize: count(m.approximate_data_size),
    outstanding: count(m.outstanding_requests), latency: latency(m.min_latency, m.avg_latency, m.max_latency),
  };
}

/** `srvr` lines (`Mode: follower`, `Zxid: 0x…`, `Node count: 5`, `Latency min/avg/max: 0/0.1/3`…) → figures. */
export function figuresFromSrvr(text: string): Partial<MemberFigures> {
  const field = (name: string) => new RegExp(`^${name}:[ \\t]*(.*)$`, 'mi').exec(text)?.[1].trim();
  const lat = field('Latency min/avg/max')?.split('/');
  return {
    mode: mode(field('Mode')), zxid: parseZxid(field('Zxid')), znodes: count(field('Node count')),
    connections: count(field('Connections')), outstanding: count(field('Outstanding')),
    latency: lat?.length === 3 ? latency(lat[0], lat[1], lat[2]) : undefined,
  };
}

export const figuresFromMntr = (text: string): Partial<MemberFigures> => fromMonitor(parseMntr(text));

/** `conf`: `serverId=3`. */
export function serverIdFromConf(text: string): number | undefined {
  return count(/^serverId=(.*)$/m.exec(text)?.[1]);
}

function flat(json: { [key: string]: ExactJson } | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [k, v] of Object.entries(json ?? {})) if (v !== null && typeof v !== 'object') result[k] = String(v);
  return result;
}

/** AdminServer answers → figures (`server_stats.last_processed_zxid` is the zxid; a decimal, kept exact). */
export function figuresFromAdmin(monitor: { [key: string]: ExactJson }, serverStats?: { [key: string]: ExactJson }, configuration?: { [key: string]: ExactJson }): Partial<MemberFigures> {
  const inner = serverStats?.server_stats;
  const stats = inner && typeof inner === 'object' && !Array.isArray(inner) ? flat(inner) : {};
  return { ...fromMonitor(flat(monitor)), zxid: parseZxid(stats.last_processed_zxid), serverId: count(flat(configuration).server_id) };
}

/** Which answer each figure comes from when the words are used (to say why it is unknown). */
const WORD_OF: Record<FigureName, string> = {
  mode: 'srvr', zxid: 'srvr', znodes: 'srvr', connections: 'srvr', outstanding: 'srvr', latency: 'srvr',
  ephemerals: 'mntr', watches: 'mntr', dataSize: 'mntr',
};

/**
 * Merges what the words answered (srvr first for what both carry; mntr for the rest) and says why each missing
 * figure is unknown: the word was refused (`mntr not allowed`) or answered without it.
 */
export function mergeWordFigures(answers: { mntr?: string; srvr?: string; conf?: string }, refused: readonly string[]): MemberFigures {
  const fromMntr = answers.mntr !== undefined ? figuresFromMntr(answers.mntr) : {};
  const fromSrvr = answers.srvr !== undefined ? figuresFromSrvr(answers.srvr) : {};
  const merged: MemberFigures = { unknown: {} };
  for (const name of FIGURE_NAMES) {
    const value = fromSrvr[name] ?? fromMntr[name];
    if (value !== undefined) (merged as unknown as Record<string, unknown>)[name] = value;
    else {
      const word = WORD_OF[name];
      merged.unknown[name] = refused.includes(word) ? `${word} not allowed` : `not in the answer to ${word}`;
    }
  }
  if (answers.conf !== undefined) merged.serverId = serverIdFromConf(answers.conf);
  return merged;
}

/** AdminServer figures with the reason for each missing one. */
export function adminFigures(partial: Partial<MemberFigures>): MemberFigures {
  const merged: MemberFigures = { ...partial, unknown: {} };
  for (const name of FIGURE_NAMES) if (merged[name] === undefined) merged.unknown[name] = 'not in the AdminServer answer';
  return merged;
}
