// ZooKeeper quotas as zkCli 3.8 keeps them, so quotas set here and by zkCli are the same thing: for a node /a/b,
// /zookeeper/quota/a/b/zookeeper_limits holds the limits and .../zookeeper_stats the usage the server maintains,
// both in StatsTrack's text form (`count=5,bytes=-1=;byteHardLimit=-1;countHardLimit=-1`). -1 means "no limit".
// The soft limits (count, bytes) only log a warning on the server; the hard ones (countHardLimit, byteHardLimit)
// make writes fail with quotaExceeded when the server has zookeeper.enforceQuota=true.
import { ErrorCode, isZkError, ZkError } from '../errors';
import { createNullable, getDataNullable } from '../protocol/nullableData';
import { deleteNode, OPEN_ACL, setData } from '../protocol/writes';
import type { ZkSession } from '../session/session';

export const QUOTA_ROOT = '/zookeeper/quota';
export const LIMIT_NODE = 'zookeeper_limits';
export const STAT_NODE = 'zookeeper_stats';

export const quotaPath = (path: string): string => QUOTA_ROOT + path;
export const limitPath = (path: string): string => `${QUOTA_ROOT}${path}/${LIMIT_NODE}`;
export const statPath = (path: string): string => `${QUOTA_ROOT}${path}/${STAT_NODE}`;

/** The four StatsTrack keys. */
export type QuotaKey = 'count' | 'bytes' | 'countHardLimit' | 'byteHardLimit';

/** StatsTrack: key → value, in the order the keys were set (only the printed order matters, see format). */
export type StatsTrack = Map<string, bigint>;

/** Parses StatsTrack text (`count=1,bytes=2=;byteHardLimit=3`): pairs split on `,` or `;`, an empty value is -1. */
export function parseStatsTrack(text: string): StatsTrack {
  const stats: StatsTrack = new Map();
  if (!text) return stats;
  for (const pair of text.split(/[,;]+/)) {
    const [key, value] = pair.split('=');
    if (value === undefined) throw new Error(`malformed quota text ${JSON.stringify(text)}`);
    stats.set(key, value === '' ? -1n : BigInt(value));
  }
  return stats;
}

export const statsValue = (stats: StatsTrack, key: QuotaKey): bigint => stats.get(key) ?? -1n;

/**
 * StatsTrack.toString(): count and bytes first (old readers parse only those), then, after an extra `=` that old
 * parsers ignore, the other keys sorted: `count=5,bytes=-1=;byteHardLimit=-1;countHardLimit=-1`.
 */
export function formatStatsTrack(stats: StatsTrack): string {
  const rest = [...stats.keys()].filter((k) => k !== 'count' && k !== 'bytes').sort();
  let text = `count=${statsValue(stats, 'count')},bytes=${statsValue(stats, 'bytes')}`;
  if (rest.length) text += '=' + rest.map((k) => `;${k}=${stats.get(k)}`).join('');
  return text;
}

export interface QuotaInfo {
  limits: StatsTrack;
  usage: StatsTrack;
}

/** A quota the server holds for `path`, or undefined when there is none. */
export type QuotaState = 'within' | 'overSoft' | 'atHard';

/** Where a node stands against its limits: over a soft limit (the server only logs it), or at a hard one. */
export function quotaState(quota: QuotaInfo): QuotaState {
  const level = (soft: 'count' | 'bytes', hard: 'countHardLimit' | 'byteHardLimit'): QuotaState => {
    const used = statsValue(quota.usage, soft);
    const hardLimit = statsValue(quota.limits, hard);
    if (hardLimit > -1n && used >= hardLimit) return 'atHard';
    const softLimit = statsValue(quota.limits, soft);
    return softLimit > -1n && used > softLimit ? 'overSoft' : 'within';
  };
  const states = [level('count', 'countHardLimit'), level('bytes', 'byteHardLimit')];
  return states.includes('atHard') ? 'atHard' : states.includes('overSoft') ? 'overSoft' : 'within';
}

