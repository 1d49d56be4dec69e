// One search of the 100k subtree in a process of its own (bench/searchBench.ts starts it), so that its peak RSS is
// that search's alone: prints {ms, visited, matches, rssStartMiB, peakRssMiB}.
//   node --expose-gc out/bench/searchChild.js <connectString> ours|bare <root> path|content <pattern>
import * as zookeeper from 'node-zookeeper-client';
import { searchTree } from '../src/zk/search/search';
import { openSession, WINDOW } from './fixtures';
import { rawCrawl } from './searchBench';
import { collect, now } from './stats';

const MiB = 2 ** 20;

async function main(): Promise<void> {
  const [connectString, who, root, by, pattern] = process.argv.slice(2);
  let run: () => Promise<{ visited: number; matches: number }>;
  let close: () => void;
  if (who === 'ours') {
    const session = await openSession(connectString);
    close = () => session.close();
    run = async () => {
      let matches = 0;
      const result = await searchTree(session, { root, path: by === 'path' ? pattern : undefined, content: by === 'content' ? pattern : undefined, maxResults: 1e9 },
        () => { matches++; }, { window: WINDOW });
      if (!result.ok) throw new Error('search failed');
      return { visited: result.summary.visited, matches };
    };
  } else {
    const client = zookeeper.createClient(connectString, { sessionTimeout: 30000 });
    await new Promise<void>((resolve) => { client.once('connected', () => resolve()); client.connect(); });
    close = () => client.close();
    run = async () => {
      const r = await rawCrawl(client, root, WINDOW, by === 'content' ? Buffer.from(pattern) : undefined);
      return { visited: r.visited, matches: r.matched };
    };
  }
  collect();
  const rssStart = process.memoryUsage().rss;
  let peak = rssStart;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
  const t0 = now();
  const result = await run();
  const ms = now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(JSON.stringify({ ms, ...result, rssStartMiB: rssStart / MiB, peakRssMiB: peak / MiB }));
  close();
  process.exit(0);
}

main().catch((error: unknown) => { console.error(error); process.exit(1); });
