// Runs one standalone test ZooKeeper until SIGTERM/SIGINT/SIGHUP, for shell scripts: `node out/test/support/zkMain.js <file>` writes the connect string to <file> once it serves clients.
import * as fs from 'node:fs';
import { startStandalone } from './zkServer';

async function main(): Promise<void> {
  const outFile = process.argv[2];
  // Handlers first: a signal while the server starts would otherwise kill us and leave its java process behind.
  let signalled = false;
  const stopRequested = new Promise<void>((resolve) => {
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => { signalled = true; resolve(); });
  });
  const zk = await startStandalone();
  void stopRequested.then(() => zk.stop()).then(() => process.exit(0), () => process.exit(1));
  if (signalled) return;
  if (outFile) fs.writeFileSync(outFile, zk.connectString + '\n');
  console.log(`zk: ${zk.connectString}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
