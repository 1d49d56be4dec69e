// zkCli's changing commands: create, set, delete, deleteall, setAcl, addauth, addWatch, removewatches.
import { multi, MultiOp } from '../protocol/multi';
import { createNullable } from '../protocol/nullableData';
import * as ops from '../protocol/operations';
import { AddWatchMode, WatcherType } from '../protocol/opcodes';
import { CreateFlags, OPEN_ACL, setAcl, setData, deleteNode } from '../protocol/writes';
import { parseAclList } from './aclParser';
import { ZkError } from '../errors';
import { digestInClearServers, digestInClearWarning } from '../security/digestInClear';
import { CliError, keeperMessage, validatePath, wrapError, wrapperMessage, zkCodeOf } from './zkCliErrors';
import { parse, RunContext, Runner, usageError } from './context';
import { javaParseInt, statLines } from './javaFormat';
import { visitSubTree } from './readCommands';
import type { RemovableKind } from './watchTracker';

/** EphemeralType.TTL.maxValue(): the low 40 bits. */
const MAX_TTL = 0xffffffffffn;

async function request<T>(ctx: RunContext, promise: Promise<T>, operation: string, path?: string): Promise<T> {
  try {
    return await ctx.session.request(promise, operation, path);
  } catch (error) {
    throw wrapError(error, path);
  }
}

/** Integer.parseInt of a -v value; zkCli lets the NumberFormatException escape (a Java stack trace, exit 1). */
function versionOf(value: string | undefined): number {
  if (value === undefined) return -1;
  const parsed = javaParseInt(value, 32);
  if (parsed === undefined) throw new CliError(`Exception in thread "main" java.lang.NumberFormatException: For input string: "${value}"`);
  return Number(parsed);
}

const set: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 3) throw usageError(spec);
  const [, path, data] = parsed.args;
  const version = versionOf(parsed.values.get('v'));
  validatePath(path);
  const stat = await request(ctx, setData(ctx.session.channel, path, Buffer.from(data, 'utf8'), version), 'setData', path);
  if (parsed.values.has('s')) ctx.out(statLines(stat, ctx.timeZone));
};

function createFlags(e: boolean, s: boolean, c: boolean, t: boolean): number {
  if (e && s) return CreateFlags.ephemeralSequential;
  if (e) return CreateFlags.ephemeral;
  if (s) return t ? CreateFlags.persistentSequentialWithTtl : CreateFlags.persistentSequential;
  if (c) return CreateFlags.container;
  return t ? CreateFlags.persistentWithTtl : CreateFlags.persistent;
}

const create: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  const [e, s, c, t] = ['e', 's', 'c', 't'].map((k) => parsed.values.has(k));
  if (c && (e || s)) throw new CliError('-c cannot be combined with -s or -e. Containers cannot be ephemeral or sequential.');
  const ttl = t ? javaParseInt(parsed.values.get('t'), 64) : 0n;
  if (ttl === undefined) throw new CliError('-t argument must be a long value');
  if (t && e) throw new CliError('TTLs cannot be used with Ephemeral znodes');
  if (t && c) throw new CliError('TTLs cannot be used with Container znodes');
  const flags = createFlags(e, s, c, t);
  if (t && (ttl > MAX_TTL || ttl <= 0n)) throw new CliError(`ttl must be positive and cannot be larger than: ${MAX_TTL}`);
  const [, path, data, aclText] = parsed.args;
  const acl = aclText !== undefined ? parseAclList(aclText, ctx.err) : OPEN_ACL;
  validatePath(path, s);
  // The Java client refuses an empty ACL itself, before sending, with an InvalidACL that names no path.
  if (acl.length === 0) {
    ctx.err(keeperMessage(-114, undefined) + '\n');
    throw new CliError(wrapperMessage(-114, undefined));
  }
  try {
    const reply = await ctx.session.request(createNullable(ctx.session.channel, {
      path, data: data === undefined ? null : Buffer.from(data, 'utf8'), acl, flags, ttlMs: t ? ttl : undefined,
    }), 'create', path);
    ctx.err(`Created ${reply.path}\n`);
  } catch (error) {
    const code = zkCodeOf(error);
    if (code === -120) ctx.err('Unable to create ephemeral node on a local session\n');
    if (code === -114) ctx.err(keeperMessage(code, path) + '\n');
    throw wrapError(error, path);
  }
};

const deleteCommand: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  if (parsed.args.length > 2) ctx.err("'delete path [version]' has been deprecated. Please use 'delete [-v version] path' instead.\n");
  const path = parsed.args[1];
  const version = versionOf(parsed.values.get('v'));
  validatePath(path);
  await request(ctx, deleteNode(ctx.session.channel, path, version), 'delete', path);
};

