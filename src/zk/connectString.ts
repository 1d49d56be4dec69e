// Connect strings as ZooKeeper clients take them: `host:port[,host:port...][/chroot]`.
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
