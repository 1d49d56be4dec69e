// `zooscope copy <source> <target> [--mirror] [--dry-run] [--no-acl] [--yes]`: makes the target subtree hold the
// source's (a live `<connectString>/<path>` or an export file; the target is live). The plan — creates, data
// changes, ACL changes and, with --mirror, deletes — is printed before anything is written; --dry-run stops there.
// A plan that deletes is confirmed on a terminal first; from a pipe or a script it needs --yes. Source and target
// may not overlap on one ensemble, however each is spelled (src/zk/compare/overlap.ts). Writes are version-checked
// against what the plan read; a second run after an interruption finishes the job. Exit codes: 0 done (or planned),
// 1 some writes refused or left (run again), 2 bad arguments, a plan that cannot be made, or deletes planned without
// a terminal to confirm them and without --yes; 6 the deletes were not confirmed (as `zooscope lock`'s "cancelled
// before anything was done"). Nothing is written in cases 2 and 6.
import { CopyPlan, CopyReport, CopyStep, executeCopy, planCopy, planForShowing, SkipReason } from '../../zk/compare';
import { DEFAULT_MAX_NODES } from '../../zk/compare/subtreeRead';
import { MAX_TIMER_MS } from '../../zk/timeouts';
import { formatPermissions } from '../../zk/write/aclFormat';
import { CREDENTIALS_HINT, integerOf, secondsOf, UsageError } from '../args';
import { defineCommand, usageText } from '../command';
import { confirmOnTerminal } from '../confirm';
import { valueLines } from '../output';
import { liveConnectStrings, parseSide, SIDE_OPTIONS, sideSessionsFor, tooLargeLine } from '../subtreeSides';

const USAGE = `zooscope copy <source> <target> [--mirror] [--dry-run] [--yes] [--no-acl] [--read-only] [--batch <ops>]
              [--max-nodes <n>] [--timeout <seconds>] [security options]`;

const OPTIONS = {
  ...SIDE_OPTIONS,
  'mirror': {},
  'dry-run': {},
  'no-acl': {},
  'no-acls': { aliasOf: 'no-acl' },
  'read-only': {},
  'yes': { short: 'y' },
  'batch': { takes: 'a whole number from 1 to 10000' },
} as const;

export const copyCommand = defineCommand({
  name: 'copy',
  summary: 'makes a subtree hold another\'s (live or an export file): the plan first, deletes confirmed',
  usage: USAGE,
  details: `  <source>: <connectString>/<path> or an export file (file:<name>); <target>: <connectString>/<path>
  --mirror: also delete what the source lacks; --dry-run: print the plan only
  --yes: write planned deletes without asking (needed when stdin is not a terminal)
  --max-nodes: nodes read at most per side (default ${DEFAULT_MAX_NODES})
  exit codes: 0 done (or planned), 1 some writes refused or left (run again), 2 trouble, 6 not confirmed`,
  options: OPTIONS,
  connects: true,
  failureExit: 2,
  parse({ values, positionals, connection }) {
    const maxNodes = values['max-nodes'] === undefined ? undefined : integerOf(values['max-nodes'], '--max-nodes', 1, Number.MAX_SAFE_INTEGER);
    const batchSize = values.batch === undefined ? undefined : integerOf(values.batch, '--batch', 1, 10000);
    const timeoutMs = values.timeout === undefined ? 15000 : Math.max(1000, secondsOf(values.timeout, '--timeout', 0, MAX_TIMER_MS));
    if (positionals.length !== 2) throw new UsageError(`expected <source> <target>\n${usageText(USAGE)}`);
    const target = parseSide(positionals[1]);
    if (target.kind !== 'live') throw new UsageError('the target must be <connectString>/<path>: a copy writes to a server');
    return {
      source: parseSide(positionals[0]), target, mirror: !!values.mirror, dryRun: !!values['dry-run'], acls: !values['no-acl'],
      readOnly: !!values['read-only'], yes: !!values.yes, batchSize, maxNodes, timeoutMs, connection,
    };
  },
  reaches: (parsed) => liveConnectStrings(parsed.source, parsed.target),
  async run(parsed, { out, say, session }) {
    const sessions = sideSessionsFor(parsed.timeoutMs, parsed.connection, session);
    const source = await sessions.open(parsed.source);
    const target = await sessions.session(parsed.target.connectString);
    const plan = await planCopy(source, target, parsed.target.path, { mirror: parsed.mirror, acls: parsed.acls, guard: { readOnly: parsed.readOnly }, maxNodes: parsed.maxNodes });
    if (plan.problem) {
      const p = plan.problem;
      if (p.code === 'overlap') say('the source and the target overlap on the same ZooKeeper servers (one holds the other): choose a target outside the source');
      else if (p.code === 'subtreeTooLarge') say(tooLargeLine(p.side, p.path, parsed.maxNodes));
      else if (p.code === 'aclHidden') say(`the server hides the digest passwords in the ACL of ${p.path} from this session (it lacks ADMIN permission there): copying that ACL would lock everyone out; use --no-acl, or credentials with ADMIN permission`);
      else say(`cannot plan: the ${p.side} ${p.code === 'changed' ? 'was written while it was read' : p.code === 'unreadable' ? 'has nodes this session may not read' : `says ${p.code}`}${p.path ? ` at ${p.path}` : ''}${p.code === 'unreadable' ? `; ${CREDENTIALS_HINT}` : ''}`);
      return 2;
    }
    out.text(formatPlan(parsed.source.text, parsed.target.text, plan));
    if (parsed.dryRun) return 0;
    const stop = plan.counts.delete > 0 && !parsed.yes ? await deletesConfirmed(plan.counts.delete, say) : undefined;
    if (stop !== undefined) return stop;
    const run = await executeCopy(target, plan, { readOnly: parsed.readOnly }, { batchSize: parsed.batchSize });
    if (!run.ok) {
      say(`refused: ${run.failure.code === 'readOnly' ? 'the connection is read-only' : run.failure.code}`);
      return 2;
    }
    out.text(formatReport(run.report));
    return run.report.failed.length === 0 && run.report.remaining === 0 ? 0 : 1;
  },
});

