// Which lock a command is about: a znode from the explorer, `{ connectionId, path }` (the lock-queue panel, other
// commands, tests), or, from the palette, a connection and a path the user types (validated as they type). And,
// before joining a queue of unknown or mixed names, the convention the user chooses.
import * as vscode from 'vscode';
import { CONVENTION_IDS, convention, ConventionDetection, ConventionId, LockMode, LockPathSurvey } from '../../zk/locks';
import { checkPath } from '../../zk/paths';
import { pickConnection } from '../core/pickConnection';
import { describePathProblem } from '../common/failureTexts';
import type { Core } from '../core/core';
import { isPathNode } from '../../zk/tree/treeNodes';
import { conventionDescription, detectionWarning, modeLabel } from './lockTexts';
import { ask, fail } from '../common/notifier';
import { input, pickItem } from '../common/quickInput';
import { shown } from '../common/untrustedText';

const t = vscode.l10n.t;

/** The node a lock command is about. The naming rules are never taken from a command's arguments: the user chooses. */
export interface LockTarget {
  connectionId: string;
  path: string;
}

function asTargetObject(arg: unknown): Partial<LockTarget> | undefined {
  if (typeof arg !== 'object' || arg === null || isPathNode(arg)) return undefined;
  const o = arg as Record<string, unknown>;
  return {
    connectionId: typeof o.connectionId === 'string' ? o.connectionId : undefined,
    path: typeof o.path === 'string' ? o.path : undefined,
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
  return checked({ connectionId, path });
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

/**
 * Where to create the lock node when `path` holds more than lock nodes: a folder of lock queues offers those queues
 * (a node beside them is a lock no client of theirs sees), other children are named before anything is created.
 * Answers the path to lock, or undefined when the user backed out.
 */
export async function confirmLockPath(path: string, mode: LockMode, survey: LockPathSurvey): Promise<string | undefined> {
  if (survey.otherCount === 0) return path;
  const others = othersText(survey);
  const hasLockNodes = survey.detection.status !== 'empty';
  if (survey.queuesBelow.length > 0) {
    const here = { icon: 'add', label: t('A new lock at {0}', path), detail: hasLockNodes ? others : t('No client of the queues below uses it. {0}', others), path };
    const pick = await pickItem([
      ...survey.queuesBelow.map((queue) => ({ icon: 'lock', label: queue, detail: t('A lock queue below {0}', path), path: queue })),
      here,
    ], {
      title: t('{0}: {1} holds lock queues below it', modeLabel(mode), path),
      placeHolder: shown(hasLockNodes ? t('{0} holds lock nodes and lock queues below it: which lock do you mean?', path)
        : t('{0} holds no lock nodes, but lock queues below it: which lock do you mean?', path)),
      matchOnDetail: true, ignoreFocusOut: true,
    });
    return pick?.path;
  }
  const create = t('Create Lock Node Here');
  const answer = await ask('warning', t('{0} holds nodes that are no lock nodes.', path),
    [others, t('Your lock node goes beside them; the clients of those nodes will not see it as a lock.')], create);
  return answer === create ? path : undefined;
}

function othersText(survey: LockPathSurvey): string {
  const names = survey.otherChildren.join(', ');
  return survey.otherCount > survey.otherChildren.length
    ? t('{0} children are no lock nodes ({1}, …).', survey.otherCount, names)
    : t('{0} children are no lock nodes ({1}).', survey.otherCount, names);
}
