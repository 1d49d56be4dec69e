// What a lock-queue panel needs of the live analysis (src/zk/analysis LockMonitor), so tests and benchmarks can
// hand it another source.
import type { LockAnalysis } from '../../zk/analysis/model';
import type { ZkSession } from '../../zk/session';

/** The part of the analysis' LockMonitor the panel uses. */
export interface Monitor {
  onUpdate(listener: (a: LockAnalysis) => void): () => void;
  onError(listener: (e: Error) => void): () => void;
  start(): void;
  refresh(): Promise<void>;
  dispose(): void;
}

export interface MonitorOptions {
  heldTooLongMs: number;
  ourSessions: string[];
  serverWatches: boolean;
  adminPort?: number;
  maxQueues?: number;
  pollIntervalMs: number;
}

export type MonitorFactory = (session: ZkSession, root: string, options: MonitorOptions) => Monitor;
