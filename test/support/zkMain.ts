// Runs one standalone test ZooKeeper until SIGTERM/SIGINT/SIGHUP, for shell scripts: `node out/test/support/zkMain.js <file>` writes the connect string to <file> once it serves clients.
import * as fs from 'node:fs';
import { startStandalone } from './zkServer';

async function main(): Promise<void> {
  const outFile = process.argv[2];
  const zk = await startStandalone();
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await zk.stop();
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void stop());
  if (outFile) fs.writeFileSync(outFile, zk.connectString + '\n');
  console.log(`zk: ${zk.connectString}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
