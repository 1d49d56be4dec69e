// A child of serverLogBench: streams the given log files as one source and prints its peak RSS (KiB).
import { readLogSet } from '../src/zk/serverLogs/logSet';

async function main(): Promise<void> {
  let count = 0;
  for await (const item of readLogSet([{ name: 'bench', files: process.argv.slice(2) }])) if (item.kind === 'txn') count++;
  if (count === 0) throw new Error('no transactions read');
  console.log(process.resourceUsage().maxRSS);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
