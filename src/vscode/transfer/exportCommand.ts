// "Export Subtree…": the node and everything below it to a JSON file (format: src/zk/transfer/exportFormat.ts),
// streamed to disk as the crawl reads it, with progress and cancel.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { baseName } from '../../zk/paths';
import { exportSubtree, ExportSummary } from '../../zk/transfer';
import { createPrivateFile, SymlinkRefusedError } from '../../zk/transfer/privateFile';
import { pickConnection } from '../core/pickConnection';
import { log } from '../common/log';
import type { Core } from '../core/core';
import { liveWriter } from '../core/liveWriter';
import { withCancellableProgress } from '../common/progress';
import { nodeTarget } from '../core/targets';
import { info, warn } from '../common/notifier';

const t = vscode.l10n.t;

export async function exportTree(core: Core, arg?: unknown, preset?: { file: string }): Promise<ExportSummary | undefined> {
  // A connection id (palette, automation) means that connection's root, not the explorer's selection.
  const known = typeof arg === 'string' ? undefined : nodeTarget(core, arg);
  const connectionId = known?.connectionId ?? await pickConnection(core, arg, false);
  if (!connectionId) return undefined;
  const root = known?.path ?? '/';
  const name = root === '/' ? 'root' : baseName(root);
  const file = preset ? vscode.Uri.file(preset.file) : await vscode.window.showSaveDialog({
    title: t('Export {0}', root), saveLabel: t('Export'), filters: { [t('ZooScope export')]: ['json'] },
    defaultUri: vscode.Uri.file(path.join(defaultExportFolder(), `${name}.zooscope.json`)),
  });
  if (!file) return undefined;
  const found = await liveWriter(core.connections, connectionId);
  if (!found) return undefined;
  const where = file.scheme === 'file' ? file.fsPath : file.toString();
  let sink: ExportSink;
  try {
    sink = openSink(file);
  } catch (error) {
    if (!(error instanceof SymlinkRefusedError)) throw error;
    void warn(t('{0} is a symbolic link; an export is never written through one. Choose another name.', where));
    return undefined;
  }
  const summary = await withCancellableProgress(t('Exporting {0}…', root), async (signal, report) => {
    try {
      const result = await exportSubtree(found.live.session, root, sink.write, {
        signal, onProgress: ({ visited }) => report(t('{0} nodes', visited)),
      });
      if (result.crawl.cancelled) sink.discard();
      else await sink.close();
      return result;
    } catch (error) {
      sink.discard();
      throw error;
    }
  });
  log().info(`export ${root} → ${where}: ${summary.nodes} nodes${summary.complete ? '' : ' (incomplete)'}`);
  if (summary.crawl.cancelled) {
    void warn(t('The export of {0} was cancelled; no file was kept.', root));
    return summary;
  }
  const open = t('Open File');
  const message = summary.complete
    ? t('Exported {0} nodes from {1} to {2}.', summary.nodes, root, where)
    : t('Exported {0} nodes from {1} to {2}, but the file is incomplete: {3} nodes could not be read{4}.', summary.nodes, root, where,
      summary.crawl.unreadableCount, summary.crawl.error ? ` (${summary.crawl.error.operation} ${summary.crawl.error.path}: ${summary.crawl.error.code})` : '');
  const notes = summary.ephemeral ? ' ' + t('{0} ephemeral nodes are marked; import skips them.', summary.ephemeral) : '';
  void (summary.complete ? info(message + notes, open) : warn(message + notes, open))
    .then((choice) => choice === open ? vscode.window.showTextDocument(file) : undefined);
  return summary;
}

/** Outside any workspace folder, so an export (which may hold ACL-protected data) is not committed by accident. */
function defaultExportFolder(): string {
  const downloads = path.join(os.homedir(), 'Downloads');
  return fs.existsSync(downloads) ? downloads : os.homedir();
}

interface ExportSink {
  write: (chunk: string) => void;
  close: () => Promise<void>;
  /** Nothing is kept; a file that was at the name stays as it was. */
  discard: () => void;
}

/** Writes chunks straight to a private local file; other file systems (virtual workspaces) get the text at the end. */
function openSink(file: vscode.Uri): ExportSink {
  if (file.scheme === 'file') {
    const local = createPrivateFile(file.fsPath);
    return { write: local.write, close: async () => local.commit(), discard: local.discard };
  }
  let chunks: string[] = [];
  return {
    write: (chunk) => void chunks.push(chunk),
    close: () => Promise.resolve(vscode.workspace.fs.writeFile(file, Buffer.from(chunks.join(''), 'utf8'))),
    discard: () => { chunks = []; },
  };
}
