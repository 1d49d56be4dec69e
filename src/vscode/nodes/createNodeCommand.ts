// "Create Node…": on a node, asks for a child name; from the palette, for a full path (offering to create the
// missing parents). Then the mode, a TTL when needed, and the data. The created node is revealed and selected.
import * as vscode from 'vscode';
import { ancestors, joinPath } from '../../zk/paths';
import { CreateMode, isTtlMode, ZnodeWriter } from '../../zk/write';
import { log } from '../common/log';
import type { Core } from '../core/core';
import { isPathNode } from '../../zk/tree/treeNodes';
import { isNodeTarget } from '../core/targets';
import { pickConnection } from '../core/pickConnection';
import { askCreateParents, askData, askFullPath, askMode, askName, askTtl } from './createDialog';
import { isDurationProblem, parseDuration } from './duration';
import { showWriteFailure } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { revealPath } from '../core/reveal';
import { flash, info } from '../common/notifier';

const t = vscode.l10n.t;

/** Answers given up front (automation, tests); anything missing is asked. */
export interface CreatePreset {
  name?: string;
  path?: string;
  mode?: CreateMode;
  /** `30s`, `10m`, `2h` or milliseconds. */
  ttl?: string | number;
  data?: string;
  createParents?: boolean;
}

export async function createNode(core: Core, arg?: unknown, preset: CreatePreset = {}): Promise<string | undefined> {
  // On a node (context menu; tests pass { connectionId, path }): a child name. Else a full path.
  const onNode = isPathNode(arg) || isNodeTarget(arg);
  const connectionId = onNode ? arg.connectionId : await pickConnection(core, arg, false);
  if (!connectionId) return undefined;
  const found = await liveWriter(core.connections, connectionId);
  if (!found) return undefined;
  const { writer } = found;

  let path: string | undefined;
  let createParents = false;
  if (onNode) {
    const name = preset.name ?? await askName(arg.path);
    if (name === undefined) return undefined;
    const checked = ZnodeWriter.childPath(arg.path, name);
    if (!checked.ok) {
      void showWriteFailure(connectionId, { ...checked.refusal, operation: 'create', path: joinPath(arg.path, name) });
      return undefined;
    }
    path = checked.path;
  } else {
    const selected = core.view.selection[0];
    const start = isPathNode(selected) && selected.connectionId === connectionId ? joinPath(selected.path, '') : '/';
    path = preset.path ?? await askFullPath(start);
    if (path === undefined) return undefined;
    const missing = await missingAncestors(writer, path);
    if (missing.length > 0) {
      createParents = preset.createParents ?? await askCreateParents(missing);
      if (!createParents) return undefined;
    }
  }

  const mode = preset.mode ?? await askMode();
  if (!mode) return undefined;
  let ttlMs: number | undefined;
  if (isTtlMode(mode)) {
    const given = typeof preset.ttl === 'string' ? parseDuration(preset.ttl) : preset.ttl;
    ttlMs = given === undefined || isDurationProblem(given) ? await askTtl() : given;
    if (ttlMs === undefined) return undefined;
  }
  const data = preset.data ?? await askData(path);
  if (data === undefined) return undefined;

  const outcome = await writer.create({ path, data: Buffer.from(data, 'utf8'), mode, ttlMs, createParents });
  if (!outcome.ok) {
    void showWriteFailure(connectionId, outcome.failure);
    return undefined;
  }
  log().info(`created ${outcome.path} (${mode}${outcome.createdParents.length ? `, parents ${outcome.createdParents.join(' ')}` : ''})`);
  core.tree.createdModes.remember(connectionId, outcome.path, mode, outcome.stat);
  await revealPath(core, connectionId, outcome.path);
  announce(outcome.path, mode, outcome.createdParents);
  return outcome.path;
}

/** Ancestors of `path` that do not exist (top first). */
async function missingAncestors(writer: ZnodeWriter, path: string): Promise<string[]> {
  const missing: string[] = [];
  for (const ancestor of ancestors(path).reverse()) {
    if (ancestor === '/' || await writer.session.exists(ancestor).catch(() => true)) break;
    missing.unshift(ancestor);
  }
  return missing;
}

function announce(path: string, mode: CreateMode, createdParents: string[]): void {
  const parents = createdParents.length ? ' ' + t('(created the missing parents {0})', createdParents.join(', ')) : '';
  if (mode === 'ephemeral' || mode === 'ephemeralSequential') {
    void info(t('Created {0}. It is an ephemeral node of this window\'s session: it vanishes when the connection closes.', path) + parents);
  } else if (mode === 'persistentSequential' || mode === 'ttlSequential') {
    void info(t('Created {0} (the server chose the sequence number).', path) + parents);
  } else {
    flash(t('Created {0}', path) + parents);
  }
}
