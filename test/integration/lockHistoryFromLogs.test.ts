// `zooscope log --locks` against the clients' own logs, after the fact: Curator (Java) and kazoo (Python) contenders
// in loops, one killed while holding (its session expires), one giving up while waiting, with nothing of ours
// watching. Then the server's data directory alone tells every hold once, on its lock and session, in the server's
// order, none invented, none overlapping, each end told as it happened, every time exact.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runZooscope } from '../../src/cli/dispatch';
import type { Output } from '../../src/cli/output';
import type { HistoryInterval } from '../../src/zk/history';
import type { DriverEvent, ThirdPartyClient } from '../support/thirdParty/driver';
import { runMutexWorkload } from '../support/thirdParty/mutexWorkload';
import { connectOtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const CYCLES = 4;
const WORKERS = 2;

async function zooscopeLog(args: string[]): Promise<{ code: number; text: string; errors: string[] }> {
  let text = '';
  const errors: string[] = [];
  const out = {
    text: (t: string) => { text += `${t}\n`; }, exact: (t: string) => { text += t; }, json: (v: unknown) => { text += JSON.stringify(v); },
    error: (t: string) => errors.push(t), closed: false,
  } as unknown as Output;
  return { code: await runZooscope(['log', ...args], out, 'test'), text, errors };
}

describe('lock history from the server\'s logs against Curator and kazoo logs', () => {
  let zk: ZkCluster;
  let temp: string;
  const drivers: ThirdPartyClient[] = [];

  before(async () => {
    // snapCount 40: several log files and snapshots, as a server that has run a while has.
    zk = await startStandalone({ systemProperties: { 'zookeeper.snapCount': '40' } });
    const setup = await connectOtherClient(zk.connectString);
    await setup.mkdirp('/truth/kazoo');
    await setup.mkdirp('/truth/curator');
    setup.close();
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-loglocks-'));
  });

  after(async () => {
    for (const d of drivers) await d.close().catch(() => undefined);
    await zk?.stop();
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
  });

  test('every logged hold once, in the server\'s order, on its lock and session; none invented or overlapping; each end as it was', async (t) => {
    const { kazoo, doomed, acquired } = await runMutexWorkload(zk.connectString, '/truth/kazoo', '/truth/curator', { cycles: CYCLES, workers: WORKERS, doomedSessionMs: 4000 }, drivers);
    assert.equal(acquired.length, 1 + 2 * WORKERS * CYCLES);

    const dataDir = path.join(zk.members[0].dir, 'data');
    const trace = path.join(temp, 'trace.json');
    const { code, text, errors } = await zooscopeLog([dataDir, '--locks', '/truth', '--json', '--trace', trace]);
    assert.deepEqual(errors, []);
    assert.equal(code, 0);
    const result = JSON.parse(text) as { intervals: HistoryInterval[]; figures: { lock: string; acquisitions: number; sessionLosses: number }[] };
    const holds = result.intervals.filter((i) => i.kind === 'hold');
    for (const lock of ['/truth/kazoo', '/truth/curator']) {
      const sequenceOf = (e: DriverEvent) => Number((e.node ?? '').slice(-10));
      const logged = acquired.filter((e) => path.dirname(e.node ?? '') === lock).sort((a, b) => sequenceOf(a) - sequenceOf(b));
      const recorded = holds.filter((h) => h.lock === lock).sort((a, b) => a.start - b.start);
      assert.deepEqual(recorded.map((h) => `${h.node} ${h.session}`), logged.map((e) => `${path.basename(e.node ?? '')} ${e.session}`), `${lock}: the same holds, in the server's order, on the same sessions`);
      for (let k = 1; k < recorded.length; k++) assert.ok(recorded[k - 1].end! <= recorded[k].start, `${lock}: ${recorded[k - 1].node} and ${recorded[k].node} overlap`);
      const lags = recorded.map((h, k) => h.start - logged[k].t).sort((x, y) => x - y);
      t.diagnostic(`${lock}: hold start from the log − logged acquire, median ${lags[lags.length >> 1]} ms, max ${lags[lags.length - 1]} ms`);
      assert.equal(result.figures.find((f) => f.lock === lock)?.acquisitions, logged.length);
    }
    assert.ok(result.intervals.every((i) => i.startExact && i.endExact === true && i.end !== undefined), 'every time exact, nothing left open');
    const doomedNode = path.basename(doomed.events.find((e) => e.event === 'acquired')?.node ?? '?');
    const endings = holds.map((h) => `${h.node === doomedNode ? 'doomed' : 'worker'} ${h.ended}`);
    assert.ok(endings.includes('doomed sessionEnded'), `the killed client's session expired while it held: ${endings.join()}`);
    assert.ok(endings.filter((e) => e.startsWith('worker')).every((e) => e === 'worker released'), endings.join());
    assert.equal(result.figures.find((f) => f.lock === '/truth/kazoo')?.sessionLosses, 1);
    const quitterNode = path.basename(kazoo.events.find((e) => e.id === 'quitter' && e.event === 'waiting')?.node ?? '?');
    assert.deepEqual(result.intervals.filter((i) => i.node === quitterNode).map((i) => `${i.kind} ${i.ended}`), ['wait gaveUp']);
    const events = (JSON.parse(fs.readFileSync(trace, 'utf8')) as { traceEvents: { ph: string; name: string }[] }).traceEvents;
    assert.equal(events.filter((e) => e.ph === 'X' && e.name === 'hold').length, holds.length, 'the trace has every hold');
  });

  test('without a snapshot the logs go on from, it says so in one line and claims nothing', async () => {
    const copy = path.join(temp, 'logs-only');
    fs.mkdirSync(copy);
    for (const name of fs.readdirSync(path.join(zk.members[0].dir, 'data', 'version-2')).filter((n) => n.startsWith('log.'))) {
      fs.copyFileSync(path.join(zk.members[0].dir, 'data', 'version-2', name), path.join(copy, name));
    }
    const { code, text, errors } = await zooscopeLog([copy, '--locks', '/truth']);
    assert.equal(code, 1);
    assert.equal(text, '');
    assert.equal(errors.length, 1);
    assert.match(errors[0], /^zooscope log: no snapshot tells who was queued when the logs begin \(zxid 0x1\): give the member's whole data directory/);
  });
});
