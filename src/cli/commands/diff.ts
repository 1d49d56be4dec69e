// `zooscope diff <left> <right>`: compares two subtrees, each `<connectString>/<path>` or an export file. Exit
// codes as diff's: 0 equal, 1 different (or written during the comparison), 2 trouble (bad arguments, cannot
// connect or read the whole of a side). Names and data sizes only, never data: nothing from ZooKeeper is printed
// but through the Output's visibleText / JSON escapes.
import { compareSubtrees, CompareLimit, CompareResult, Difference, NodeFacts } from '../../zk/compare';
import { MAX_TIMER_MS } from '../../zk/timeouts';
import { DEFAULT_MAX_NODES } from '../../zk/compare/subtreeRead';
import { integerOf, secondsOf, UsageError } from '../args';
import { defineCommand, usageText } from '../command';
import { valueLines } from '../output';
import { liveConnectStrings, parseSide, SIDE_OPTIONS, sideSessionsFor, tooLargeLine } from '../subtreeSides';

const USAGE = `zooscope diff <left> <right> [--json] [--ignore-ephemeral] [--ignore-acl] [--ignore-data <glob>]…
              [--max-nodes <n>] [--timeout <seconds>] [security options]`;

const OPTIONS = {
  ...SIDE_OPTIONS,
  'json': {},
  'ignore-ephemeral': {},
  'ignore-acl': {},
  'ignore-acls': { aliasOf: 'ignore-acl' },
  'ignore-data': { takes: 'a glob such as /services/*/config', multiple: true },
} as const;

export const diffCommand = defineCommand({
  name: 'diff',
  summary: 'compares two subtrees (live or export files): names, data sizes, ACLs and modes, never the data',
  usage: USAGE,
  details: `  <left>, <right>: <connectString>/<path> (e.g. 127.0.0.1:2181/app) or an export file (file:<name>)
  --max-nodes: nodes read at most per side (default ${DEFAULT_MAX_NODES})
  --ignore-data globs are relative to each side's path: /services/*/config, /**/cache
  exit codes: 0 equal, 1 different (or written during the comparison), 2 trouble`,
  options: OPTIONS,
  connects: true,
  failureExit: 2,
  parse({ values, positionals, connection }) {
    const maxNodes = values['max-nodes'] === undefined ? undefined : integerOf(values['max-nodes'], '--max-nodes', 1, Number.MAX_SAFE_INTEGER);
    const timeoutMs = values.timeout === undefined ? 15000 : Math.max(1000, secondsOf(values.timeout, '--timeout', 0, MAX_TIMER_MS));
    if (positionals.length !== 2) throw new UsageError(`expected <left> <right>\n${usageText(USAGE)}`);
    return {
      left: parseSide(positionals[0]), right: parseSide(positionals[1]), json: !!values.json, ignoreEphemeral: !!values['ignore-ephemeral'],
      ignoreAcls: !!values['ignore-acl'], ignoreData: values['ignore-data'] ?? [], maxNodes, timeoutMs, connection,
    };
  },
  reaches: (parsed) => liveConnectStrings(parsed.left, parsed.right),
  async run(parsed, { out, say, session }) {
    const sessions = sideSessionsFor(parsed.timeoutMs, parsed.connection, session);
    const [left, right] = [await sessions.open(parsed.left), await sessions.open(parsed.right)];
    const result = await compareSubtrees(left, right, { ignoreEphemeral: parsed.ignoreEphemeral, ignoreAcls: parsed.ignoreAcls, ignoreData: parsed.ignoreData, maxNodes: parsed.maxNodes });
    if (result.error?.code === 'subtreeTooLarge') {
      say(tooLargeLine(`${result.error.side} side`, result.error.path, parsed.maxNodes));
      return 2;
    }
    if (result.error) {
      say(`reading the ${result.error.side} side: ${result.error.operation} ${result.error.path}: ${result.error.code}`);
      return 2;
    }
    // Sizes only, as in the text: the bytes themselves are not the CLI's to print.
    const differences = result.differences.map(({ data: _bytes, ...rest }) => rest);
    if (parsed.json) out.json({ left: parsed.left.text, right: parsed.right.text, ...result, differences });
    else out.text(formatDiff(parsed.left.text, parsed.right.text, result));
    if (!result.complete) return 2;
    return result.equal ? 0 : 1;
  },
});

const KIND_LABEL: Record<Difference['kind'], string> = {
  onlyLeft: 'only left ', onlyRight: 'only right', data: 'data      ', acl: 'acl       ', mode: 'mode      ', changed: 'changed   ',
};

const LIMIT_TEXT: Record<CompareLimit, string> = {
  containerAndTtlLookPersistent: 'container and TTL nodes look persistent to clients of ZooKeeper 3.5.4+: a mode difference between them cannot be seen',
  exportNullIsEmpty: 'an export writes null data as empty: null and empty data count as equal',
  exportModes: 'an export knows ephemeral nodes only: container and TTL nodes count as persistent',
  digestHidden: 'the server hides digest password hashes from a session without ADMIN permission: those ACL entries are compared by user and permissions only',
};

const size = (facts: NodeFacts | undefined) => (facts?.dataLength === null ? 'null' : `${facts?.dataLength ?? '?'} bytes`);

function detail(d: Difference): string {
  switch (d.kind) {
    case 'data': return `${size(d.left)} | ${size(d.right)}`;
    case 'acl': return `${d.left?.acl?.join(',')} | ${d.right?.acl?.join(',')}`;
    case 'mode': return `${d.left?.kind} | ${d.right?.kind}`;
    case 'changed': return 'written during the comparison: compare again';
    default: return '';
  }
}

export function formatDiff(left: string, right: string, result: CompareResult): string {
  const lines = [`--- ${left}`, `+++ ${right}`];
  for (const d of result.differences) lines.push(`${KIND_LABEL[d.kind]}  ${d.path}${detail(d) ? `  (${detail(d)})` : ''}`);
  const counts = `${result.nodes.left} nodes | ${result.nodes.right} nodes`;
  lines.push(result.equal ? `equal (${counts})` : `${result.differences.length} difference(s) (${counts})`);
  for (const [side, paths] of [['left', result.unreadable.left], ['right', result.unreadable.right]] as const) {
    if (paths.length > 0) lines.push(`not readable on the ${side} (noAuth): ${paths.length}, e.g. ${paths[0]}`);
  }
  for (const limit of result.limits) lines.push(`note: ${LIMIT_TEXT[limit]}`);
  return valueLines(lines);
}
