// The ensemble's membership as the servers keep it in `/zookeeper/config` (3.5+ dynamic configuration):
// `server.<id>=<host>:<quorumPort>:<electionPort>[:participant|:observer][;[<clientHost>:]<clientPort>]` lines and a
// `version=` line. A standalone server (and 3.4) leaves it empty. Members whose line has no client address (a
// zoo.cfg with a separate `clientPort`) are known by their quorum address only: they cannot be asked for health.
import { getConfig } from '../protocol/nullableData';
import type { ZkSession } from '../session/session';

export const CONFIG_NODE = '/zookeeper/config';

export interface ConfigMember {
  id: number;
  host: string;
  quorumPort: number;
  electionPort: number;
  role: 'participant' | 'observer';
  /** `host:clientPort` to ask, when the line has a client address (a wildcard host is the quorum host). */
  client?: string;
}

export interface EnsembleConfig {
  members: ConfigMember[];
  version?: string;
}

function splitHostPort(text: string): { host: string; rest: string[] } | undefined {
  const bracketed = /^\[([^\]]+)\]:(.*)$/.exec(text);
  if (bracketed) return { host: bracketed[1], rest: bracketed[2].split(':') };
  const parts = text.split(':');
  return parts.length >= 2 ? { host: parts[0], rest: parts.slice(1) } : undefined;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0']);

/** Parses the text of `/zookeeper/config`; lines it does not understand are skipped. */
export function parseEnsembleConfig(text: string): EnsembleConfig {
  const members: ConfigMember[] = [];
  let version: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const v = /^version=(\S+)$/.exec(line);
    if (v) { version = v[1]; continue; }
    const m = /^server\.(\d+)=([^;]+)(?:;(.*))?$/.exec(line);
    if (!m) continue;
    const quorum = splitHostPort(m[2].trim());
    if (!quorum) continue;
    const [quorumPort, electionPort, role] = quorum.rest;
    const member: ConfigMember = {
      id: Number(m[1]), host: quorum.host, quorumPort: Number(quorumPort), electionPort: Number(electionPort),
      role: role === 'observer' ? 'observer' : 'participant',
    };
    const clientText = m[3]?.trim();
    if (clientText) {
      const hostPort = splitHostPort(clientText);
      const host = hostPort && !WILDCARDS.has(hostPort.host) ? hostPort.host : quorum.host;
      const port = hostPort ? hostPort.rest[0] : clientText;
      if (/^\d+$/.test(port)) member.client = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    }
    members.push(member);
  }
  return { members, version };
}

/**
 * Reads the server's own `/zookeeper/config`, never the chroot's: under a chroot `/app`, `/app/zookeeper/config` is
 * ordinary data any tenant may write, and the members listed here get probed (words, AdminServer, our client
 * certificate). Undefined when the server keeps none (standalone, 3.4) or refuses the read.
 */
export async function readEnsembleConfig(session: ZkSession): Promise<EnsembleConfig | undefined> {
  try {
    const { data } = await session.request(getConfig(session.channel, false), 'getConfig', CONFIG_NODE);
    const config = parseEnsembleConfig(data?.toString('utf8') ?? '');
    return config.members.length ? config : undefined;
  } catch {
    return undefined;
  }
}

export interface EnsembleMember {
  address: string;
  /** Where ZooScope learned of it: the connection's connect string, `/zookeeper/config`, or both. */
  source: 'connectString' | 'config' | 'both';
  configId?: number;
}

/**
 * The members to ask: the connect string's, then those of the config with a client address that the user allowed
 * (`allowed`, addresses). The server chooses what the config lists, and asking a member sends it four-letter words,
 * AdminServer requests, the connection's client certificate and a tunnel through its bastion: so a member the user
 * did not name is asked only when allowed, and otherwise comes back in `unnamed`. Config members without a client
 * address come back apart (known, not askable).
 */
export function ensembleMembers(connectServers: readonly string[], config: EnsembleConfig | undefined, allowed: readonly string[] = []):
  { members: EnsembleMember[]; withoutClient: ConfigMember[]; unnamed: ConfigMember[] } {
  const members: EnsembleMember[] = connectServers.map((address) => ({ address, source: 'connectString' }));
  const withoutClient: ConfigMember[] = [];
  const unnamed: ConfigMember[] = [];
  for (const c of config?.members ?? []) {
    if (!c.client) { withoutClient.push(c); continue; }
    const known = members.find((m) => m.address === c.client);
    if (known) Object.assign(known, { source: 'both', configId: c.id });
    else if (allowed.includes(c.client)) members.push({ address: c.client, source: 'config', configId: c.id });
    else unnamed.push(c);
  }
  return { members, withoutClient, unnamed };
}
