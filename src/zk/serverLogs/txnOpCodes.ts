// Type numbers a transaction log holds (ZooDefs.OpCode) and their names as Request.op2String prints them.
import type { TxnOp } from './txnTypes';

export const TxnType: Record<TxnOp, number> = {
  create: 1,
  delete: 2,
  setData: 5,
  setACL: 7,
  check: 13,
  multi: 14,
  create2: 15,
  reconfig: 16,
  createContainer: 19,
  deleteContainer: 20,
  createTTL: 21,
  createSession: -10,
  closeSession: -11,
  error: -1,
};

const NAMES = new Map<number, TxnOp>(Object.entries(TxnType).map(([name, type]) => [type, name as TxnOp]));

/** The op of a type number, or undefined for one no server writes to its log. */
export function txnOpOf(type: number): TxnOp | undefined {
  return NAMES.get(type);
}
