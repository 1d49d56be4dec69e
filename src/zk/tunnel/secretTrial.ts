// A password reaches the bastion once per session, not once per tunnel. A session opens several tunnels at once (its
// connection, a probe, a reconnect), and a bastion that locks an account after a few failures would count each
// wrong try. So until one tunnel has authenticated with the secret, tunnels try it one at a time; once the bastion
// has refused it, no tunnel of this session tries it again.
import type { TunnelFailure } from './sshFailure';

/** What became of the tunnel that tried the secret: it authenticated, the bastion refused it, or neither is known. */
export type TrialOutcome = 'accepted' | TunnelFailure | 'unknown';

export type TrialTurn =
  /** Start the tunnel, and tell its outcome once it has one (only the first report counts). */
  | { refused?: undefined; report(outcome: TrialOutcome): void }
  /** Do not start: the bastion has refused the secret already; end the tunnel with this failure. */
  | { refused: TunnelFailure };

export class SecretTrial {
  private verdict: 'accepted' | TunnelFailure | undefined;
  /** Settles when the tunnel trying the secret now has an outcome. */
  private trying: Promise<void> | undefined;

  /** Resolves when a tunnel may start (tunnels wait while another tries the secret) or must not. */
  async turn(): Promise<TrialTurn> {
    for (;;) {
      if (this.verdict === 'accepted') return { report: () => undefined };
      if (this.verdict) return { refused: this.verdict };
      if (!this.trying) break;
      await this.trying;
    }
    let settle!: () => void;
    this.trying = new Promise<void>((resolve) => { settle = resolve; });
    let reported = false;
    return {
      report: (outcome) => {
        if (reported) return;
        reported = true;
        if (outcome !== 'unknown') this.verdict = outcome;
        this.trying = undefined;
        settle();
      },
    };
  }

  /** The bastion's refusal of the secret, once it has refused it. */
  get refusal(): TunnelFailure | undefined {
    return this.verdict === 'accepted' ? undefined : this.verdict;
  }
}
