// The lock-queue analysis: what the extension's webview, the `zooscope locks` CLI and the tree use.
export type * from '../../shared/lockAnalysis';
export { analyzeLocks } from './analyze';
export type { AnalyzeOptions } from './analyze';
export { LockMonitor, DEFAULT_POLL_INTERVAL_MS, type TablesReading } from './monitor';
export { looksLikeLockQueue } from './recipes';
export { buildAnalysis, DEFAULT_HELD_TOO_LONG_MS } from './build';
export type { RawQueue } from './rawQueue';
