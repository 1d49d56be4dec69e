// The tree's quota marks redraw only the nodes whose quota came, went or moved. A redraw of the whole tree made VS
// Code forget every row until it had them again, and a row's menu chosen meanwhile lost its node (a fresh e2e run:
// Search… on a folder searched "/" instead, as the quotas loaded right after the first expand).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { ZkSession } from '../../src/zk/session/session';
import { deleteQuota, setQuota } from '../../src/zk/tree/quota';
import { QuotaMarks } from '../../src/vscode/core/tree/quotaMarks';

describe('quota marks', () => {
  let zk: ZkCluster;
  let other: OtherClient;
  let session: ZkSession;

  before(async () => {
    zk = await startStandalone({ adminServer: false });
    other = await connectOtherClient(zk.connectString);
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 10000, requestTimeoutMs: 10000 });
    await session.open();
  });
  after(async () => {
    session?.close();
    other?.close();
    await zk?.stop();
  });

  test('redraw the nodes whose quota changed, and nothing when none did', async () => {
    await other.mkdirp('/marks/a/child');
    await other.mkdirp('/marks/b');
    const redrawn: string[][] = [];
    const marks = new QuotaMarks((connectionId, paths) => redrawn.push([connectionId, ...paths.sort()]));

    await marks.load('c1', session);
    assert.deepEqual(redrawn, [], 'no quota anywhere: nothing drawn differently');

    await setQuota(session, '/marks/a', { count: 10n });
    await setQuota(session, '/marks/b', { bytes: 100n });
    await marks.load('c1', session);
    assert.deepEqual(redrawn, [['c1', '/marks/a', '/marks/b']]);
    assert.equal(marks.get('c1', session, '/marks/a')?.limits.get('count'), 10n);

    await marks.load('c1', session);
    assert.equal(redrawn.length, 1, 'read again, unchanged: nothing redrawn');

    await other.create('/marks/a/child/more');
    await deleteQuota(session, '/marks/b');
    await marks.load('c1', session);
    assert.deepEqual(redrawn[1], ['c1', '/marks/a', '/marks/b'], 'usage moved on /marks/a; /marks/b lost its quota');
    assert.equal(marks.get('c1', session, '/marks/b'), undefined);
  });
});
