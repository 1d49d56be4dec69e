// ZooKeeper path rules (the same ones PathUtils.validatePath enforces on the server), checked before anything is
// sent, so the user gets a precise reason instead of a server error.

import { codePointName, hasHiddenCharacters } from '../shared/visibleText';

export type PathProblem =
  | { code: 'empty' }
  | { code: 'notAbsolute' }
  | { code: 'trailingSlash' }
  | { code: 'emptySegment'; index: number }
  | { code: 'relativeSegment'; segment: '.' | '..'; index: number }
  | { code: 'invalidCharacter'; codePoint: number; index: number };

/** Characters ZooKeeper refuses in a path: NUL, C0/C1 controls, DEL, and the ranges PathUtils rejects. */
function isForbiddenCodePoint(c: number): boolean {
  return (c > 0x0000 && c <= 0x001f) || (c >= 0x007f && c <= 0x009f) || (c >= 0xd800 && c <= 0xf8ff) ||
    (c >= 0xfff0 && c <= 0xffff) || c === 0;
}

export function checkPath(path: string): PathProblem | undefined {
  if (path.length === 0) return { code: 'empty' };
  if (path[0] !== '/') return { code: 'notAbsolute' };
  if (path === '/') return undefined;
  if (path.endsWith('/')) return { code: 'trailingSlash' };
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (isForbiddenCodePoint(c)) return { code: 'invalidCharacter', codePoint: c, index: i };
  }
  // Segment by segment without splitting: a copy checks every one of 100,000 paths.
  for (let index = 1; index <= path.length;) {
    let end = path.indexOf('/', index);
    if (end < 0) end = path.length;
    if (end === index) return { code: 'emptySegment', index };
    if (path.charCodeAt(index) === 0x2e && (end === index + 1 || (end === index + 2 && path.charCodeAt(index + 1) === 0x2e))) {
      return { code: 'relativeSegment', segment: end === index + 1 ? '.' : '..', index };
    }
    index = end + 1;
  }
  return undefined;
}

/** A node name (one path segment): what `checkPath` says of `/name`, and no `/` inside. */
export function checkNodeName(name: string): PathProblem | undefined {
  if (name === '') return { code: 'empty' };
  const slash = name.indexOf('/');
  if (slash >= 0) return { code: 'invalidCharacter', codePoint: 0x2f, index: slash };
  const problem = checkPath('/' + name);
  return problem && 'index' in problem ? { ...problem, index: problem.index - 1 } : problem;
}

/** How a refused character is named to the user: the character itself when it can be seen ("/"), its code when
 *  it is invisible or changes the text around it (U+0007, U+202E; see shared/visibleText). */
export function characterInWords(codePoint: number): { shown: string } | { code: string } {
  const char = String.fromCodePoint(codePoint);
  return hasHiddenCharacters(char) ? { code: codePointName(char) } : { shown: char };
}

/** `/zookeeper` and everything below it belong to the server (quotas, config). */
export function isProtectedPath(path: string): boolean {
  return path === '/' || path === '/zookeeper' || path.startsWith('/zookeeper/');
}

/** Whether `path` lies strictly below `root` (every node but the root itself, for `/`). */
export function isBelow(path: string, root: string): boolean {
  return root === '/' ? path !== '/' && path !== '' : path.startsWith(`${root}/`);
}

export function joinPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

export function parentPath(path: string): string | undefined {
  if (path === '/') return undefined;
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export function baseName(path: string): string {
  return path === '/' ? '/' : path.slice(path.lastIndexOf('/') + 1);
}

/** `/a/b/c` → [`/`, `/a`, `/a/b`] (the path itself is not included). */
export function ancestors(path: string): string[] {
  const result: string[] = [];
  for (let p = parentPath(path); p !== undefined; p = parentPath(p)) result.unshift(p);
  return result;
}
