// Reading the related nodes a meaning needs (MeaningDecoder.contextPaths) through whatever reads for the caller:
// the CLI's and the shell's session, Show Details, the decoded view. The tree reads its own, within its budget.
import { isZkError } from '../errors';
import { decodeContextPaths } from './registry';
import type { DecodeContext } from './types';

/** Reads one node: its bytes, null when it does not exist; throws when it cannot be read. */
export type ContextRead = (path: string) => Promise<Uint8Array | null>;

/** Each context path of `path` read once; one that cannot be read is left out (its meaning part stays unsaid). */
export async function readDecodeContext(path: string, read: ContextRead): Promise<DecodeContext> {
  const context = new Map<string, Uint8Array | null>();
  await Promise.all(decodeContextPaths(path).map(async (p) => {
    try {
      context.set(p, await read(p));
    } catch {
      // not readable (ACL, connection): unknown, not absent
    }
  }));
  return context;
}

/** A ContextRead over a session's getData: a missing node is null. */
export function sessionContextRead(session: { getData(path: string): Promise<{ data: Uint8Array }> }): ContextRead {
  return (path) => session.getData(path).then(({ data }) => data, (error: unknown) => {
    if (isZkError(error, 'noNode')) return null;
    throw error;
  });
}
