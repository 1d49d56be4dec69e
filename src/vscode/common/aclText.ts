// A node's ACL for the tooltip and the Details view: read on demand (one getACL, when hovered or opened), never
// with the listing, so browsing costs nothing extra.
import * as vscode from 'vscode';
import type { ZkSession } from '../../zk/session/session';
import { AclEntry, formatPermissions, ZnodeWriter } from '../../zk/write';
import { describeWriteFailure } from './failureTexts';

export type AclView = { entries: AclEntry[] } | { problem: string };

export async function readAcl(session: ZkSession, path: string): Promise<AclView> {
  const outcome = await new ZnodeWriter(session, { readOnly: true }).getAcl(path);
  return outcome.ok ? { entries: outcome.acl } : { problem: describeWriteFailure(outcome.failure) };
}

/** `scheme:id  cdrwa` lines (or why the ACL could not be read). */
export function aclLines(acl: AclView): string[] {
  if ('problem' in acl) return [vscode.l10n.t('ACL not readable: {0}', acl.problem)];
  return acl.entries.map((e) => `${e.scheme}:${e.id}  ${formatPermissions(e.perms) || '-'}`);
}
