// A plain client on a TLS port gets its connection closed without a word, and the library retries forever.
// The session's probes then see "notZooKeeper" (no answer to `srvr`); this asks those ports for TLS to say so.
import type { ProbeResult } from '../probe';
import { speaksTls } from './portProbes';
import { plainToTlsPortLine } from './tlsFailure';

/** One line naming a TLS port among silent ones, if one is. */
export async function plainToTlsPortProblem(probes: ProbeResult[]): Promise<string | undefined> {
  for (const probe of probes) {
    if (probe.outcome !== 'notZooKeeper') continue;
    const colon = probe.server.lastIndexOf(':');
    if (await speaksTls(probe.server.slice(0, colon), Number(probe.server.slice(colon + 1)))) {
      return plainToTlsPortLine(probe.server).line;
    }
  }
  return undefined;
}
