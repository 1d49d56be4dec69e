// "Compare with a Past Moment…": the subtree as it was at a time or zxid, rebuilt from the servers' snapshots and
// logs, written as an export file (0600, outside the workspace) and compared with the tree now in the Differences
// view: what changed since then, node by node.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hex } from '../../zk/stat';
import { parseLogBound } from '../../zk/serverLogs/txnFilter';
import { treeAtMoment } from '../../zk/serverLogs/treeAtMoment';
import { writeReplayedExport } from '../../zk/transfer/exportReplayed';
import { writePrivateFile } from '../../zk/transfer/privateFile';
import { log } from '../common/log';
import { warn } from '../common/notifier';
import { input } from '../common/quickInput';
import { shown } from '../common/untrustedText';
import { nodeTargetOrAsk } from '../core/targets';
import type { CompareApi } from '../compare';
import { readCancellably, reportLogIssues } from './logReading';
import type { ServerHistoryContext } from './nodeHistoryCommand';

const t = vscode.l10n.t;

export interface MomentPreset {
  folders?: string[];
  moment?: string;
}

function momentFolder(): string {
  const folder = path.join(os.tmpdir(), `zooscope-moments-${os.userInfo().uid}`);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

export async function compareWithPastMoment(context: ServerHistoryContext & { compare: CompareApi }, arg?: unknown, preset?: MomentPreset): Promise<{ file: string; zxid: bigint } | undefined> {
  const title = t('Compare with a Past Moment');
  const target = await nodeTargetOrAsk(context, arg, title);
  if (!target) return undefined;
  const sources = await context.folders.sources(target.connectionId, preset?.folders);
  if (!sources) return undefined;
  const text = preset?.moment ?? await input({
    title, prompt: t('A time (2026-11-28T03:12:00Z; UTC unless it says otherwise) or a zxid (0x…): the tree as it was then'),
    value: new Date(Date.now() - 3_600_000).toISOString().slice(0, 19) + 'Z',
    validateInput: (value) => (parseLogBound(value.trim()) ? undefined : t('Expected an ISO time (2026-11-28T03:12:00Z) or a zxid (0x…)')),
  });
  if (text === undefined) return undefined;
  const moment = parseLogBound(text.trim());
  if (!moment) return undefined;
  const result = await readCancellably(t('Rebuilding {0} as it was at {1}…', shown(target.path), text.trim()), (signal) => treeAtMoment(sources, moment, { root: target.path, signal }));
  if (!result) return undefined;
  if (!result.ok) {
    void warn(t('The tree at that moment cannot be rebuilt: {0}', result.problem));
    return undefined;
  }
  const past = result.moment;
  reportLogIssues(past.issues.map((issue) => issue.message), 'tree');
  const file = path.join(momentFolder(), `${hex(past.zxid)}.json`);
  await writePrivateFile(file, (write) => writeReplayedExport(target.path, past.tree.preOrder(target.path), new Date(past.time ?? fs.statSync(past.snapshot.file).mtimeMs), write));
  log().info(`tree of ${target.path} at zxid ${hex(past.zxid)} from ${past.snapshot.file} and the logs after it → ${file}`);
  await context.compare.compareWithExport(target, file);
  return { file, zxid: past.zxid };
}