const bytes = (data: Buffer | null) => (data === null ? 'null' : `${data.length} bytes`);
const aclText = (acl: { scheme: string; id: string; perms: number }[]) => acl.map((a) => `${a.scheme}:${a.id}:${formatPermissions(a.perms)}`).join(',');

function stepLine(step: CopyStep): string {
  switch (step.action) {
    case 'create': return `create    ${step.path}  (${bytes(step.data)})`;
    case 'setData': return `set data  ${step.path}  (${step.fromLength === null ? 'null' : `${step.fromLength} bytes`} → ${bytes(step.data)})`;
    case 'setAcl': return `set ACL   ${step.path}  (${step.from ? aclText(step.from) : 'world:anyone:cdrwa'} → ${aclText(step.acl)})`;
    case 'delete': return `delete    ${step.path}`;
  }
}

function skipText(reason: SkipReason): string {
  switch (reason.code) {
    case 'ephemeral': return 'ephemeral in the source: never copied';
    case 'targetEphemeral': return 'ephemeral in the target: left to its session';
    case 'keepsChild': return `keeps ${reason.child}`;
    default: return reason.code;
  }
}

export function formatPlan(source: string, target: string, plan: CopyPlan): string {
  const c = plan.counts;
  const lines = [`${plan.mirror ? 'mirror' : 'copy'} ${source} → ${target}`,
    `plan: ${c.create} create(s), ${c.setData} data change(s), ${c.setAcl} ACL change(s)${plan.mirror ? `, ${c.delete} delete(s)` : ''}, ${c.skip} skipped, ${c.unchanged} unchanged`];
  const shown = planForShowing(plan);
  for (const step of [...shown.writes, ...shown.deletes, ...shown.aclChanges]) lines.push(stepLine(step));
  for (const skipped of shown.skipped) lines.push(`skip      ${skipped.path}  (${skipText(skipped.reason)})`);
  return valueLines(lines);
}

function formatReport(report: CopyReport): string {
  const lines = [`done: ${report.created} created, ${report.updated} data changed, ${report.aclsSet} ACL(s) set, ${report.deleted} deleted`];
  for (const failure of report.failed) lines.push(`refused   ${failure.path}  (${failure.operation}: ${failure.code}${failure.code === 'badVersion' || failure.code === 'nodeExists' ? ', changed since the plan' : ''})`);
  if (report.remaining > 0) lines.push(`${report.remaining} left ${report.cancelled ? '(cancelled)' : `(${report.interrupted?.code ?? 'interrupted'})`}: run the same command again to finish`);
  return valueLines(lines);
}

/** Undefined when the deletes may go ahead; else the exit code, the reason said in one line. */
async function deletesConfirmed(deletes: number, say: (line: string) => void): Promise<number | undefined> {
  const answer = await confirmOnTerminal(`delete ${deletes} node(s) as planned above? [y/N] `);
  if (answer === 'yes') return undefined;
  if (answer === 'notATerminal') {
    say(`the plan deletes ${deletes} node(s) and stdin is not a terminal to confirm it: nothing written; add --yes to write it`);
    return 2;
  }
  say('not confirmed: nothing written');
  return 6;
}
