// "Compare with a Past Moment…": the subtree as it was at a time or zxid, rebuilt from the servers' snapshots and
// logs, written as an export file (0600, outside the workspace) and compared in the Differences view with the tree
// now, or with the same subtree at another moment (both rebuilt): what changed between, node by node.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hex } from '../../zk/stat';
import type { LogSource } from '../../zk/serverLogs/logSet';
import { treeAtMoment, type TreeAtMoment } from '../../zk/serverLogs/treeAtMoment';
import { writeReplayedExport } from '../../zk/transfer/exportReplayed';
import { writePrivateFile } from '../../zk/transfer/privateFile';
import { log } from '../common/log';
import { warn } from '../common/notifier';
import { pickItem } from '../common/quickInput';
import { shown } from '../common/untrustedText';
import { nodeTargetOrAsk, type NodeTarget } from '../core/targets';
import { momentText } from '../core/tree/treeItems';
import type { CompareApi } from '../compare';
import { readCancellably, reportLogIssues } from './logReading';
import { askMoment, type ChosenMoment, type IndexOf } from './momentPicker';
import type { ServerHistoryContext } from './nodeHistoryCommand';

const t = vscode.l10n.t;

export interface MomentPreset {
  folders?: string[];
  moment?: string;
  /** The other moment to compare with (instead of now). */
  against?: string;
}

function momentFolder(): string {
  const folder = path.join(os.tmpdir(), `zooscope-moments-${os.userInfo().uid}`);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

/** The tree under `root` at the moment, rebuilt with progress; undefined when cancelled or it cannot be (said). */
export async function rebuildAt(sources: readonly LogSource[], moment: ChosenMoment, root: string, indexOf?: IndexOf): Promise<TreeAtMoment | undefined> {
  const result = await readCancellably(t('Rebuilding {0} as it was at {1}…', shown(root), moment.text), async (signal, report) => {
    // A time is found in the index; only the logs after the snapshot are read, to replay them.
    const index = indexOf && 'time' in moment.bound ? await indexOf(signal, report) : undefined;
    return treeAtMoment(sources, moment.bound, { root, signal, index });
  });
  if (!result) return undefined;
  if (!result.ok) {
    void warn(t('The tree at that moment cannot be rebuilt: {0}', result.problem));
    return undefined;
  }
  reportLogIssues(result.moment.issues.map((issue) => issue.message), 'tree');
  return result.moment;
}

/** The rebuilt subtree as an export file, with the label the Differences view names it by. */
async function exported(context: ServerHistoryContext, target: NodeTarget, past: TreeAtMoment): Promise<{ file: string; label: string; zxid: bigint }> {
  const file = path.join(momentFolder(), `${hex(past.zxid)}.json`);
  await writePrivateFile(file, (write) => writeReplayedExport(target.path, past.tree.preOrder(target.path), new Date(past.time ?? fs.statSync(past.snapshot.file).mtimeMs), write));
  log().info(`tree of ${target.path} at zxid ${hex(past.zxid)} from ${past.snapshot.file} and the logs after it → ${file}`);
  const name = context.store.get(target.connectionId)?.name ?? target.connectionId;
  return { file, label: t('{0}: {1} @ {2}', name, target.path, momentText(past.zxid, past.time)), zxid: past.zxid };
}

/** Now, or another moment (asked); undefined when the user cancels. */
async function askAgainst(title: string, sources: readonly LogSource[], indexOf: IndexOf, preset?: MomentPreset): Promise<'now' | ChosenMoment | undefined> {
  if (preset) return preset.against === undefined ? 'now' : askMoment(title, sources, preset.against, indexOf);
  const now = { label: t('Now'), detail: t('The tree on the server now'), id: 'now' as const };
  const other = { label: t('Another moment…'), detail: t('The same subtree at another time or zxid, rebuilt from the logs too'), id: 'moment' as const };
  const picked = await pickItem([now, other], { title: t('{0}: compare it with', title) });
  if (!picked) return undefined;
  return picked.id === 'now' ? 'now' : askMoment(t('{0}: the other moment', title), sources, undefined, indexOf);
}

export async function compareWithPastMoment(context: ServerHistoryContext & { compare: CompareApi }, arg?: unknown, preset?: MomentPreset): Promise<{ file: string; zxid: bigint; against?: { file: string; zxid: bigint } } | undefined> {
  const title = t('Compare with a Past Moment');
  const target = await nodeTargetOrAsk(context, arg, title);
  if (!target) return undefined;
  const sources = await context.folders.sources(target.connectionId, preset?.folders);
  if (!sources) return undefined;
  const indexOf: IndexOf = (signal, report) => context.folders.index(sources, signal, report);
  const moment = await askMoment(title, sources, preset?.moment, indexOf);
  if (!moment) return undefined;
  const against = await askAgainst(title, sources, indexOf, preset);
  if (!against) return undefined;
  const past = await rebuildAt(sources, moment, target.path, indexOf);
  if (!past) return undefined;
  const then = await exported(context, target, past);
  if (against === 'now') {
    await context.compare.compareWithExport(target, then.file, then.label);
    return { file: then.file, zxid: then.zxid };
  }
  const otherPast = await rebuildAt(sources, against, target.path, indexOf);
  if (!otherPast) return undefined;
  const other = await exported(context, target, otherPast);
  // The earlier moment on the left, as a diff reads: what changed from it to the later.
  const [left, right] = then.zxid <= other.zxid ? [then, other] : [other, then];
  await context.compare.compareExports(left, right);
  return { file: then.file, zxid: then.zxid, against: { file: other.file, zxid: other.zxid } };
}
