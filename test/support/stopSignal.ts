// The first SIGINT, SIGTERM or SIGHUP as a promise, for runners that stop what they started, in order (the test
// ZooKeeper, the demo's lock clients). Install it before starting anything: a signal that comes before its handler
// ends the process at once and leaves its children running.
export interface StopSignal {
  /** Resolves with the first of the signals. */
  readonly requested: Promise<NodeJS.Signals>;
  /** That signal, once it came. */
  readonly received: NodeJS.Signals | undefined;
}

/** Handles SIGINT, SIGTERM and SIGHUP from now on; `onFirst` hears the first one (later ones are ignored). */
export function onStopSignal(onFirst?: (signal: NodeJS.Signals) => void): StopSignal {
  let received: NodeJS.Signals | undefined;
  const requested = new Promise<NodeJS.Signals>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        if (received) return;
        received = signal;
        onFirst?.(signal);
        resolve(signal);
      });
    }
  });
  return { requested, get received() { return received; } };
}
