// `zooscope watches … --watch [--interval <s>] [--metrics <host:port>]`: a census every interval until stopped, a
// line each (JSON Lines with --json), and with --metrics the last census served to Prometheus. The census is the
// members' most expensive answer, so the interval is long by default and a census never overlaps the next.
import { censusOfSession } from '../../../zk/census';
import { CensusMetrics } from '../../../zk/metrics';
import type { ZkSession } from '../../../zk/session/session';
import { visibleText } from '../../../shared/visibleText';
import type { CommandContext } from '../../command';
import { type ListenAddress, MetricsServer } from '../../metricsServer';
import { WatchEnd } from '../../watchEnd';

export interface CensusWatch {
  intervalMs: number;
  metricsAt?: ListenAddress;
  json: boolean;
  top: number;
}

/** Listening before anything connects (a port in use is said before the census starts), when --metrics asks. */
export async function censusMetricsServer(watch: CensusWatch, say: (line: string) => void): Promise<{ metrics: CensusMetrics; server: MetricsServer } | undefined> {
  if (!watch.metricsAt) return undefined;
  const metrics = new CensusMetrics(watch.top);
  const server = await MetricsServer.listen(watch.metricsAt, metrics);
  say(`metrics on ${server.url}; the top ${watch.top} sessions, paths and lock queues get series of their own`);
  return { metrics, server };
}

export async function watchCensuses(session: ZkSession, options: Parameters<typeof censusOfSession>[1], watch: CensusWatch, metrics: CensusMetrics | undefined, { out, say }: Pick<CommandContext, 'out' | 'say'>): Promise<number> {
  const end = new WatchEnd(out);
  try {
    while (!end.asked) {
      const started = Date.now();
      const census = await censusOfSession(session, options).catch((error: Error) => {
        say(`the census failed: ${error.message}`);
        return undefined;
      });
      if (!census) metrics?.failed();
      else {
        metrics?.taken(census, Date.now() - started);
        if (watch.json) out.exact(`${JSON.stringify(census)}\n`);
        else {
          const top = census.sessions[0];
          const herds = census.herd.filter((h) => h.risk === 'herd').length;
          out.text(visibleText(`${new Date(census.takenAt).toISOString()}  ${census.totals.dataWatches} data watches, ${census.totals.childWatches ?? '?'} child watches on ${census.servers.length} members`
            + `${top ? `; most: ${top.id}${top.clientAddress ? ` (${top.clientAddress})` : ''} ${top.watches}` : ''}${herds ? `; ${herds} lock queue${herds === 1 ? '' : 's'} at herd risk` : ''}${census.complete ? '' : '; a member did not list its watches'}`));
        }
      }
      await Promise.race([end.reached, new Promise((resolve) => setTimeout(resolve, watch.intervalMs).unref())]);
    }
  } finally {
    end.dispose();
  }
  return 0;
}
