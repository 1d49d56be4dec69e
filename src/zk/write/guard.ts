// Checks made before a write is sent: the connection's read-only flag, path syntax, protected paths and the
// server's request size limit. Each returns a Refusal (or undefined when the write may go).
import { checkPath, isProtectedPath } from '../paths';
import type { Refusal } from './outcome';

/**
 * jute.maxbuffer's default (0xfffff). A 3.8.0 server reads a request when its length — everything after the 4-byte
 * length prefix: xid, opcode and the record — is at most this; a longer one makes it drop the connection (measured
 * here: setData of `/d` took 1,048,553 bytes of data and not one more: 8 + (4 + 2) + (4 + 1,048,553) + 4 = 1,048,575).
 */
export const DEFAULT_MAX_REQUEST_BYTES = 1048575;

/** xid + opcode in front of every request record. */
export const REQUEST_HEADER_BYTES = 8;

/** The largest TTL a server accepts (40 bits of milliseconds); 2^40 answers badArguments. */
export const MAX_TTL_MS = 2 ** 40 - 1;

export interface GuardOptions {
  /** The connection is marked read-only: every write is refused. */
  readOnly: boolean;
  /** The server's jute.maxbuffer (DEFAULT_MAX_REQUEST_BYTES unless the server was configured otherwise). */
  maxRequestBytes?: number;
}

export function checkWritable(options: GuardOptions): Refusal | undefined {
  return options.readOnly ? { code: 'readOnly' } : undefined;
}

export function checkTarget(path: string, options: { allowRoot?: boolean; allowProtected?: boolean } = {}): Refusal | undefined {
  const problem = checkPath(path);
  if (problem) return { code: 'invalidPath', problem };
  if (path === '/' && options.allowRoot) return undefined;
  if (!options.allowProtected && isProtectedPath(path)) return { code: 'protectedPath' };
  return undefined;
}

/**
 * Refuses a request whose record (without header) is `recordBytes` long when it would not fit, saying how much
 * data would: `dataBytes` is the part of the record that is the node's data.
 */
export function checkRequestSize(recordBytes: number, dataBytes: number, options: GuardOptions): Refusal | undefined {
  const max = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const total = REQUEST_HEADER_BYTES + recordBytes;
  if (total <= max) return undefined;
  return { code: 'dataTooLarge', bytes: dataBytes, limit: Math.max(0, max - (total - dataBytes)) };
}

export function checkTtl(ttlMs: number): Refusal | undefined {
  if (!Number.isInteger(ttlMs) || ttlMs < 1 || ttlMs > MAX_TTL_MS) return { code: 'invalidTtl', ttlMs, max: MAX_TTL_MS };
  return undefined;
}
