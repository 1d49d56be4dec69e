// Where a znode's data document lives: `zooscope:/<connection id>/<znode path>[?view=hex|base64]`. The connection
// id is one percent-encoded segment (ids may hold `/`); node names stay as they are in the path, and vscode.Uri
// escapes what a URI cannot hold (`?`, `#`, `%`, spaces) when it prints it. Free of the vscode API.
import { visibleText } from '../../shared/visibleText';
import { DATA_VIEWS, DataView } from './dataCodec';

export const ZNODE_SCHEME = 'zooscope';

export interface ZnodeLocation {
  connectionId: string;
  path: string;
  view: DataView;
}

// Editor tabs show the URI's last segment as it is: a name with U+202E would show reversed there. So the URI holds
// names as they are shown everywhere else ([U+202E]), reversibly: a literal "[U+" in a name is written "[U+005B]U+".
const CODE = /\[U\+([0-9A-F]{4,6})\]/g;

/** A znode path as it stands in a document URI: hidden characters written out, reversibly. */
export function visiblePath(path: string): string {
  return visibleText(path.replace(/\[U\+/g, '[U+005B]U+'));
}

/** The znode path a `visiblePath` stands for. */
export function znodePathOf(shownPath: string): string {
  return shownPath.replace(CODE, (_whole, hex: string) => String.fromCodePoint(parseInt(hex, 16)));
}

export function uriPathFor(connectionId: string, path: string): string {
  return `/${encodeURIComponent(connectionId)}${path === '/' ? '/' : visiblePath(path)}`;
}

export function queryFor(view: DataView): string {
  return view === 'text' ? '' : `view=${view}`;
}

/** The connection, znode path and view a URI path + query stand for; undefined for anything else. */
export function parseLocation(uriPath: string, query: string): ZnodeLocation | undefined {
  const match = /^\/([^/]+)(\/.*)?$/.exec(uriPath);
  if (!match) return undefined;
  let connectionId: string;
  try {
    connectionId = decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
  const rest = match[2] ?? '/';
  const path = znodePathOf(rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest);
  const asked = new URLSearchParams(query).get('view') ?? 'text';
  const view = (DATA_VIEWS as readonly string[]).includes(asked) ? asked as DataView : 'text';
  return { connectionId, path, view };
}
