// Finding the processes a test started, through Linux's /proc: by a marker in their command line or environment
// (a folder of the test's own), so a test can check that nothing it started outlived it.
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

/** Pids of live processes whose command line or environment names `marker` (code-server's helpers carry TMPDIR). */
export function processesUsing(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (!alive(Number(entry))) continue;
      const text = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8') + '\0' + fs.readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (text.includes(marker)) pids.push(Number(entry));
    } catch { /* exited meanwhile, or not ours to read */ }
  }
  return pids;
}

/** Running (a zombie has exited; only its parent has not reaped it yet). */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /s.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The process's command line, for a failure message. */
export function commandLine(pid: number): string {
  try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim(); } catch { return '(gone)'; }
}

const outliving = new Set<ChildProcess>();
let exitHookInstalled = false;

/** This process is a test file run by node's test runner (not a runner a test started, nor the demo or a bench). */
function isTestFile(): boolean {
  return !!process.env.NODE_TEST_CONTEXT && /\.test\.[cm]?js$/.test(process.argv[1] ?? '');
}

/**
 * Kills `proc` when this process exits. In a test file, also lets the file end without waiting for `proc`: a file
 * whose hook failed half-way (one of two servers started, the other not) could not hand the started one to its
 * after hook, and that server held the file's process open until the runner's 5-minute timeout (securedServerAccess
 * in a fresh run), then outlived it. Elsewhere the child keeps its process alive as before: the UI tests' server
 * runner and the demo live as long as their servers. Waiting for the child to exit goes through exitOf.
 */
export function endsWithTestProcess(proc: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => { for (const child of outliving) child.kill('SIGKILL'); });
    // A test file the runner stops (its timeout) ends by a signal, which skips 'exit' unless handled. Only in a test
    // file: the others stop their servers gracefully on these signals.
    if (isTestFile()) {
      for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130], ['SIGHUP', 129]] as const) {
        process.once(signal, () => process.exit(code));
      }
    }
  }
  outliving.add(proc);
  proc.once('exit', () => outliving.delete(proc));
  if (!isTestFile()) return;
  proc.unref();
  for (const stream of [proc.stdin, proc.stdout, proc.stderr]) (stream as { unref?: () => void } | null)?.unref?.();
}

/** Resolves once `proc` has exited; keeps this process alive meanwhile (in a test file the child is unref'd). */
export function exitOf(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const keepAlive = setInterval(() => undefined, 60_000);
    proc.once('exit', () => { clearInterval(keepAlive); resolve(); });
  });
}
