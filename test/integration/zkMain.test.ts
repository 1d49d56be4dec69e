// The test ZooKeeper runner the UI tests start (test/support/servers/zkMain.ts): a signal while its server starts must stop
// that server, not kill the runner and leave the java process behind.
//   npx tsc -p tsconfig.test.json && node --test out/test/integration/zkMain.test.js
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandLine, processesUsing } from '../support/processes';
import { waitFor } from '../support/waiting';

// The runner's TMPDIR: the server's data folder and command line name it, so its java process can be found.
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-zkmain-test-'));

after(() => {
  // Only on failure is anything left.
  for (const pid of processesUsing(stateDir)) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
  fs.rmSync(stateDir, { recursive: true, force: true });
});

void test('a SIGTERM while the test ZooKeeper starts stops its java process, and the runner exits 0', async () => {
  const runner = spawn(process.execPath, [path.join(__dirname, '..', 'support', 'servers', 'zkMain.js'), path.join(stateDir, 'zk.txt')], {
    env: { ...process.env, TMPDIR: stateDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  runner.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = new Promise<number | string>((resolve) => runner.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  // As soon as the JVM exists, long before it serves clients (that takes it seconds).
  const java = await waitFor('the java process', async () => processesUsing(stateDir).find((pid) => commandLine(pid).includes('QuorumPeerMain')), 30000, 20);
  runner.kill('SIGTERM');
  assert.equal(await exited, 0, `the runner exits 0 (stderr: ${stderr})`);
  assert.deepEqual(processesUsing(stateDir).map(commandLine), [], `java ${java} and nothing else it started is left`);
});
