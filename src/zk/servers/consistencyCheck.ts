// Do an ensemble's members agree? Asks every member at once (the AdminServer when a port is known, else the
// four-letter words it allows), each within its own deadline, and judges the answers (agreementRules.ts). A member
// frozen with SIGSTOP accepts the connection and answers nothing: its deadline ends it as unreachable, and the
// others' answers are not held up.
import { isConnectStringProblem, parseConnectString } from '../connectString';
import { firstLine } from '../errors';
import type { PreparedTls } from '../security/tlsSettings';
import type { Dialer } from '../tunnel/dialer';
import { AgreementResult, AgreementThresholds, DEFAULT_THRESHOLDS, judgeAgreement, MemberAnswer } from './agreementRules';
import { adminFigures, figuresFromAdmin, mergeWordFigures } from './memberFigures';
import { askAdmin, askAdminEither, askWord, WordRefusedError } from './serverCommands';

export interface ConsistencyCheckOptions {
  thresholds?: Partial<AgreementThresholds>;
  /** The AdminServer port of every member; without one (here or in adminPorts) only the words are asked. */
  adminPort?: number;
  /** Per member (`host:port` → AdminServer port). */
  adminPorts?: Record<string, number>;
  /** Members beyond the connect string (from `/zookeeper/config`). */
  extraMembers?: readonly string[];
  signal?: AbortSignal;
  tls?: PreparedTls;
  dialer?: Dialer;
}

const NOT_SERVING = /not currently serving requests/i;

function splitAddress(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(':');
  return { host: address.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(address.slice(colon + 1)) };
}

/** The connect string's members, then the extra ones not already in it. */
export function membersToAsk(connectString: string, extra: readonly string[] = []): string[] {
  const parsed = parseConnectString(connectString);
  if (isConnectStringProblem(parsed)) throw new Error(`bad connect string: ${parsed.code}`);
  const listed = parsed.servers.map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`);
  for (const address of extra) if (!listed.includes(address)) listed.push(address);
  return listed;
}

interface AskContext {
  host: string;
  port: number;
  signal: AbortSignal;
  timeoutMs: number;
  options: ConsistencyCheckOptions;
}

async function viaAdmin(adminPort: number, c: AskContext): Promise<MemberAnswer['figures']> {
  const ask = { timeoutMs: c.timeoutMs, signal: c.signal, tls: c.options.tls, dialer: c.options.dialer };
  const monitor = await askAdminEither(c.host, adminPort, 'monitor', ask);
  const more = { ...ask, https: monitor.https };
  // server_stats carries the zxid; configuration the server id (optional: an old AdminServer may lack it).
  const [stats, configuration] = await Promise.all([
    askAdmin(c.host, adminPort, 'server_stats', more),
    askAdmin(c.host, adminPort, 'configuration', more).catch(() => undefined),
  ]);
  return adminFigures(figuresFromAdmin(monitor.json, stats, configuration));
}

async function viaWords(c: AskContext): Promise<Pick<MemberAnswer, 'figures' | 'notServing'>> {
  const refused: string[] = [];
  const failures: unknown[] = [];
  const ask = (word: 'mntr' | 'srvr' | 'conf') => askWord(c.host, c.port, word, { timeoutMs: c.timeoutMs, signal: c.signal, tls: c.options.tls, dialer: c.options.dialer })
    .catch((error: unknown) => {
      if (error instanceof WordRefusedError) refused.push(word);
      else failures.push(error);
      return undefined;
    });
  const [mntr, srvr, conf] = await Promise.all([ask('mntr'), ask('srvr'), ask('conf')]);
  if (mntr === undefined && srvr === undefined && conf === undefined) throw failures[0] ?? new Error('no four-letter word allowed');
  if ([mntr, srvr].some((answer) => answer !== undefined && NOT_SERVING.test(answer))) return { notServing: true };
  return { figures: mergeWordFigures({ mntr, srvr, conf }, refused) };
}

function cancelled(): Error {
  const error = new Error('cancelled');
  error.name = 'AbortError';
  return error;
}

/** Asks one member within `deadlineMs` in all (AdminServer and words together); never throws but for a cancel. */
async function askMember(address: string, deadlineMs: number, options: ConsistencyCheckOptions): Promise<MemberAnswer> {
  const { host, port } = splitAddress(address);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), deadlineMs);
  const onCancel = () => deadline.abort();
  options.signal?.addEventListener('abort', onCancel, { once: true });
  const started = Date.now();
  const context = (): AskContext => ({ host, port, signal: deadline.signal, timeoutMs: Math.max(1, deadlineMs - (Date.now() - started)), options });
  const answer: MemberAnswer = { address, via: 'none' };
  try {
    const adminPort = options.adminPorts?.[address] ?? options.adminPort;
    if (adminPort !== undefined) {
      try {
        answer.figures = await viaAdmin(adminPort, context());
        answer.via = 'admin';
        return answer;
      } catch (error) {
        if (deadline.signal.aborted) throw error;
        answer.adminError = firstLine(error);
      }
    }
    Object.assign(answer, await viaWords(context()));
    answer.via = 'fourLetterWords';
    return answer;
  } catch (error) {
    if (options.signal?.aborted) throw cancelled();
    answer.unreachable = deadline.signal.aborted ? `no answer within ${deadlineMs} ms` : firstLine(error);
    return answer;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
  }
}

/** Asks every member in parallel and judges whether they agree. Throws only for a bad connect string or a cancel. */
export async function checkEnsemble(connectString: string, options: ConsistencyCheckOptions = {}): Promise<AgreementResult> {
  const thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  const members = membersToAsk(connectString, options.extraMembers);
  const answers = await Promise.all(members.map((address) => askMember(address, thresholds.deadlineMs, options)));
  return judgeAgreement(answers, thresholds);
}
