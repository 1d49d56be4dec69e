// Set Quota… and Remove Quota on a node: the quotas zkCli's setquota/delquota keep under /zookeeper/quota
// (src/zk/tree/quota.ts), so the two tools see the same limits. Soft limits only make the server log a warning; hard
// ones make it refuse writes (when it runs with zookeeper.enforceQuota=true).
import * as vscode from 'vscode';
import { isProtectedPath } from '../../zk/paths';
import { deleteQuota, QuotaInfo, QuotaKey, QuotaLimits, QuotaRefusal, readQuota, setQuota, statsValue } from '../../zk/tree/quota';
import type { ZkSession } from '../../zk/session/session';
import type { Core } from '../core/core';
import { info, warn } from '../common/notifier';
import { input, pickItem } from '../common/quickInput';
import { nodeTargetOrAsk } from '../core/targets';
import { refreshParents } from '../core/reveal';

const t = vscode.l10n.t;

/** The limits a test passes instead of answering the dialogs: numbers by StatsTrack key. */
export type GivenLimits = Partial<Record<QuotaKey, number>>;

function keyLabel(key: QuotaKey): string {
  switch (key) {
    case 'count': return t('Nodes, soft limit');
    case 'countHardLimit': return t('Nodes, hard limit');
    case 'bytes': return t('Bytes, soft limit');
    case 'byteHardLimit': return t('Bytes, hard limit');
  }
}

async function askLimits(path: string, current: QuotaInfo | undefined): Promise<QuotaLimits | undefined> {
  const keys: QuotaKey[] = ['count', 'countHardLimit', 'bytes', 'byteHardLimit'];
  const picked = await pickItem(keys.map((key) => {
    const value = current ? statsValue(current.limits, key) : -1n;
    return { key, label: keyLabel(key), description: value > -1n ? t('now {0}', String(value)) : t('not set') };
  }), { title: t('Set Quota on {0}', path), placeHolder: t('Which limit? (soft: the server logs a warning; hard: it refuses writes)') });
  if (!picked) return undefined;
  const answer = await input({
    title: t('Set Quota on {0}', path),
    prompt: t('{0}: a whole number (0 or more)', keyLabel(picked.key)),
    validateInput: (value) => (/^\d{1,18}$/.test(value.trim()) ? undefined : t('Enter a whole number, 0 or more.')),
  });
  if (answer === undefined) return undefined;
  return { [picked.key]: BigInt(answer.trim()) };
}

async function target(core: Core, arg: unknown, title: string) {
  const node = await nodeTargetOrAsk(core, arg, title);
  if (!node) return undefined;
  const live = core.connections.get(node.connectionId) ?? await core.connections.connect(node.connectionId);
  if (!live) return undefined;
  if (live.saved.readOnly) {
    void warn(t('{0} was not changed: this connection is read-only.', node.path));
    return undefined;
  }
  if (node.path === '/' || isProtectedPath(node.path)) {
    void warn(t('{0} is protected: ZooScope never changes or deletes "/" or /zookeeper.', node.path));
    return undefined;
  }
  return { ...node, live };
}

async function redraw(core: Core, connectionId: string, path: string, session: ZkSession): Promise<void> {
  await core.tree.quotaMarks.load(connectionId, session);
  await refreshParents(core, connectionId, [path]);
}

/** Sets one limit (or, from a test, the limits given); resolves to the limits now stored, or undefined. */
export async function setQuotaCommand(core: Core, arg: unknown, given?: GivenLimits): Promise<QuotaInfo | undefined> {
  const node = await target(core, arg, t('Set Quota'));
  if (!node) return undefined;
  const session = node.live.session;
  const limits: QuotaLimits | undefined = given
    ? Object.fromEntries(Object.entries(given).map(([k, v]) => [k, BigInt(v as number)]))
    : await askLimits(node.path, await readQuota(session, node.path).catch(() => undefined));
  if (!limits) return undefined;
  try {
    const result = await setQuota(session, node.path, limits);
    if (result.warnings.length > 0) void warn(t('The quota on {0} is already exceeded: {1}', node.path, result.warnings.join(' ')));
    else void info(t('Quota set on {0}.', node.path));
  } catch (error) {
    if (error instanceof QuotaRefusal) {
      void warn(t('No quota was set: {0}', error.message));
      return undefined;
    }
    throw error;
  }
  await redraw(core, node.connectionId, node.path, session);
  return readQuota(session, node.path);
}

/** Removes the node's quota (all its limits); resolves to whether there was one. */
export async function removeQuotaCommand(core: Core, arg: unknown): Promise<boolean> {
  const node = await target(core, arg, t('Remove Quota'));
  if (!node) return false;
  const session = node.live.session;
  const outcome = await deleteQuota(session, node.path);
  if (outcome === 'noQuota') {
    void info(t('{0} has no quota.', node.path));
    return false;
  }
  void info(t('Quota removed from {0}.', node.path));
  await redraw(core, node.connectionId, node.path, session);
  return true;
}
