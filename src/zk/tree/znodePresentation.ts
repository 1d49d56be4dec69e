// What a znode's tree item shows, as plain data (no vscode): label, id, whether it expands, icon and colour ids,
// description, contextValue and the screen reader's label. The VS Code layer wraps it in a TreeItem; the bench
// times it as part of opening a node. Messages go through `t` (vscode.l10n.t there), so the text is the same.
import type { RecipeId } from '../../shared/lockAnalysis';
import type { ChildListing } from './childListing';
import { sequenceNumber } from './naturalOrder';
import { isProtectedPath } from '../paths';
import { QUOTA_ROOT, QuotaInfo, quotaState } from './quota';
import { NodeKind, nodeKind } from '../stat';
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

type Icon = ZnodePresentation['icon'];
/** One frozen icon object per id and colour: a page of 100,000 items holds a handful, not one each. */
const icons = new Map<string, Icon>();
function iconOf(id: string, color?: string): Icon {
  const key = color ? `${id} ${color}` : id;
  let icon = icons.get(key);
  if (!icon) {
    icon = Object.freeze(color ? { id, color } : { id });
    icons.set(key, icon);
  }
  return icon;
}

/**
 * Descriptions and context values repeat across siblings ("0 B", "znode kind-persistent"): the items keep one
 * copy of each. Bounded, so names in a description (a filter's text) cannot grow it without end.
 */
const shared = new Map<string, string>();
function sharedText(text: string): string {
  const known = shared.get(text);
  if (known !== undefined) return known;
  if (shared.size >= 4096) shared.clear();
  shared.set(text, text);
  return text;
}

/**
 * `znode:<connection>:`, one copy per connection: each item's id is then one string over it and the node's path,
 * not a new prefix per item (100,000 items kept 100,000 copies).
 */
const idPrefixes = new Map<string, string>();
function idPrefix(connectionId: string): string {
  let prefix = idPrefixes.get(connectionId);
  if (prefix === undefined) {
    if (idPrefixes.size >= 256) idPrefixes.clear();
    idPrefixes.set(connectionId, prefix = `znode:${connectionId}:`);
  }
  return prefix;
}

/** A number as the UI language writes it (the VS Code layer passes one; plain digits otherwise). */
export type FormatNumber = (value: number, fractionDigits?: number) => string;
const plainNumber: FormatNumber = (value, fractionDigits = 0) => value.toFixed(fractionDigits);

/** 1536 → "1.5 KB". */
export function formatBytesWith(t: Translate, bytes: number, formatNumber: FormatNumber = plainNumber): string {
  if (bytes < 1024) return t('{0} B', formatNumber(bytes));
  if (bytes < 1024 * 1024) return t('{0} KB', formatNumber(bytes / 1024, bytes < 10240 ? 1 : 0));
  return t('{0} MB', formatNumber(bytes / 1024 / 1024, 1));
}

export function kindNameWith(t: Translate, kind: NodeKind): string {
  return kind === 'persistent' ? t('persistent') : kind === 'ephemeral' ? t('ephemeral') : kind === 'container' ? t('container') : t('TTL');
}

export function filterTextWith(t: Translate, listing: ChildListing | undefined): string | undefined {
  if (!listing?.filter) return undefined;
  return t('filter "{0}": {1} of {2}', listing.filter.text, listing.matching, listing.total);
}

export interface PresentationExtras {
  /** The recipe its children follow (a lock queue). */
  lockQueue?: RecipeId;
  /** The mode this window created it with (3.8 shows containers and TTL nodes as persistent). */
  knownKind?: NodeKind;
  /** Its quota, if it has one. */
  quota?: QuotaInfo;
  formatNumber?: FormatNumber;
  /** What the node means to the system that wrote it (src/zk/decoders): its summary leads the description. */
  decoded?: { summary: string; icon: string };
}

/** `ownSessionOwner`: this window's session (its ephemeral nodes are "yours"). */
export function znodePresentation(t: Translate, node: ZnodeNode, ownSessionOwner: bigint | undefined, listing: ChildListing | undefined,
  extras: PresentationExtras = {}): ZnodePresentation {
  const { lockQueue, knownKind, quota, decoded } = extras;
  const { stat } = node;
  const hasChildren = stat.numChildren > 0;
  const kind = knownKind ?? nodeKind(stat);
  const sequential = sequenceNumber(node.name) !== undefined;
  const yours = kind === 'ephemeral' && ownSessionOwner !== undefined && stat.ephemeralOwner === ownSessionOwner;
  // Over a soft quota the server only logs a warning; at a hard one it refuses writes.
  const quotaLevel = quota ? quotaState(quota) : undefined;
  const overQuota = quotaLevel === 'atHard' || quotaLevel === 'overSoft';
  const iconId = yours ? 'account' : kind === 'persistent' ? (hasChildren ? 'folder' : sequential ? 'list-ordered' : kindIcons.persistent) : kindIcons[kind];
  const icon = overQuota ? iconOf('warning', quotaLevel === 'atHard' ? 'list.errorForeground' : 'list.warningForeground')
    : node.path === QUOTA_ROOT ? iconOf('dashboard')
      : lockQueue ? iconOf('lock', 'charts.purple') : iconOf(decoded?.icon ?? iconId, kind === 'ephemeral' ? 'charts.orange' : undefined);
  const parts = [formatBytesWith(t, stat.dataLength, extras.formatNumber)];
  // Children that follow a lock recipe (see lockQueueMarks.ts).
  if (lockQueue) parts.unshift(t('lock queue ({0})', lockQueue));
  if (hasChildren) parts.push(stat.numChildren === 1 ? t('1 child') : t('{0} children', stat.numChildren));
  if (kind !== 'persistent') parts.push(yours ? t('{0}, yours', kindNameWith(t, kind)) : kindNameWith(t, kind));
  const filter = filterTextWith(t, listing);
  if (filter) parts.push(filter);
  if (quotaLevel === 'atHard') parts.unshift(t('at hard quota'));
  else if (quotaLevel === 'overSoft') parts.unshift(t('over soft quota'));
  else if (quota) parts.push(t('quota'));
  if (node.path === QUOTA_ROOT) parts.unshift(t('holds the quotas (zkCli setquota)'));
  if (decoded?.summary) parts.unshift(decoded.summary);
  const description = sharedText(parts.join(' · '));
  const contextValue = sharedText(['znode', `kind-${kind}`, sequential ? 'sequential' : '', hasChildren ? 'children' : '', yours ? 'yours' : '',
    listing?.filter ? 'filtered' : '', lockQueue ? 'lockqueue' : '', isProtectedPath(node.path) ? 'protected' : '',
    quota ? 'quota' : '', overQuota ? 'overquota' : '', decoded ? 'decoded' : '']
    .filter(Boolean).join(' '));
  return {
    id: idPrefix(node.connectionId) + node.path,
    label: node.name,
    collapsible: hasChildren,
    icon,
    description,
    contextValue,
    // The name, then a shared ", description": one joined string per item rather than two.
    accessibilityLabel: node.name + sharedText(`, ${description}`),
  };
}
