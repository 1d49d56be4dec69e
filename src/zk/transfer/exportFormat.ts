// The JSON format of a subtree export, and its parser. One file:
//
//   {
//     "format": "zooscope-export",
//     "version": 1,
//     "root": "/app",                          the exported node (import may relocate it elsewhere)
//     "exportedAt": "2026-01-31T12:00:00.000Z",
//     "nodes": [                               parents always before their children, one node per line
//       { "path": "/app", "data": "", "encoding": "utf8", "stat": { … } },
//       { "path": "/app/cfg", "data": "a=1\n", "encoding": "utf8", "stat": { … } },
//       { "path": "/app/bin", "data": "AP+A", "encoding": "base64", "stat": { … } },
//       { "path": "/app/lock-0000000001", "data": "", "encoding": "utf8", "ephemeral": true, "stat": { … } }
//     ]
//   }
//
// `data` is the node's bytes as text when they are valid UTF-8 ("encoding": "utf8"), else base64. `stat` is kept
// for reference only (import never restores it): zxids and ephemeralOwner as `0x…` hex strings (they are 64-bit),
// times as epoch milliseconds. `ephemeral` marks ephemeral nodes, which import skips (they would die with the
// importing session). ZooKeeper 3.8 does not reveal container/TTL nodes in a Stat: they export as plain nodes, and
// a file cannot tell them apart. `acl` is the node's ACL as read at export time
// (`[{ "scheme": "world", "id": "anyone", "perms": "cdrwa" }]`); a node whose ACL could not be read has none.
// Import re-applies them only when asked (`applyAcls`); otherwise imported nodes get world:anyone:cdrwa.
import { hex, ZnodeStat } from '../stat';
import type { AclEntry } from '../protocol/writes';
import { isPermissionsProblem, parsePermissions } from '../write/aclFormat';

export const EXPORT_FORMAT = 'zooscope-export';
export const EXPORT_VERSION = 1;

export interface ExportedStat {
  czxid: string; mzxid: string; pzxid: string; ephemeralOwner: string;
  ctime: number; mtime: number; version: number; cversion: number; aversion: number; dataLength: number; numChildren: number;
}

export interface ExportedAcl {
  scheme: string;
  id: string;
  /** Permission letters (`cdrwa`). */
  perms: string;
}

export interface ExportedNode {
  path: string;
  data: string;
  encoding: 'utf8' | 'base64';
  ephemeral?: true;
  acl?: ExportedAcl[];
  stat?: ExportedStat;
}

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: number;
  root: string;
  exportedAt: string;
  nodes: ExportedNode[];
}

export type ExportProblem =
  | { code: 'notJson'; message: string }
  | { code: 'notAnExport' }
  | { code: 'unsupportedVersion'; version: unknown }
  | { code: 'badNode'; index: number; field: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function encodeData(data: Buffer): { data: string; encoding: 'utf8' | 'base64' } {
  try {
    return { data: strictUtf8.decode(data), encoding: 'utf8' };
  } catch {
    return { data: data.toString('base64'), encoding: 'base64' };
  }
}

export function decodeData(node: Pick<ExportedNode, 'data' | 'encoding'>): Buffer {
  return Buffer.from(node.data, node.encoding === 'base64' ? 'base64' : 'utf8');
}

export function exportStat(stat: ZnodeStat): ExportedStat {
  return {
    czxid: hex(stat.czxid), mzxid: hex(stat.mzxid), pzxid: hex(stat.pzxid), ephemeralOwner: hex(stat.ephemeralOwner),
    ctime: stat.ctime, mtime: stat.mtime, version: stat.version, cversion: stat.cversion, aversion: stat.aversion,
    dataLength: stat.dataLength, numChildren: stat.numChildren,
  };
}

/** The document's opening, up to the first node: nodes follow as `,\n`-separated JSON lines, then `closing()`. */
export function opening(root: string, exportedAt: Date): string {
  return `{"format":"${EXPORT_FORMAT}","version":${EXPORT_VERSION},"root":${JSON.stringify(root)},` +
    `"exportedAt":"${exportedAt.toISOString()}","nodes":[\n`;
}

export const closing = (): string => '\n]}\n';

/** Parses and checks an export; the nodes' paths are checked against ZooKeeper's rules at import time. */
export function parseExport(text: string): { ok: true; doc: ExportDocument } | { ok: false; problem: ExportProblem } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: { code: 'notJson', message: (error as Error).message } };
  }
  const doc = value as Partial<ExportDocument> | null;
  if (!doc || typeof doc !== 'object' || doc.format !== EXPORT_FORMAT || typeof doc.root !== 'string' || !Array.isArray(doc.nodes)) {
    return { ok: false, problem: { code: 'notAnExport' } };
  }
  if (doc.version !== EXPORT_VERSION) return { ok: false, problem: { code: 'unsupportedVersion', version: doc.version } };
  for (let index = 0; index < doc.nodes.length; index++) {
    const node = doc.nodes[index] as Partial<ExportedNode> | null;
    if (!node || typeof node !== 'object') return { ok: false, problem: { code: 'badNode', index, field: 'node' } };
    if (typeof node.path !== 'string') return { ok: false, problem: { code: 'badNode', index, field: 'path' } };
    if (typeof node.data !== 'string') return { ok: false, problem: { code: 'badNode', index, field: 'data' } };
    if (node.encoding !== 'utf8' && node.encoding !== 'base64') return { ok: false, problem: { code: 'badNode', index, field: 'encoding' } };
    if (node.path !== doc.root && !node.path.startsWith(doc.root === '/' ? '/' : `${doc.root}/`)) {
      return { ok: false, problem: { code: 'badNode', index, field: 'path' } };
    }
  }
  return { ok: true, doc: doc as ExportDocument };
}

/** The exported ACL as entries; undefined when the export has none for the node or a permission letter is unknown. */
export function exportedAcl(node: ExportedNode): AclEntry[] | undefined {
  if (!node.acl?.length) return undefined;
  const entries: AclEntry[] = [];
  for (const a of node.acl) {
    const perms = parsePermissions(a.perms);
    if (isPermissionsProblem(perms) || typeof a.scheme !== 'string' || typeof a.id !== 'string') return undefined;
    entries.push({ scheme: a.scheme, id: a.id, perms });
  }
  return entries;
}
