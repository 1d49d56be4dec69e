// Which lock a command is about: a znode from the explorer, `{ connectionId, path }` (the lock-queue panel, other
// commands, tests), or, from the palette, a connection and a path the user types (validated as they type). And,
// before joining a queue of unknown or mixed names, the convention the user chooses.
import * as vscode from 'vscode';
import { CONVENTION_IDS, convention, ConventionDetection, ConventionId, isConventionId, LockMode } from '../../zk/locks';
import { checkPath } from '../../zk/paths';
import { pickConnection } from '../core/pickConnection';
import { describePathProblem } from '../common/failureTexts';
import type { Core } from '../core/core';
import { isPathNode } from '../../zk/tree/treeNodes';
import { conventionDescription, detectionWarning, modeLabel } from './lockTexts';
import { fail } from '../common/notifier';
import { input, pickItem } from '../common/quickInput';

const t = vscode.l10n.t;

export interface LockTarget {
  connectionId: string;
  path: string;
  /** Given by the caller (skips the question for unknown or mixed queues). */
  convention?: ConventionId;
}

function asTargetObject(arg: unknown): Partial<LockTarget> | undefined {
  if (typeof arg !== 'object' || arg === null || isPathNode(arg)) return undefined;
  const o = arg as Record<string, unknown>;
  return {
    connectionId: typeof o.connectionId === 'string' ? o.connectionId : undefined,
    path: typeof o.path === 'string' ? o.path : undefined,
    convention: typeof o.convention === 'string' && isConventionId(o.convention) ? o.convention : undefined,
  };
}

/** Why `path` cannot be a lock path, or undefined. */
export function lockPathProblem(path: string): string | undefined {
  const problem = checkPath(path);
  if (problem) return describePathProblem(problem);
  if (path === '/') return t('Choose a node below "/": the lock\'s nodes are created under the path.');
  return undefined;
}

/** The connection and path a lock command is about; undefined when the user cancelled or the input is invalid. */
export async function resolveLockTarget(core: Core, arg: unknown, title: string): Promise<LockTarget | undefined> {
  if (isPathNode(arg)) return checked({ connectionId: arg.connectionId, path: arg.path });
  const given = asTargetObject(arg);
  if (given?.connectionId && given.path !== undefined) return checked(given as LockTarget);
  const connectionId = given?.connectionId ?? await pickConnection(core, typeof arg === 'string' ? arg : undefined);
  if (!connectionId) return undefined;
  const selected = core.view.selection[0];
  const suggestion = isPathNode(selected) && selected.connectionId === connectionId && selected.path !== '/' ? selected.path : '/';
  const path = await input({
    title, prompt: t('Path of the lock (its nodes are created under it), e.g. /app/locks/orders'),
    value: suggestion, validateInput: lockPathProblem,
  });
  if (path === undefined) return undefined;
  return checked({ connectionId, path, convention: given?.convention });
}

function checked(target: LockTarget): LockTarget | undefined {
  const problem = lockPathProblem(target.path);
  if (!problem) return target;
  void fail(problem);
  return undefined;
}

/**
 * The convention to join `path` with: 'auto' for an empty or recognised queue; for unknown or mixed names the
 * user's choice among the conventions that have such a lock (undefined = the user backed out).
 */
export async function chooseConvention(path: string, mode: LockMode, detection: ConventionDetection): Promise<ConventionId | 'auto' | undefined> {
  if (detection.status === 'empty' || detection.status === 'recognised') return 'auto';
  const items = CONVENTION_IDS.filter((id) => convention(id).roleFor(mode) !== undefined).map((id) => ({
    label: id, id,
    description: detection.status === 'mixed' && detection.conventions.includes(id) ? t('found here') : undefined,
    detail: conventionDescription(id),
  }));
  const pick = await pickItem(items, {
    title: t('{0} at {1}: which naming rules should your node follow?', modeLabel(mode), path),
    placeHolder: detectionWarning(path, detection),
    matchOnDetail: true, ignoreFocusOut: true,
  });
  return pick?.id;
}
