// "Compare Path Across Members…": reads one path from each member alone (after a check that finds the leader) and
// opens where a follower serves other data than the leader as a read-only report. No sync is issued, on purpose.
import * as vscode from 'vscode';
import type { Core } from '../core/core';
import { askZnodePath } from '../common/askZnodePath';
import { withCancellableProgress } from '../common/progress';
import { isConnectStringProblem, parseConnectString } from '../../zk/connectString';
import { comparePathAcrossMembers } from '../../zk/servers/pathAcrossMembers';
import { isPathNode, ZnodeNode } from '../../zk/tree/treeNodes';
import { pathReport } from './agreementReport';
import { checkConnection, ensembleConnection, isCancel } from './checkMembersAgreeCommand';

const t = vscode.l10n.t;

export async function comparePathAcrossMembersCommand(core: Core, target?: unknown): Promise<string | undefined> {
  const saved = await ensembleConnection(core, isPathNode(target) ? target.connectionId : target);
  if (!saved) return undefined;
  const path = await askZnodePath(target instanceof ZnodeNode ? target.path : undefined, { title: t('Compare Path Across Members of {0}', saved.name), value: '/' });
  if (path === undefined) return undefined;
  try {
    const comparison = await withCancellableProgress(t('Reading {0} from every member of {1}', path, saved.name), async (signal) => {
      const check = await checkConnection(core, saved, signal);
      const { connectString, ...session } = await core.store.sessionOptions(saved);
      // Each member's session has only its address: the connect string's own chroot goes first, as a session's would.
      const parsed = parseConnectString(connectString);
      const chroot = [isConnectStringProblem(parsed) ? undefined : parsed.chroot, session.chroot].filter((p) => p && p !== '/').join('') || undefined;
      return comparePathAcrossMembers(check.members.map((m) => m.address), path, {
        leader: check.leader, deadlineMs: check.thresholds.deadlineMs, withChildren: true, signal, session: { ...session, chroot },
      });
    }, 'zooscope.ensemble');
    const text = pathReport(saved.name, comparison);
    await core.reports.show(t('{0} across members', path), text);
    return text;
  } catch (error) {
    if (isCancel(error)) return undefined;
    throw error;
  }
}
