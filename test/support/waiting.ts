// Waiting in tests, by polling what is observable: no test depends on how fast the machine is, only on a
// deadline generous enough for a slow one.

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

class CheckUnanswered extends Error {}

/**
 * A check's answer, or an error once the deadline has passed: a check that never settles (a request of a client
 * without request timeouts, whose session ended meanwhile) must end the wait with a reason, not hang the file.
 */
function untilDeadline<T>(answer: T | Promise<T>, deadline: number): Promise<T> {
  if (!(answer instanceof Promise)) return Promise.resolve(answer);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckUnanswered('the check itself never answered')), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/**
 * Resolves when `check` returns true, polling; rejects after `timeoutMs`, naming `what` and the check's last error.
 * A check that throws is polled again: what it reads may not be there yet (a member that has not applied a create,
 * a server still starting), and a loaded machine must not turn that into a failure at once.
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await untilDeadline(check(), deadline)) return;
    } catch (error) {
      last = error;
    }
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}${last === undefined ? '' : `; last error: ${last instanceof Error ? last.message : String(last)}`}`);
}

/**
 * Resolves with the first value `probe` gives that is not undefined or false, polling every `intervalMs`; rejects
 * after `timeoutMs`, naming `what` and the probe's last error (a probe may throw while the thing is not there yet).
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 10000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await untilDeadline(probe(), deadline);
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(intervalMs);
  }
}

/**
 * Resolves as `promise` does, or rejects after `timeoutMs` naming `what` and, if given, what `explain` says about the
 * state of things then: an event that never comes must fail the test with a reason, not hang the run.
 */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string, explain?: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${explain ? `\n${explain()}` : ''}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
