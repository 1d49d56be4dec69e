// How a connection's members are reached beside its session: its TLS settings and SSH bastion (the live session's
// when connected), and the members `/zookeeper/config` lists beyond the connect string that the user allowed.
import type { Core } from '../core/core';
import { ensembleMembers, readEnsembleConfig } from '../../zk/servers/ensembleConfig';
import { membersToAsk } from '../../zk/servers/consistencyCheck';
import { prepareTls, PreparedTls } from '../../zk/security/tlsSettings';
import { Dialer, dialerFor } from '../../zk/tunnel/dialer';
import { allowedUnnamedMembers } from './unnamedMembers';

export interface MemberAccess {
  tls?: PreparedTls;
  dialer?: Dialer;
  /** Members the servers list in `/zookeeper/config` (with a client address) beyond the connect string, as the user allowed. */
  extraMembers: string[];
}

/** The connection's TLS settings, prepared: the live session's, else the saved ones. */
export async function tlsOf(core: Core, connectionId: string): Promise<PreparedTls | undefined> {
  const live = core.connections.get(connectionId);
  if (live) return live.session.serverTls;
  const saved = core.store.get(connectionId);
  const tls = saved && (await core.store.tlsSettings(saved));
  return tls ? prepareTls(tls) : undefined;
}

/** The way to the connection's servers: the live session's tunnels, else the saved bastion's; never straight to
 *  servers that sit behind one. */
export async function dialerOf(core: Core, connectionId: string): Promise<Dialer | undefined> {
  const live = core.connections.get(connectionId);
  if (live) return live.session.dialer;
  const saved = core.store.get(connectionId);
  const ssh = saved && (await core.store.sshSettings(saved));
  return ssh ? dialerFor(ssh) : undefined;
}

export async function memberAccess(core: Core, connectionId: string, connectString: string, connectionName: string): Promise<MemberAccess> {
  const live = core.connections.get(connectionId);
  const connected = live && core.connections.state(connectionId) === 'connected';
  const config = connected ? await readEnsembleConfig(live.session).catch(() => undefined) : undefined;
  const listed = membersToAsk(connectString);
  const allowed = await allowedUnnamedMembers(connectionId, connectionName, ensembleMembers(listed, config).unnamed, true);
  const extraMembers = ensembleMembers(listed, config, allowed).members.filter((m) => m.source === 'config').map((m) => m.address);
  return { tls: await tlsOf(core, connectionId), dialer: await dialerOf(core, connectionId), extraMembers };
}
