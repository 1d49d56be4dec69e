// Connect strings as ZooKeeper clients take them: `host:port[,host:port...][/chroot]`. A host holding a control,
// direction or invisible character is refused here, where every connect string passes: shown in a prompt or a
// title, such a host could rewrite the terminal or pass for another host.
import { codePointName, hasHiddenCharacters, visibleText } from '../shared/visibleText';
import { checkPath, PathProblem } from './paths';

export interface ServerAddress {
  host: string;
  port: number;
}

export interface ParsedConnectString {
  servers: ServerAddress[];
  chroot?: string;
}

export type ConnectStringProblem =
  | { code: 'noServers' }
  | { code: 'badServer'; server: string }
  /** `server` as typed (show it through visibleText); `character` like `U+001B`. */
  | { code: 'hiddenCharacter'; server: string; character: string }
  | { code: 'badChroot'; problem: PathProblem };

const DEFAULT_PORT = 2181;

export function parseConnectString(text: string): ParsedConnectString | ConnectStringProblem {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const hostsPart = slash >= 0 ? trimmed.slice(0, slash) : trimmed;
  const chroot = slash >= 0 ? trimmed.slice(slash) : undefined;
  if (chroot !== undefined && chroot !== '/') {
    const problem = checkPath(chroot);
    if (problem) return { code: 'badChroot', problem };
  }
  const servers: ServerAddress[] = [];
  for (const raw of hostsPart.split(',').map((s) => s.trim()).filter(Boolean)) {
    const hidden = hiddenCharacterOf(raw);
    if (hidden) return { code: 'hiddenCharacter', server: raw, character: hidden };
    const m = /^(\[[0-9a-fA-F:.]+\]|[^:\s[\]]+)(?::(\d{1,5}))?$/.exec(raw);
    const port = m?.[2] ? Number(m[2]) : DEFAULT_PORT;
    if (!m || port < 1 || port > 65535) return { code: 'badServer', server: raw };
    servers.push({ host: m[1].replace(/^\[|\]$/g, ''), port });
  }
  if (servers.length === 0) return { code: 'noServers' };
  return { servers, chroot: chroot === '/' ? undefined : chroot };
}

export function isConnectStringProblem(v: ParsedConnectString | ConnectStringProblem): v is ConnectStringProblem {
  return 'code' in v;
}

export function formatConnectString(parsed: ParsedConnectString): string {
  const hosts = parsed.servers.map((s) => `${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}`).join(',');
  return hosts + (parsed.chroot ?? '');
}

function hiddenCharacterOf(text: string): string | undefined {
  if (!hasHiddenCharacters(text)) return undefined;
  const first = [...text].find((c) => hasHiddenCharacters(c));
  return first === undefined ? undefined : codePointName(first);
}

/** One line for a problem, in English (the CLI and the session's failure; the extension has its own wording). */
export function connectStringProblemText(problem: ConnectStringProblem): string {
  switch (problem.code) {
    case 'noServers': return 'no servers';
    case 'badServer': return `"${visibleText(problem.server)}" is not a host:port pair`;
    case 'badChroot': return `bad chroot (${problem.problem.code})`;
    case 'hiddenCharacter': return `host "${visibleText(problem.server)}" holds the hidden character ${problem.character}; host names cannot hold control, direction or invisible characters`;
  }
}

/** The servers as a set (host names compared without case, default port filled in); undefined when unparsable. */
function serverSet(connectString: string): Set<string> | undefined {
  const parsed = parseConnectString(connectString);
  if (isConnectStringProblem(parsed)) return undefined;
  return new Set(parsed.servers.map((s) => `${s.host.toLowerCase()}:${s.port}`));
}

/** Whether two connect strings name the same servers (order, duplicates, chroot and spelling of ports aside). */
export function sameServers(a: string, b: string): boolean {
  const first = serverSet(a);
  const second = serverSet(b);
  if (!first || !second || first.size !== second.size) return false;
  return [...first].every((s) => second.has(s));
}
