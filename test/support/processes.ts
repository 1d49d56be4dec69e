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

/**
 * Kills `proc` when this process exits, whatever way it ends. The node tiers run with --test-force-exit, so a test
 * file whose hook failed half-way (one of two servers started, the other not) ends at once instead of being held
 * open by the server it could not hand back; this makes sure that server does not outlive it.
 */
export function killOnExit(proc: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => { for (const child of outliving) child.kill('SIGKILL'); });
  }
  outliving.add(proc);
  proc.once('exit', () => outliving.delete(proc));
}
