// Runs one standalone test ZooKeeper until SIGTERM/SIGINT/SIGHUP, for shell scripts: `node out/test/support/servers/zkMain.js <file>` writes the connect string to <file> once it serves clients.
import * as fs from 'node:fs';
import { onStopSignal } from '../stopSignal';
import { startStandalone } from './zkServer';

async function main(): Promise<void> {
  const outFile = process.argv[2];
  // Handlers first: a signal while the server starts would otherwise kill us and leave its java process behind.
  const stop = onStopSignal();
  const zk = await startStandalone();
  void stop.requested.then(() => zk.stop()).then(() => process.exit(0), () => process.exit(1));
  if (stop.received) return;
  if (outFile) fs.writeFileSync(outFile, zk.connectString + '\n');
  console.log(`zk: ${zk.connectString}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
