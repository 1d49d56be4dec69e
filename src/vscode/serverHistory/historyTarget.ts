// What a server-history question is about: a connection (whose log folders are read) and a path. The clicked znode,
// or a path given up front, else one typed: the node asked about may be long deleted, so it need not be in the tree.
import { isPathNode } from '../../zk/tree/treeNodes';
import { askZnodePath } from '../common/askZnodePath';
import type { Core } from '../core/core';
import { pickConnection } from '../core/pickConnection';

export interface HistoryTarget {
  connectionId: string;
  path: string;
}

/** `ask`: the input box's title and prompt when neither the click nor `presetPath` names the node. */
export async function historyTarget(core: Core, arg: unknown, ask: { title: string; prompt: string }, presetPath?: string): Promise<HistoryTarget | undefined> {
  const connectionId = await pickConnection(core, arg, false);
  if (!connectionId) return undefined;
  if (presetPath) return { connectionId, path: presetPath };
  if (isPathNode(arg) && arg.kind === 'znode') return { connectionId, path: arg.path };
  const path = await askZnodePath(undefined, { ...ask, value: '/' });
  return path === undefined ? undefined : { connectionId, path };
}
