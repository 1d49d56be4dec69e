// `zooscope get <connectString> <path> [--decoded]`: a node's data on stdout; with --decoded, what it means to the
// system that wrote it (Kafka, ClickHouse, Patroni… see src/zk/meaning) as JSON for scripts.
import { decodedDocument, readMeaningContext, sessionContextRead } from '../zk/meaning';
import { getDataNullable } from '../zk/protocol/nullableData';
import { isZkError } from '../zk/errors';
import { SessionOptions, ZkSession } from '../zk/session/session';
import { MAX_TIMER_MS } from '../zk/timeouts';
import { checkedConnectString, checkedPath, CREDENTIALS_HINT, secondsOf, UsageError } from './args';
import type { Output } from './output';
import { digestInClearNotice, SecurityArgs } from './securityArgs';

export const getUsage = 'usage: zooscope get <connectString> <path> [--decoded] [--digest <user>] [--timeout <seconds>] [security options]';

interface GetArgs {
  connectString: string;
  path: string;
  decoded: boolean;
  timeoutMs: number;
  session: Pick<SessionOptions, 'digest' | 'tls' | 'sasl' | 'ssh'>;
}

function parseArgs(args: string[], env: NodeJS.ProcessEnv): GetArgs {
  const positional: string[] = [];
  const security = new SecurityArgs();
  let decoded = false;
  let timeoutMs = 15000;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--decoded') decoded = true;
    else if (arg === '--timeout') timeoutMs = Math.max(1000, secondsOf(args[++i], arg, 0, MAX_TIMER_MS));
    else i = security.takeRest(args, i, positional, getUsage);
  }
  if (positional.length !== 2) throw new UsageError(`expected <connectString> <path>\n${getUsage}`);
  const { digest, tls, sasl, ssh } = security.sessionOptions(env);
  return { connectString: checkedConnectString(positional[0]), path: checkedPath(positional[1], true), decoded, timeoutMs,
    session: { digest: digest ?? [], tls, sasl, ssh } };
}

export async function runGet(args: string[], out: Output): Promise<number> {
  let parsed: GetArgs;
  try {
    parsed = parseArgs(args, process.env);
  } catch (error) {
    out.error(`zooscope get: ${(error as Error).message}`);
    return 2;
  }
  const session = new ZkSession({ connectString: parsed.connectString, sessionTimeoutMs: Math.max(4000, parsed.timeoutMs), requestTimeoutMs: parsed.timeoutMs, ...parsed.session });
  const notice = digestInClearNotice(session.options);
  if (notice) out.error(`zooscope get: ${notice}`);
  try {
    await session.open();
    const reply = await session.request(getDataNullable(session.channel, parsed.path, false), 'getData', parsed.path);
    // Related nodes (a Patroni member's lag needs the leader's status) are read once each, after the node itself.
    if (parsed.decoded) out.json(decodedDocument(parsed.path, reply.data, await readMeaningContext(parsed.path, sessionContextRead(session))));
    else out.text(reply.data === null ? 'null' : reply.data.toString('utf8'));
    return 0;
  } catch (error) {
    out.error(`zooscope get: ${(error as Error).message}${isZkError(error, 'noAuth') ? `; ${CREDENTIALS_HINT}` : ''}`);
    return 1;
  } finally {
    session.close();
  }
}
