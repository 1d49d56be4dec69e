// Histories made by hand for the timeline's tests and bench: queues where each node waits, then holds as the one
// before it releases (a hand-over chain), optionally with hostile names and session losses.
import { LockHistory } from '../../src/zk/history/history';
import type { HistoryInterval } from '../../src/zk/history/model';

export const T0 = 1_800_000_000_000;

export interface ChainOptions {
  /** Nodes per lock, each a wait then a hold (two intervals). */
  nodes: number;
  locks?: number;
  /** Sessions the nodes take in turn. */
  sessions?: number;
  /** ms each hold lasts; the next node holds from the moment it ends. */
  holdMs?: number;
  /** Node names: the usual `lock-0000000001`, or this name with the number. */
  name?: (lock: number, k: number) => string;
  /** Leave the last hold of each lock open. */
  lastOpen?: boolean;
}

export function chainHistory(options: ChainOptions): LockHistory {
  const history = new LockHistory(Number.MAX_SAFE_INTEGER);
  const holdMs = options.holdMs ?? 10;
  for (let l = 0; l < (options.locks ?? 1); l++) {
    const lock = `/locks/l${l}`;
    for (let k = 0; k < options.nodes; k++) {
      const node = options.name?.(l, k) ?? `lock-${String(k).padStart(10, '0')}`;
      const session = `0x${(0x1000 + (k % (options.sessions ?? options.nodes))).toString(16)}`;
      const base = { lock, node, participant: 'exclusive' as const, session, clientAddress: `10.0.0.${k % 250}:4000` };
      const holdStart = T0 + k * holdMs;
      const waitStart = Math.max(T0, holdStart - 3 * holdMs);
      if (holdStart > waitStart) {
        history.addClosed({ ...base, id: history.newId(), kind: 'wait', start: waitStart, startExact: true, end: holdStart, endExact: true, ended: 'acquired' });
      }
      const hold: HistoryInterval = { ...base, id: history.newId(), kind: 'hold', start: holdStart, startExact: k > 0, end: holdStart + holdMs, endExact: true, ended: 'released' };
      if (options.lastOpen && k === options.nodes - 1) {
        delete hold.end;
        delete hold.endExact;
        delete hold.ended;
        history.open.set(`${lock}/${node}`, hold);
      } else history.addClosed(hold);
    }
  }
  return history;
}
