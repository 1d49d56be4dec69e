// The recorder of `zooscope locks --watch` in a process of its own, for bench/metricsBench.ts to measure its CPU:
// a lock monitor on its session feeds the recorder (followMonitor, as liveWatch.ts does), with `--metrics` the lock
// metrics attached and served on loopback (metricsServer.ts), without it nothing more. Nothing is printed per event.
// Protocol on stdio: prints {"ready":true,"url":…} once following; `start` (stdin) notes the CPU used so far, `stop`
// prints {"cpuMs":…, "metricsMs":…} (user + system since `start`; wall time inside the metrics' code) and exits.
// argv: <connectString> <path> [--metrics]
import * as readline from 'node:readline';
import { MetricsServer } from '../src/cli/metricsServer';
import { LockMonitor } from '../src/zk/analysis';
import { followMonitor, LockRecorder } from '../src/zk/history';
import { LockMetrics } from '../src/zk/metrics';
import { ZkSession } from '../src/zk/session/session';
import { eventually } from '../test/support/waiting';

async function main(): Promise<void> {
  const [connectString, path, flag] = process.argv.slice(2);
  const session = new ZkSession({ connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 20000 });
  await session.open();
  const monitor = new LockMonitor(session, path, { serverWatches: false });
  const recorder = new LockRecorder();
  followMonitor(session, monitor, recorder);
  let server: MetricsServer | undefined;
  /** Time spent in the metrics' own code (each event noted, each scrape rendered): their share, beside the whole. */
  let metricsNs = 0n;
  if (flag === '--metrics') {
    const metrics = new LockMetrics();
    metrics.attach(recorder)();
    recorder.onEvent((event) => {
      const t = process.hrtime.bigint();
      metrics.note(event);
      metricsNs += process.hrtime.bigint() - t;
    });
    const render = metrics.render.bind(metrics);
    metrics.render = (format) => {
      const t = process.hrtime.bigint();
      try {
        return render(format);
      } finally {
        metricsNs += process.hrtime.bigint() - t;
      }
    };
    server = await MetricsServer.listen({ host: '127.0.0.1', port: 0 }, metrics);
  }
  monitor.start();
  await eventually(() => recorder.followingEvents.synced, 60000, 'the recorder following');
  console.log(JSON.stringify({ ready: true, url: server?.url }));
  let base = process.cpuUsage();
  readline.createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'start') {
      base = process.cpuUsage();
      metricsNs = 0n;
    }
    if (line !== 'stop') return;
    const used = process.cpuUsage(base);
    console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, metricsMs: Number(metricsNs) / 1e6, intervals: recorder.history.closed.length }));
    server?.close();
    monitor.dispose();
    session.close();
    process.exit(0);
  });
}

main().catch((error: unknown) => { console.error(error); process.exit(1); });