export async function readQuota(session: ZkSession, path: string): Promise<QuotaInfo | undefined> {
  try {
    const limits = await session.request(getDataNullable(session.channel, limitPath(path), false), 'getData', limitPath(path));
    const usage = await session.request(getDataNullable(session.channel, statPath(path), false), 'getData', statPath(path));
    return { limits: parseStatsTrack(limits.data?.toString('utf8') ?? ''), usage: parseStatsTrack(usage.data?.toString('utf8') ?? '') };
  } catch (error) {
    if (isZkError(error, 'noNode')) return undefined;
    throw error;
  }
}

/** Why a quota cannot be set, in zkCli's words. */
export class QuotaRefusal extends Error {}

export interface QuotaLimits {
  count?: bigint;
  bytes?: bigint;
  countHardLimit?: bigint;
  byteHardLimit?: bigint;
}

export interface SetQuotaResult {
  /** zkCli's warnings when the new limit is already below the usage. */
  warnings: string[];
}

const exists = (session: ZkSession, path: string) => session.exists(path);
const children = async (session: ZkSession, path: string) => (await session.getChildren(path)).children;

async function createEmpty(session: ZkSession, path: string, data: Buffer | null = null): Promise<void> {
  try {
    await session.request(createNullable(session.channel, { path, data, acl: OPEN_ACL, flags: 0 }), 'create', path);
  } catch (error) {
    if (!isZkError(error, 'nodeExists')) throw error;
  }
}

/** Depth-first, pre-order, children sorted, as ZKUtil.visitSubTreeDFS (without its first getData). */
async function visitDfs(session: ZkSession, path: string, visit: (path: string) => Promise<void>): Promise<void> {
  await visit(path);
  await visitChildren(session, path, visit);
}

async function visitChildren(session: ZkSession, path: string, visit: (path: string) => Promise<void>): Promise<void> {
  const names = (await childrenIfAny(session, path))?.sort();
  if (!names) return;
  const paths = names.map((n) => (path === '/' ? '/' : path + '/') + n);
  for (const p of paths) await visit(p);
  for (const p of paths) await visitChildren(session, p, visit);
}

/** The children of `path`; undefined when it does not exist. */
async function childrenIfAny(session: ZkSession, path: string): Promise<string[] | undefined> {
  try {
    return await children(session, path);
  } catch (error) {
    if (isZkError(error, 'noNode')) return undefined;
    throw error;
  }
}

async function checkNoChildQuota(session: ZkSession, path: string): Promise<void> {
  const root = quotaPath(path);
  try {
    await session.getData(root);
  } catch (error) {
    if (isZkError(error, 'noNode')) return;
    throw error;
  }
  await visitDfs(session, root, async (p) => {
    const names = await childrenIfAny(session, p);
    if (!names) return;
    if (p !== QUOTA_ROOT + path && names.includes(LIMIT_NODE)) {
      throw new QuotaRefusal(`${path} has a child ${p.slice(QUOTA_ROOT.length)} which has a quota`);
    }
  });
}

async function checkNoParentQuota(session: ZkSession, path: string): Promise<void> {
  const segments = path.split('/');
  let p = QUOTA_ROOT;
  for (let i = 1; i < segments.length - 1; i++) {
    p += '/' + segments[i];
    const names = await childrenIfAny(session, p);
    if (!names || names.length === 0) return;
    if (p !== quotaPath(path) && names.includes(LIMIT_NODE)) {
      throw new QuotaRefusal(`${path} has a parent ${p.slice(QUOTA_ROOT.length)} which has a quota`);
    }
  }
}

function warningsFor(limits: StatsTrack, usage: StatsTrack): string[] {
  const warnings: string[] = [];
  const over = (soft: QuotaKey, hard: QuotaKey, used: QuotaKey) => {
    const u = statsValue(usage, used);
    return (statsValue(limits, soft) > -1n && statsValue(limits, soft) < u) || (statsValue(limits, hard) > -1n && statsValue(limits, hard) < u);
  };
  if (over('count', 'countHardLimit', 'count')) warnings.push(`[Warning]: the count quota you create is less than the existing count:${statsValue(usage, 'count')}`);
  if (over('bytes', 'byteHardLimit', 'bytes')) warnings.push(`[Warning]: the bytes quota you create is less than the existing bytes:${statsValue(usage, 'bytes')}`);
  return warnings;
}

