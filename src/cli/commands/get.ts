// `zooscope get <connectString> <path> [--decoded]`: a node's data on stdout; with --decoded, what it means to the
// system that wrote it (Kafka, ClickHouse, Patroni… see src/zk/decoders) as JSON for scripts.
import { decodedDocument, readDecodeContext, sessionContextRead } from '../../zk/decoders';
import { getDataNullable } from '../../zk/protocol/nullableData';
import { MAX_TIMER_MS } from '../../zk/timeouts';
import { checkedConnectString, checkedPath, secondsOf, UsageError } from '../args';
import { defineCommand, usageText } from '../command';

const USAGE = 'zooscope get <connectString> <path> [--decoded] [--timeout <seconds>] [security options]';

const OPTIONS = {
  decoded: {},
  timeout: { takes: 'a number of seconds' },
} as const;

export const getCommand = defineCommand({
  name: 'get',
  summary: 'a node\'s data, or with --decoded what it means to the system that wrote it (JSON)',
  usage: USAGE,
  details: '  --decoded: what the node means (Kafka, ClickHouse, Patroni…), as JSON',
  options: OPTIONS,
  connects: true,
  failureExit: 1,
  parse({ values, positionals, connection }) {
    if (positionals.length !== 2) throw new UsageError(`expected <connectString> <path>\n${usageText(USAGE)}`);
    const timeoutMs = values.timeout === undefined ? 15000 : Math.max(1000, secondsOf(values.timeout, '--timeout', 0, MAX_TIMER_MS));
    return { connectString: checkedConnectString(positionals[0]), path: checkedPath(positionals[1], true), decoded: !!values.decoded, timeoutMs, connection };
  },
  reaches: (parsed) => [parsed.connectString],
  async run(parsed, { out, session: newSession }) {
    const session = newSession({ connectString: parsed.connectString, sessionTimeoutMs: Math.max(4000, parsed.timeoutMs), requestTimeoutMs: parsed.timeoutMs, ...parsed.connection });
    await session.open();
    const reply = await session.request(getDataNullable(session.channel, parsed.path, false), 'getData', parsed.path);
    // Related nodes (a Patroni member's lag needs the leader's status) are read once each, after the node itself.
    if (parsed.decoded) out.json(decodedDocument(parsed.path, reply.data, await readDecodeContext(parsed.path, sessionContextRead(session))));
    else out.text(reply.data === null ? 'null' : reply.data.toString('utf8'));
    return 0;
  },
});
