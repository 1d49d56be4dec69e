// Members the connected server lists in /zookeeper/config but the connection's connect string does not name. The
// server chooses them, and asking one sends it four-letter words, AdminServer requests, the connection's client
// certificate and a tunnel through its bastion: so they are asked only after the user said yes, once per connection
// and list of members (a member added later is asked about again). The safe answer is the dialog's default button.
import * as vscode from 'vscode';
import type { ConfigMember } from '../../zk/servers/ensembleConfig';
import { ask } from '../common/notifier';

const t = vscode.l10n.t;

interface Decision {
  members: readonly string[];
  allowed: boolean;
}

const decisions = new Map<string, Decision>();
const asking = new Map<string, Promise<boolean>>();

const covers = (decision: Decision | undefined, members: readonly string[]) => !!decision && members.every((m) => decision.members.includes(m));

/**
 * The addresses of `unnamed` the user allows to be asked. Without a decision covering them: asks when `mayAsk` (the
 * user opened or refreshed the view, or ran a command), else allows none (a timer's refresh never raises a dialog).
 */
export async function allowedUnnamedMembers(connectionId: string, connectionName: string, unnamed: readonly ConfigMember[], mayAsk: boolean): Promise<string[]> {
  const addresses = unnamed.flatMap((m) => (m.client ? [m.client] : []));
  if (addresses.length === 0) return [];
  const decision = decisions.get(connectionId);
  if (covers(decision, addresses)) return decision!.allowed ? addresses : [];
  if (!mayAsk) return [];
  let pending = asking.get(connectionId);
  if (!pending) {
    pending = askOnce(connectionId, connectionName, addresses).finally(() => asking.delete(connectionId));
    asking.set(connectionId, pending);
  }
  return (await pending) ? addresses : [];
}

async function askOnce(connectionId: string, connectionName: string, addresses: string[]): Promise<boolean> {
  const onlyNamed = t('Only the Named Members');
  const askThem = t('Ask Them Too');
  const answer = await ask('warning', t('The servers of {0} list members its connect string does not name: {1}', connectionName, addresses.join(', ')),
    t('Asking a member sends it four-letter words and AdminServer requests, with this connection\'s client certificate and through its SSH bastion. The server chose these addresses; ask them only if they are your ensemble\'s.'),
    onlyNamed, askThem);
  const allowed = answer === askThem;
  decisions.set(connectionId, { members: addresses, allowed });
  return allowed;
}

/** Forgets the answers (the connection was edited or removed). */
export function forgetUnnamedMembers(connectionId?: string): void {
  if (connectionId === undefined) decisions.clear();
  else decisions.delete(connectionId);
}