/** ZKUtil.listSubTreeBFS: the root, then breadth first in the server's order. */
async function listSubTreeBfs(ctx: RunContext, root: string): Promise<string[]> {
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    const node = tree[i];
    const reply = await request(ctx, ops.getChildren2(ctx.session.channel, node), 'getChildren', node);
    for (const child of reply.children) tree.push((node === '/' ? '' : node) + '/' + child);
  }
  return tree;
}

const deleteall: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  const batchText = parsed.values.get('b');
  const batch = batchText === undefined ? 1000n : javaParseInt(batchText, 32);
  if (batch === undefined) throw new CliError('-b argument must be an int value');
  const batchSize = Number(batch);
  const path = parsed.args[1];
  validatePath(path);
  const tree = await listSubTreeBfs(ctx, path);
  // ZKUtil.deleteInBatch: leaves first, multi batches of batchSize, stop sending after a failed batch.
  let batchOps: MultiOp[] = [];
  let success = true;
  for (let i = tree.length - 1; i >= 0; i--) {
    batchOps.push({ type: 'delete', path: tree[i], version: -1 });
    if (batchOps.length === batchSize || i === 0) {
      if (!success) break;
      const reply = await request(ctx, multi(ctx.session.channel, batchOps), 'multi', path);
      if (!reply.ok) success = false;
      batchOps = [];
    }
  }
  if (!success) ctx.err('Failed to delete some node(s) in the subtree!\n');
};

const setAclCommand: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 3) throw usageError(spec);
  const [, path, aclText] = parsed.args;
  const acl = parseAclList(aclText, ctx.err);
  const version = versionOf(parsed.values.get('v'));
  if (parsed.values.has('R')) {
    await visitSubTree(ctx, path, false, async (p) => {
      try {
        if (acl.length === 0) throw new ZkError('invalidAcl', 'setACL', undefined, -114);
        await ctx.session.request(setAcl(ctx.session.channel, p, acl, version), 'setACL', p);
      } catch (error) {
        const code = zkCodeOf(error);
        if (code === undefined) throw wrapError(error, p);
        // zkCli prints the message without a line end.
        ctx.out(keeperMessage(code, code === -114 ? undefined : p));
      }
    });
    return;
  }
  validatePath(path);
  if (acl.length === 0) throw new CliError(wrapperMessage(-114, undefined));
  const stat = await request(ctx, setAcl(ctx.session.channel, path, acl, version), 'setACL', path);
  if (parsed.values.has('s')) ctx.out(statLines(stat, ctx.timeZone));
};

const addauth: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  const auth = parsed.args[2] === undefined ? Buffer.alloc(0) : Buffer.from(parsed.args[2], 'utf8');
  // digest sends user:password as it is: over plain TCP to another machine it is said first, as for a connection.
  const inClear = parsed.args[1] === 'digest' ? digestInClearServers(ctx.session.options.connectString, !!ctx.session.options.tls) : undefined;
  if (inClear !== undefined) ctx.err(`${digestInClearWarning(inClear)}\n`);
  ctx.session.client.addAuthInfo(parsed.args[1], auth);
};

const addWatch: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length !== 2) throw usageError(spec);
  let mode: number = AddWatchMode.persistentRecursive;
  if (parsed.values.has('m')) {
    const name = (parsed.values.get('m') ?? '').toUpperCase();
    if (name === 'PERSISTENT') mode = AddWatchMode.persistent;
    else if (name !== 'PERSISTENT_RECURSIVE') throw usageError(spec);
  }
  const path = parsed.args[1];
  validatePath(path);
  await request(ctx, ops.addWatch(ctx.session.channel, path, mode), 'addWatch', path);
  (mode === AddWatchMode.persistent ? ctx.watches.persistent : ctx.watches.persistentRecursive).add(path);
};

const removewatches: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  const path = parsed.args[1];
  const kind: RemovableKind = parsed.values.has('c') ? 'children' : parsed.values.has('d') ? 'data' : 'any';
  validatePath(path);
  if (!ctx.watches.contains(kind, path)) throw new CliError(keeperMessage(-121, path));
  const type = kind === 'children' ? WatcherType.children : kind === 'data' ? WatcherType.data : WatcherType.any;
  try {
    await ctx.session.request(ops.removeWatches(ctx.session.channel, path, type), 'removeWatches', path);
  } catch (error) {
    // -l: remove locally when the server cannot be asked.
    if (!(parsed.values.has('l') && zkCodeOf(error) === -4)) throw wrapError(error, path);
  }
  const removed = ctx.watches.remove(kind, path);
  if (!removed) throw new CliError(keeperMessage(-121, path));
  for (const event of removed) ctx.watchEvent(event, path);
};

export const WRITE_RUNNERS: Record<string, Runner> = {
  set, create, delete: deleteCommand, deleteall, setAcl: setAclCommand, addauth, addWatch, removewatches,
};
