// What a znode's tree item shows, as plain data (no vscode): label, id, whether it expands, icon and colour ids,
// description, contextValue and the screen reader's label. The VS Code layer wraps it in a TreeItem; the bench
// times it as part of opening a node. Messages go through `t` (vscode.l10n.t there), so the text is the same.
import type { RecipeId } from '../analysis/model';
import type { ChildListing } from '../childListing';
import { sequenceNumber } from '../naturalOrder';
import { NodeKind, nodeKind } from '../stat';
import { isProtectedPath } from '../write/guard';
import type { ZnodeNode } from './treeNodes';

/** Translates `message` with `{0}`-style arguments, as vscode.l10n.t does. */
export type Translate = (message: string, ...args: (string | number | boolean)[]) => string;

export interface ZnodePresentation {
  id: string;
  label: string;
  /** Collapsed (it has children) or not expandable at all. */
  collapsible: boolean;
  /** A ThemeIcon id, and a ThemeColor id when coloured. */
  icon: { id: string; color?: string };
  description: string;
  contextValue: string;
  accessibilityLabel: string;
}

const kindIcons = { persistent: 'symbol-file', ephemeral: 'pulse', container: 'package', ttl: 'history' } as const;

/** 1536 → "1.5 KB" (the same messages as src/vscode's formatBytes). */
export function formatBytesWith(t: Translate, bytes: number): string {
  if (bytes < 1024) return t('{0} B', bytes);
  if (bytes < 1024 * 1024) return t('{0} KB', (bytes / 1024).toFixed(bytes < 10240 ? 1 : 0));
  return t('{0} MB', (bytes / 1024 / 1024).toFixed(1));
}

export function kindNameWith(t: Translate, kind: NodeKind): string {
  return kind === 'persistent' ? t('persistent') : kind === 'ephemeral' ? t('ephemeral') : kind === 'container' ? t('container') : t('TTL');
}

export function filterTextWith(t: Translate, listing: ChildListing | undefined): string | undefined {
  if (!listing?.filter) return undefined;
  return t('filter "{0}": {1} of {2}', listing.filter.text, listing.matching, listing.total);
}

/**
 * `ownSessionOwner`: this window's session (its ephemeral nodes are "yours"); `lockQueue`: the recipe its children
 * follow; `knownKind`: the mode this window created it with (3.8 shows containers and TTL nodes as persistent).
 */
export function znodePresentation(t: Translate, node: ZnodeNode, ownSessionOwner: bigint | undefined, listing: ChildListing | undefined,
  lockQueue?: RecipeId, knownKind?: NodeKind): ZnodePresentation {
  const { stat } = node;
  const hasChildren = stat.numChildren > 0;
  const kind = knownKind ?? nodeKind(stat);
  const sequential = sequenceNumber(node.name) !== undefined;
  const yours = kind === 'ephemeral' && ownSessionOwner !== undefined && stat.ephemeralOwner === ownSessionOwner;
  const iconId = yours ? 'account' : kind === 'persistent' ? (hasChildren ? 'folder' : sequential ? 'list-ordered' : kindIcons.persistent) : kindIcons[kind];
  const icon = lockQueue ? { id: 'lock', color: 'charts.purple' } : { id: iconId, color: kind === 'ephemeral' ? 'charts.orange' : undefined };
  const parts = [formatBytesWith(t, stat.dataLength)];
  // Children that follow a lock recipe (see lockQueueMarks.ts).
  if (lockQueue) parts.unshift(t('lock queue ({0})', lockQueue));
  if (hasChildren) parts.push(stat.numChildren === 1 ? t('1 child') : t('{0} children', stat.numChildren));
  if (kind !== 'persistent') parts.push(yours ? t('{0}, yours', kindNameWith(t, kind)) : kindNameWith(t, kind));
  const filter = filterTextWith(t, listing);
  if (filter) parts.push(filter);
  const description = parts.join(' · ');
  const contextValue = ['znode', `kind-${kind}`, sequential ? 'sequential' : '', hasChildren ? 'children' : '', yours ? 'yours' : '',
    listing?.filter ? 'filtered' : '', lockQueue ? 'lockqueue' : '', isProtectedPath(node.path) ? 'protected' : '']
    .filter(Boolean).join(' ');
  return {
    id: `znode:${node.connectionId}:${node.path}`,
    label: node.name,
    collapsible: hasChildren,
    icon,
    description,
    contextValue,
    accessibilityLabel: `${node.name}, ${description}`,
  };
}
