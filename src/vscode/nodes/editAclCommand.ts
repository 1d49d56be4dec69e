// "Edit ACL…": the node's ACL as a list (add, remove, change permissions as letters), written only if nobody
// changed it meanwhile (setACL at the aversion that was read).
import * as vscode from 'vscode';
import { AclEntry, formatAclEntry, formatPermissions, isAclEntryProblem, parseAclEntry } from '../../zk/write';
import { log } from '../common/log';
import type { Core } from '../core/core';
import { askAclEntry, askPermissions } from './aclEntryInput';
import { showWriteFailure } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { nodeTargetOrAsk } from '../core/targets';
import { fail, flash } from '../common/notifier';
import { PickItem, pickItem } from '../common/quickInput';

const t = vscode.l10n.t;

/** Answers given up front (automation, tests): the new ACL as `scheme:id:perms` lines, optionally at an aversion. */
export interface AclPreset {
  acl: string[];
  aversion?: number;
}

interface Item extends PickItem { action: 'entry' | 'add' | 'save'; index?: number }

export async function editAcl(core: Core, arg?: unknown, preset?: AclPreset): Promise<boolean> {
  const target = await nodeTargetOrAsk(core, arg, t('Edit ACL'));
  if (!target) return false;
  const found = await liveWriter(core.connections, target.connectionId);
  if (!found) return false;
  const current = await found.writer.getAcl(target.path);
  if (!current.ok) {
    void showWriteFailure(target.connectionId, current.failure);
    return false;
  }
  const aversion = preset?.aversion ?? current.stat.aversion;
  const acl = preset ? parsePreset(preset.acl) : await editInteractively(target.path, current.acl, aversion);
  if (!acl) return false;
  if (acl.length === 0) {
    void fail(t('The ACL of {0} needs at least one entry.', target.path));
    return false;
  }
  const outcome = await found.writer.setAcl(target.path, acl, aversion);
  if (!outcome.ok) {
    const reload = t('Edit Again');
    // Not awaited: the command ends now; the button (if ever pressed) starts a fresh edit.
    void showWriteFailure(target.connectionId, outcome.failure, outcome.failure.code === 'badVersion' ? [reload] : [])
      .then((choice) => choice === reload ? editAcl(core, target) : undefined);
    return false;
  }
  log().info(`setACL ${target.path}: ${acl.map((e) => `${e.scheme}:${formatPermissions(e.perms)}`).join(', ')}`);
  flash(t('Saved the ACL of {0}', target.path));
  return true;
}

function parsePreset(lines: string[]): AclEntry[] | undefined {
  const parsed = lines.map(parseAclEntry);
  return parsed.some(isAclEntryProblem) ? undefined : parsed as AclEntry[];
}

async function editInteractively(path: string, original: AclEntry[], aversion: number): Promise<AclEntry[] | undefined> {
  const acl = [...original];
  for (;;) {
    const items: Item[] = [
      ...acl.map((entry, index): Item => ({ action: 'entry', index, label: `${entry.scheme}:${entry.id}`, description: formatPermissions(entry.perms) || '-' })),
      { action: 'add', icon: 'add', label: t('Add Entry…') },
      { action: 'save', icon: 'check', label: t('Save ACL'), description: t('if still at aversion {0}', aversion) },
    ];
    const pick = await pickItem(items, {
      title: t('ACL of {0}', path), placeHolder: t('Pick an entry to change or remove it; then Save ACL'),
    });
    if (!pick) return undefined;
    if (pick.action === 'save') return acl;
    if (pick.action === 'add') {
      const entry = await askAclEntry();
      if (entry) acl.push(entry);
      continue;
    }
    const index = pick.index ?? 0;
    const entry = acl[index];
    const change = t('Change Permissions…');
    const remove = t('Remove Entry');
    const what = (await pickItem([{ label: change }, { label: remove }], { title: formatAclEntry(entry) }))?.label;
    if (what === remove) acl.splice(index, 1);
    if (what === change) {
      const perms = await askPermissions(formatPermissions(entry.perms), `${entry.scheme}:${entry.id}`);
      if (perms !== undefined) acl[index] = { ...entry, perms };
    }
  }
}
