// zkCli's reading commands: ls, get, stat, getAcl, sync, whoami, getEphemerals, getAllChildrenNumber, config.
import * as ops from '../protocol/operations';
import { getConfig, getDataNullable } from '../protocol/nullableData';
import { getAcl } from '../protocol/writes';
import { CliError, validatePath, wrapError, zkCodeOf } from './zkCliErrors';
import { parse, retainWatchCompatibility, RunContext, Runner, usageError } from './context';
import { javaList, juteId, permString, statLines } from './javaFormat';
import { clientConfigString } from './configText';
import type { CommandSpec } from './commands';
import { decodedDocument, readDecodeContext, sessionContextRead } from '../decoders';

const childPath = (parent: string, name: string) => (parent === '/' ? '/' : parent + '/') + name;

async function request<T>(ctx: RunContext, promise: Promise<T>, operation: string, path?: string): Promise<T> {
  try {
    return await ctx.session.request(promise, operation, path);
  } catch (error) {
    throw wrapError(error, path);
  }
}

/** ZKUtil.visitSubTreeDFS: the root (after a getData), then each level's sorted children before their subtrees. */
export async function visitSubTree(ctx: RunContext, path: string, watch: boolean, visit: (path: string) => Promise<void> | void): Promise<void> {
  validatePath(path);
  await request(ctx, getDataNullable(ctx.session.channel, path, watch), 'getData', path);
  if (watch) ctx.watches.data.add(path);
  await visit(path);
  const walk = async (node: string): Promise<void> => {
    let children: string[];
    try {
      children = (await ctx.session.request(ops.getChildren2(ctx.session.channel, node, watch), 'getChildren', node)).children;
    } catch (error) {
      if (zkCodeOf(error) === -101) return;
      throw wrapError(error, node);
    }
    if (watch) ctx.watches.children.add(node);
    children.sort();
    for (const child of children) await visit(childPath(node, child));
    for (const child of children) await walk(childPath(node, child));
  };
  await walk(path);
}

const LS_HELP = 'usage: ls [options] path\n -?   help\n -R   recurse\n -s   stat\n -w   watch\n';

const ls: Runner = async (ctx, words, spec) => {
  let parsed = parse(spec, words);
  if (parsed.values.has('?')) ctx.out(LS_HELP);
  parsed = retainWatchCompatibility(ctx, spec, words, parsed, 'ls [-w] path');
  if (parsed.args.length < 2) throw usageError(spec);
  const path = parsed.args[1];
  const watch = parsed.values.has('w');
  if (parsed.values.has('R')) {
    await visitSubTree(ctx, path, watch, (p) => ctx.out(p + '\n'));
    return;
  }
  validatePath(path);
  const reply = await request(ctx, ops.getChildren2(ctx.session.channel, path, watch), 'getChildren', path);
  if (watch) ctx.watches.children.add(path);
  ctx.out(javaList([...reply.children].sort()) + '\n');
  if (parsed.values.has('s')) ctx.out(statLines(reply.stat, ctx.timeZone));
};

/** get and stat: a path argument (checked in zkCli's order), the old `path watch` form, and -w. */
function watchedPath(ctx: RunContext, words: string[], spec: CommandSpec, compatUsage: string) {
  let parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  parsed = retainWatchCompatibility(ctx, spec, words, parsed, compatUsage);
  const path = parsed.args[1];
  validatePath(path);
  return { parsed, path, watch: parsed.values.has('w') };
}

/** ZooScope's own word, not zkCli's: taken out before zkCli's parsing, so plain `get` parses and prints as zkCli does. */
const DECODED = '--decoded';

const get: Runner = async (ctx, words, spec) => {
  const decoded = words.includes(DECODED);
  const { parsed, path, watch } = watchedPath(ctx, decoded ? words.filter((w) => w !== DECODED) : words, spec, 'get [-s] [-w] path');
  const reply = await request(ctx, getDataNullable(ctx.session.channel, path, watch), 'getData', path);
  if (watch) ctx.watches.data.add(path);
  // --decoded: what the node means to the system that wrote it (src/zk/decoders), as JSON.
  if (decoded) {
    const context = await readDecodeContext(path, sessionContextRead(ctx.session));
    ctx.out(JSON.stringify(decodedDocument(path, reply.data, context), null, 2) + '\n');
  }
  else ctx.out((reply.data === null ? 'null' : reply.data.toString('utf8')) + '\n');
  if (parsed.values.has('s')) ctx.out(statLines(reply.stat, ctx.timeZone));
};

const stat: Runner = async (ctx, words, spec) => {
  const { path, watch } = watchedPath(ctx, words, spec, 'stat [-w] path');
  const reply = await request(ctx, ops.exists(ctx.session.channel, path, watch), 'exists', path);
  // An exists watch is set whether or not the node exists.
  if (watch) ctx.watches.data.add(path);
  if (!reply) throw new CliError(`Node does not exist: ${path}`);
  ctx.out(statLines(reply, ctx.timeZone));
};

const getAclCommand: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  const path = parsed.args[1];
  validatePath(path);
  const reply = await request(ctx, getAcl(ctx.session.channel, path), 'getACL', path);
  for (const entry of reply.acl) ctx.out(`${juteId(entry.scheme, entry.id)}: ${permString(entry.perms)}\n`);
  if (parsed.values.has('s')) ctx.out(statLines(reply.stat, ctx.timeZone));
};

const sync: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  const path = parsed.args[1];
  validatePath(path);
  try {
    await ctx.session.request(ops.sync(ctx.session.channel, path), 'sync', path);
    ctx.out('Sync is OK\n');
  } catch (error) {
    const code = zkCodeOf(error);
    // Only an answer with an error code is "failed"; no answer at all is an exception in zkCli.
    if (code === undefined || code === -4 || code === -112) throw wrapError(error, path);
    ctx.out(`Sync has failed. rc=${code}\n`);
  }
};

const whoami: Runner = async (ctx) => {
  const identities = await request(ctx, ops.whoAmI(ctx.session.channel), 'whoAmI');
  ctx.out('Auth scheme: User\n');
  for (const identity of identities) ctx.out(`${identity.scheme}: ${identity.user}\n`);
};

const getEphemerals: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  const path = parsed.args.length < 2 ? '/' : parsed.args[1];
  validatePath(path);
  const paths = await request(ctx, ops.getEphemerals(ctx.session.channel, path), 'getEphemerals', path);
  ctx.out(javaList(paths) + '\n');
};

const getAllChildrenNumber: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  const path = parsed.args[1];
  validatePath(path);
  ctx.out(`${await request(ctx, ops.getAllChildrenNumber(ctx.session.channel, path), 'getAllChildrenNumber', path)}\n`);
};

const config: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  const watch = parsed.values.has('w');
  const reply = await request(ctx, getConfig(ctx.session.channel, watch), 'getConfig');
  if (watch) ctx.watches.data.add('/zookeeper/config');
  const text = reply.data === null ? 'null' : reply.data.toString('utf8');
  ctx.out((parsed.values.has('c') ? clientConfigString(text) : text) + '\n');
  if (parsed.values.has('s')) ctx.out(statLines(reply.stat, ctx.timeZone));
};

export const READ_RUNNERS: Record<string, Runner> = {
  ls, get, stat, getAcl: getAclCommand, sync, whoami, getEphemerals, getAllChildrenNumber, config,
};
