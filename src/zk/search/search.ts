// Finding nodes in a subtree by path (glob or /regex/ on the name or the full path) and/or by data content
// (substring or /regex/flags on the data read as UTF-8). Results stream through a callback as the pipelined crawl
// finds them, up to a cap; nothing but the crawl's frontier is held. Data is only fetched for nodes that pass the
// path filter and have data.
import { isNameFilterProblem, NameFilter, NameFilterProblem, parseNameFilter } from '../tree/nameFilter';
import { baseName } from '../paths';
import type { ZkSession } from '../session/session';
import type { ZnodeStat } from '../stat';
import { crawl, CrawlOptions, CrawlSummary } from './crawl';

export interface SearchQuery {
  root: string;
  /** A glob (`lock-*`) or `/regex/flags`, tested against each node's name (or full path with `matchFullPath`). */
  path?: string;
  matchFullPath?: boolean;
  /** A substring, or `/regex/flags`, searched in the data decoded as UTF-8 (invalid bytes read as U+FFFD). */
  content?: string;
  /** For a substring (default true). A regex says it with its own `i` flag. */
  caseSensitive?: boolean;
  /** Stop after this many matches (default 1000). */
  maxResults?: number;
}

export interface SearchMatch {
  path: string;
  stat: ZnodeStat;
  /** For content searches: the first match's byte offset in the data and up to ~80 characters around it. */
  /** For content searches: the first match's byte offset in the data, up to ~80 characters around it, and where in
   *  the snippet the match is (UTF-16 offset and length). */
  content?: { byteOffset: number; snippet: string; matchStart: number; matchLength: number };
}

export type SearchProblem = (NameFilterProblem & { field: 'path' | 'content' }) | { code: 'emptyQuery' };

export interface SearchSummary extends CrawlSummary {
  matched: number;
  /** More nodes matched than maxResults: the search stopped there. */
  truncated: boolean;
}

export type SearchOptions = Pick<CrawlOptions, 'window' | 'signal' | 'onProgress' | 'progressIntervalMs' | 'stallTimeoutMs'>;

type ContentMatcher = (data: Buffer) => NonNullable<SearchMatch['content']> | undefined;

const SNIPPET_CONTEXT = 40;

function snippetAt(data: Buffer, byteOffset: number, byteLength: number): NonNullable<SearchMatch['content']> {
  const from = Math.max(0, byteOffset - SNIPPET_CONTEXT);
  const to = Math.min(data.length, byteOffset + byteLength + SNIPPET_CONTEXT);
  const before = data.subarray(from, byteOffset).toString('utf8');
  const matched = data.subarray(byteOffset, byteOffset + byteLength).toString('utf8');
  const after = data.subarray(byteOffset + byteLength, to).toString('utf8');
  return { byteOffset, snippet: before + matched + after, matchStart: before.length, matchLength: matched.length };
}

function contentMatcher(text: string, caseSensitive: boolean): ContentMatcher | NameFilterProblem {
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(text);
  if (regex) {
    let re: RegExp;
    try {
      re = new RegExp(regex[1], regex[2].replace(/[gy]/g, ''));
    } catch (error) {
      return { code: 'badRegex', message: (error as Error).message };
    }
    return (data) => {
      const decoded = data.toString('utf8');
      const m = re.exec(decoded);
      if (!m) return undefined;
      const byteOffset = Buffer.byteLength(decoded.slice(0, m.index));
      return snippetAt(data, byteOffset, Buffer.byteLength(m[0]));
    };
  }
  if (caseSensitive) {
    // Byte search: no decoding for the nodes that do not match.
    const needle = Buffer.from(text, 'utf8');
    return (data) => {
      const at = data.indexOf(needle);
      return at < 0 ? undefined : snippetAt(data, at, needle.length);
    };
  }
  const lower = text.toLowerCase();
  return (data) => {
    const decoded = data.toString('utf8');
    const at = decoded.toLowerCase().indexOf(lower);
    if (at < 0) return undefined;
    const byteOffset = Buffer.byteLength(decoded.slice(0, at));
    return snippetAt(data, byteOffset, Buffer.byteLength(decoded.slice(at, at + text.length)));
  };
}

/** Checks the query; the matchers it builds, or the problem to show next to the field. */
export function compileSearch(query: SearchQuery): { pathOk: (path: string) => boolean; content?: ContentMatcher } | SearchProblem {
  if (!query.path && !query.content) return { code: 'emptyQuery' };
  let filter: NameFilter | undefined;
  if (query.path) {
    const parsed = parseNameFilter(query.path);
    if (isNameFilterProblem(parsed)) return { ...parsed, field: 'path' };
    filter = parsed;
  }
  const pathOk = !filter ? () => true : query.matchFullPath ? (p: string) => filter.test(p) : (p: string) => filter.test(baseName(p));
  if (!query.content) return { pathOk };
  const content = contentMatcher(query.content, query.caseSensitive ?? true);
  if (typeof content !== 'function') return { ...content, field: 'content' };
  return { pathOk, content };
}

export function isSearchProblem(value: ReturnType<typeof compileSearch>): value is SearchProblem {
  return 'code' in value;
}

/** Searches `query.root` and below; `onMatch` gets each match as it is found. */
export async function searchTree(
  session: ZkSession, query: SearchQuery, onMatch: (match: SearchMatch) => void, options: SearchOptions = {},
): Promise<{ ok: true; summary: SearchSummary } | { ok: false; problem: SearchProblem }> {
  const compiled = compileSearch(query);
  if (isSearchProblem(compiled)) return { ok: false, problem: compiled };
  const { pathOk, content } = compiled;
  const max = Math.max(1, query.maxResults ?? 1000);
  let matched = 0;
  let truncated = false;
  const summary = await crawl(session, query.root, (node) => {
    if (!pathOk(node.path)) return;
    let found: SearchMatch['content'];
    if (content) {
      if (!node.data) return;
      found = content(node.data);
      if (!found) return;
    }
    if (matched === max) {
      truncated = true;
      return false;
    }
    matched++;
    onMatch(found ? { path: node.path, stat: node.stat, content: found } : { path: node.path, stat: node.stat });
  }, {
    ...options,
    wantData: content ? (path, stat) => stat.dataLength > 0 && pathOk(path) : undefined,
  });
  return { ok: true, summary: { ...summary, matched, truncated } };
}
