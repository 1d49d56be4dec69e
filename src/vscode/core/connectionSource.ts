// Which `zooscope.connections` list ZooScope uses, and where it came from. A folder's settings replace the user's
// list (as VS Code does for arrays) only in a trusted workspace; in Restricted Mode they are ignored. The origin
// decides whose secrets a connection may have. No `vscode` here: unit-tested.

export type ConnectionOrigin = 'user' | 'workspace';

export interface InspectedConnections {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export interface ConnectionSource {
  entries: unknown[];
  origin: ConnectionOrigin;
}

export function connectionSource(inspected: InspectedConnections | undefined, trusted: boolean): ConnectionSource {
  const workspace = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
  if (workspace !== undefined && trusted) return { entries: asList(workspace), origin: 'workspace' };
  return { entries: asList(inspected?.globalValue), origin: 'user' };
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * A setting that names what runs on this machine (the ssh program, an ssh config file that can name a ProxyCommand):
 * only the user's own value counts, never a folder's, trusted or not.
 */
export function userOnlyText(inspected: InspectedConnections | undefined): string | undefined {
  const value = inspected?.globalValue;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
