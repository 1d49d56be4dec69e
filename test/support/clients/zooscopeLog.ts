// `zooscope log` run in this process as a user runs it: its stdout lines (JSON values as one line each), its stderr
// lines and its exit code.
import { runZooscope } from '../../../src/cli/dispatch';
import type { Output } from '../../../src/cli/output';

export async function zooscopeLog(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; lines: string[]; errors: string[] }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const out = {
    text: (t: string) => lines.push(t), exact: (t: string) => lines.push(...t.split('\n').filter(Boolean)), json: (v: unknown) => lines.push(JSON.stringify(v)),
    error: (t: string) => errors.push(t), closed: false,
  } as unknown as Output;
  return { code: await runZooscope(['log', ...args], out, 'test', env), lines, errors };
}
