// node-zookeeper-client 1.1.3 throws from Exception.create for an error code it does not know; it calls it
// inside its socket data handler, so a server enforcing SASL (-124, "session closed because client failed to
// authenticate") crashed the whole process. Unknown codes now become ordinary errors with getCode().
import * as zookeeper from 'node-zookeeper-client';

type Create = (code: number, path?: string) => Error;
const exceptions = zookeeper.Exception as unknown as { create: Create & { zooscopeSafe?: true } };

/** Names of codes the library lacks, for the message (the code itself is what callers read). */
const MISSING_NAMES: Record<number, string> = {
  [-124]: 'SESSION_CLOSED_REQUIRE_SASL_AUTH',
  [-125]: 'QUOTA_EXCEEDED',
  [-127]: 'THROTTLED_OP',
};

export function installLibraryFixes(): void {
  if (exceptions.create.zooscopeSafe) return;
  const original = exceptions.create;
  const safe = ((code: number, path?: string): Error => {
    try {
      return original(code, path);
    } catch {
      const name = MISSING_NAMES[code] ?? 'UNKNOWN';
      const error = new Error(`Exception: ${name}[${code}]${path ? `@${path}` : ''}`) as Error & { code: number; getCode(): number };
      error.name = name;
      error.code = code;
      error.getCode = () => code;
      return error;
    }
  }) as Create & { zooscopeSafe?: true };
  safe.zooscopeSafe = true;
  exceptions.create = safe;
}
