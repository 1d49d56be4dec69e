// How search results are listed: by path relative to the search root, in natural order segment by segment
// (item-2 before item-10, a parent before its children), with the matched part of a data snippet located in the
// text as shown (hidden characters written out, whitespace runs as one space) so a view can highlight it.
import { visibleText } from '../../shared/visibleText';
import { compareNatural } from '../tree/naturalOrder';

/** `path` relative to `root`: `config/app.json` under `/demo`; `.` for the root itself; the full path elsewhere. */
export function relativeToRoot(root: string, path: string): string {
  if (path === root) return '.';
  if (root === '/') return path.slice(1);
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** Natural order by segments: `/a/item-2` < `/a/item-10` < `/a/item-10/x` < `/a-b`. */
export function comparePaths(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const c = compareNatural(as[i], bs[i]);
    if (c !== 0) return c;
  }
  return as.length - bs.length;
}

export function sortedByPath<T extends { path: string }>(matches: readonly T[]): T[] {
  return [...matches].sort((x, y) => comparePaths(x.path, y.path));
}

/** The snippet as shown on one line, and the [start, end) of the match in that text. */
export function highlightedSnippet(content: { snippet: string; matchStart: number; matchLength: number }): { text: string; highlight: [number, number] } {
  const oneLine = (s: string) => visibleText(s.replace(/[\t\n\r ]+/g, ' '));
  const before = oneLine(content.snippet.slice(0, content.matchStart)).trimStart();
  const matched = oneLine(content.snippet.slice(content.matchStart, content.matchStart + content.matchLength));
  const after = oneLine(content.snippet.slice(content.matchStart + content.matchLength)).trimEnd();
  return { text: before + matched + after, highlight: [before.length, before.length + matched.length] };
}
