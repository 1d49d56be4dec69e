// `zooscope log <dir>… --tree-at <time|0xzxid> [--path <path>] [--export <file>]`: the tree as it was at a moment,
// rebuilt from a snapshot and the logs after it. With --export it is written in the export format (so it can be
// compared with now through `zooscope diff`, or imported); without, printed a node a line.
import * as fs from 'node:fs';
import type { Output } from '../../output';
import { hex } from '../../../zk/stat';
import type { LogSource } from '../../../zk/serverLogs/logSet';
import { treeAtMoment, type TreeAtMoment } from '../../../zk/serverLogs/treeAtMoment';
import type { LogBound } from '../../../zk/serverLogs/txnFilter';
import { exportedReplayedNode, writeReplayedExport } from '../../../zk/transfer/exportReplayed';
import { writePrivateFile } from '../../../zk/transfer/privateFile';
import { dataSummary, LineBatch } from './lineBatch';

export interface MomentArgs {
  moment: LogBound;
  root: string;
  exportFile?: string;
  json: boolean;
}

/** Where the tree comes from and what it is of, one line for stderr. */
function provenance(moment: TreeAtMoment, asked: LogBound): string {
  const at = moment.time === undefined ? '' : ` (${new Date(moment.time).toISOString()})`;
  const reached = 'zxid' in asked && asked.zxid > moment.zxid ? `; the logs end before ${hex(asked.zxid)}` : '';
  const fuzzy = moment.endUnknown ? `; ${moment.snapshot.file} has no digest, so changes made while it was written (after ${hex(moment.snapshot.zxid)}) may show early` : '';
  return `the tree at zxid ${hex(moment.zxid)}${at}, from ${moment.snapshot.file} and the logs after it${reached}${fuzzy}`;
}

export async function runTreeAt(sources: readonly LogSource[], args: MomentArgs, out: Output, say: (line: string) => void): Promise<number> {
  const result = await treeAtMoment(sources, args.moment, { root: args.root });
  if (!result.ok) {
    say(result.problem);
    return 1;
  }
  const { moment } = result;
  for (const issue of moment.issues) say(issue.message);
  const nodes = moment.tree.preOrder(args.root);
  if (args.exportFile !== undefined) {
    // The leader's time of the moment; else (the logs lack its transaction) when the snapshot was written.
    const at = new Date(moment.time ?? fs.statSync(moment.snapshot.file).mtimeMs);
    const file = args.exportFile;
    const count = await writePrivateFile(file, (write) => writeReplayedExport(args.root, nodes, at, write));
    if (count === 0) say(`${args.root} did not exist then: the export holds no node`);
    say(`${provenance(moment, args.moment)}: ${count} node${count === 1 ? '' : 's'} written to ${file}`);
  } else {
    const lines = new LineBatch(out, args.json);
    let count = 0;
    for (const { path, node } of nodes) {
      if (out.closed) return 0;
      count++;
      const exported = exportedReplayedNode(path, node);
      lines.add(args.json ? JSON.stringify(exported) : `${path} version ${node.stat.version}${dataSummary(node.data)}${exported.ephemeral ? `, ephemeral of session ${exported.stat!.ephemeralOwner}` : ''}`);
    }
    lines.flush();
    if (count === 0) say(`${args.root} did not exist then`);
    say(provenance(moment, args.moment));
  }
  return moment.issues.length > 0 ? 1 : 0;
}
