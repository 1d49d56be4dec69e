// The questions "Create Node…" asks: a name (or a full path from the palette), the mode, a TTL, the data. They stay
// open when focus moves elsewhere (to look up a name in the tree, say): Escape cancels.
import * as vscode from 'vscode';
import { checkPath, isProtectedPath } from '../../zk/paths';
import { CreateMode, MAX_TTL_MS, ZnodeWriter } from '../../zk/write';
import { describePathProblem, describeWriteFailure } from '../common/failureTexts';
import { formatDuration, isDurationProblem, parseDuration } from './duration';
import { ask } from '../common/notifier';
import { input, pickItem } from '../common/quickInput';

const t = vscode.l10n.t;

export function askName(parent: string): Thenable<string | undefined> {
  return input({
    title: t('Create Node under {0}', parent), ignoreFocusOut: true,
    prompt: t('Name of the new node (for sequential nodes, the prefix before the 10-digit number)'),
    validateInput: (name) => {
      const checked = ZnodeWriter.childPath(parent, name);
      if (!checked.ok) return checked.refusal.code === 'invalidPath' ? describePathProblem(checked.refusal.problem) : undefined;
      return isProtectedPath(checked.path) ? describeWriteFailure({ code: 'protectedPath', operation: 'create', path: checked.path }) : undefined;
    },
  });
}

export function askFullPath(value: string): Thenable<string | undefined> {
  return input({
    title: t('Create Node'), ignoreFocusOut: true, prompt: t('Full path of the new node, e.g. /app/config/feature'), value,
    validateInput: (path) => {
      const problem = checkPath(path);
      if (problem) return describePathProblem(problem);
      return isProtectedPath(path) ? describeWriteFailure({ code: 'protectedPath', operation: 'create', path }) : undefined;
    },
  });
}

export async function askCreateParents(missing: string[]): Promise<boolean> {
  const create = t('Create Parents');
  const choice = await ask('warning',
    t('The parent {0} does not exist.', missing[missing.length - 1]),
    t('Create the missing nodes as empty persistent nodes first (like mkdir -p): {0}', missing.join(', ')),
    create);
  return choice === create;
}

interface ModeItem extends vscode.QuickPickItem { mode: CreateMode }

export async function askMode(): Promise<CreateMode | undefined> {
  const ownedBySession = t('Owned by this window\'s session: it vanishes when the connection closes (or VS Code exits).');
  const items: ModeItem[] = [
    { mode: 'persistent', label: t('Persistent'), description: t('stays until deleted') },
    { mode: 'persistentSequential', label: t('Persistent, sequential'), description: t('the server appends a 10-digit number') },
    { mode: 'ephemeral', label: t('Ephemeral'), description: t('cannot have children'), detail: ownedBySession },
    { mode: 'ephemeralSequential', label: t('Ephemeral, sequential'), description: t('the server appends a 10-digit number'), detail: ownedBySession },
    { mode: 'container', label: t('Container'), description: t('the server deletes it once its last child is gone') },
    { mode: 'ttl', label: t('TTL'), description: t('deleted after a time without changes when it has no children'), detail: t('Needs a server started with zookeeper.extendedTypesEnabled=true.') },
    { mode: 'ttlSequential', label: t('TTL, sequential'), description: t('the server appends a 10-digit number'), detail: t('Needs a server started with zookeeper.extendedTypesEnabled=true.') },
  ];
  const pick = await pickItem(items, { title: t('Create Node: mode'), placeHolder: t('What kind of node?'), matchOnDetail: true, ignoreFocusOut: true });
  return pick?.mode;
}

export async function askTtl(): Promise<number | undefined> {
  const text = await input({
    title: t('Create Node: time to live'), ignoreFocusOut: true, prompt: t('How long the node may stay unchanged and childless, e.g. 30s, 10m, 2h, 1d'), value: '10m',
    validateInput: (v) => {
      const ms = parseDuration(v);
      if (isDurationProblem(ms)) return t('"{0}" is not a duration: use a number with ms, s, m, h or d, e.g. 30s or 1h30m.', v);
      if (ms < 1 || ms > MAX_TTL_MS) return t('A time to live must be between 1 ms and {0}.', formatDuration(MAX_TTL_MS));
      return undefined;
    },
  });
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  return isDurationProblem(ms) ? undefined : ms;
}

export function askData(path: string): Thenable<string | undefined> {
  return input({
    title: t('Create Node: data'), ignoreFocusOut: true, prompt: t('Initial data of {0} as UTF-8 text (may be empty; edit it later with "Open Data")', path), value: '',
  });
}