/**
 * SetQuotaCommand.createQuota: sets the given limits on an existing node (others keep their value), refusing a
 * node that has a quota above or below it. Throws QuotaRefusal with zkCli's message, or a ZkError.
 */
export async function setQuota(session: ZkSession, path: string, limits: QuotaLimits): Promise<SetQuotaResult> {
  if (!(await exists(session, path))) throw new QuotaRefusal(`${path} does not exist.`);
  await checkNoChildQuota(session, path);
  await checkNoParentQuota(session, path);
  if (!(await exists(session, QUOTA_ROOT))) {
    await createEmpty(session, '/zookeeper');
    await createEmpty(session, QUOTA_ROOT);
  }
  let node = QUOTA_ROOT;
  for (const segment of path.split('/').slice(1)) {
    node += '/' + segment;
    if (!(await exists(session, node))) await createEmpty(session, node);
  }
  const limit = limitPath(path);
  const stat = statPath(path);
  const read = async (p: string) => parseStatsTrack((await session.request(getDataNullable(session.channel, p, false), 'getData', p)).data?.toString('utf8') ?? '');
  if (!(await exists(session, limit))) {
    const fresh: StatsTrack = new Map([['count', limits.count ?? -1n], ['bytes', limits.bytes ?? -1n],
      ['countHardLimit', limits.countHardLimit ?? -1n], ['byteHardLimit', limits.byteHardLimit ?? -1n]]);
    await session.request(createNullable(session.channel, { path: limit, data: Buffer.from(formatStatsTrack(fresh)), acl: OPEN_ACL, flags: 0 }), 'create', limit);
    await session.request(createNullable(session.channel, { path: stat, data: Buffer.from('count=0,bytes=0'), acl: OPEN_ACL, flags: 0 }), 'create', stat);
    return { warnings: warningsFor(await read(limit), await read(stat)) };
  }
  const current = await read(limit);
  for (const key of ['count', 'bytes', 'countHardLimit', 'byteHardLimit'] as const) {
    const value = limits[key];
    if (value !== undefined && value > -1n) current.set(key, value);
  }
  const warnings = warningsFor(current, await read(stat));
  await session.request(setData(session.channel, limit, Buffer.from(formatStatsTrack(current)), -1), 'setData', limit);
  return { warnings };
}

export type DeleteQuotaResult = 'deleted' | 'noQuota';

/**
 * DelQuotaCommand.delQuota: with `which`, resets those limits to -1; without, removes the quota nodes and the
 * quota folders left empty above them.
 */
export async function deleteQuota(session: ZkSession, path: string, which?: readonly QuotaKey[]): Promise<DeleteQuotaResult> {
  const limit = limitPath(path);
  if (!(await exists(session, limit))) return 'noQuota';
  const data = await session.request(getDataNullable(session.channel, limit, false), 'getData', limit);
  const current = parseStatsTrack(data.data?.toString('utf8') ?? '');
  if (!which) {
    const parent = quotaPath(path);
    for (const child of await children(session, parent)) {
      await session.request(deleteNode(session.channel, `${parent}/${child}`, -1), 'delete', `${parent}/${child}`);
    }
    await trimEmptyQuotaFolders(session, parent);
    return 'deleted';
  }
  for (const key of which) current.set(key, -1n);
  await session.request(setData(session.channel, limit, Buffer.from(formatStatsTrack(current)), -1), 'setData', limit);
  return 'deleted';
}

async function trimEmptyQuotaFolders(session: ZkSession, path: string): Promise<void> {
  for (let p = path; p !== QUOTA_ROOT; p = p.slice(0, p.lastIndexOf('/'))) {
    if ((await children(session, p)).length > 0) return;
    await session.request(deleteNode(session.channel, p, -1), 'delete', p);
  }
}

/** Whether an error is the server refusing a write over a hard quota. */
export const isQuotaExceeded = (error: unknown): boolean => error instanceof ZkError && error.zkCode === ErrorCode.quotaExceeded;

