import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { OpCode } from '../../src/zk/protocol/opcodes';
import { ZkSession } from '../../src/zk/session/session';
import { executeDeletePlan, Outcome, planRecursiveDelete, WriteFailure, ZnodeWriter } from '../../src/zk/write';
import { startProxy, TcpProxy } from '../support/fakes/tcpProxy';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';

const WRITE_OPCODES = new Set<number>([
  OpCode.create, OpCode.delete, OpCode.setData, OpCode.setACL, OpCode.check, OpCode.multi, OpCode.create2,
  OpCode.createContainer, OpCode.createTTL,
]);

function failureOf(outcome: Outcome<object>): WriteFailure {
  assert.equal(outcome.ok, false, 'expected a failure');
  return (outcome as { failure: WriteFailure }).failure;
}

describe('a read-only connection refuses every write before sending it', () => {
  let zk: ZkCluster;
  let proxy: TcpProxy;
  let session: ZkSession;
  let other: OtherClient;
  const sentWrites: number[] = [];

  before(async () => {
    zk = await startStandalone({ adminServer: false });
    proxy = await startProxy(zk.members[0].clientPort, {
      rewriteClientFrame: (frame) => {
        if (frame.opCode !== undefined && WRITE_OPCODES.has(frame.opCode)) sentWrites.push(frame.opCode);
        return undefined;
      },
    });
    other = await connectOtherClient(zk.connectString);
    await other.mkdirp('/ro/tree/leaf');
    await other.setData('/ro/tree', 'original');
    session = new ZkSession({ connectString: `127.0.0.1:${proxy.port}`, requestTimeoutMs: 10000 });
    await session.open();
  });

  after(async () => {
    session?.close();
    other?.close();
    await proxy?.close();
    await zk?.stop();
  });

  test('create, setData, delete, delete many, setACL and recursive delete answer readOnly; reads work', async () => {
    const writer = new ZnodeWriter(session, { readOnly: true });
    const outcomes: [string, Outcome<object>][] = [
      ['create', await writer.create({ path: '/ro/new' })],
      ['create', await writer.create({ path: '/ro/x/y', createParents: true })],
      ['setData', await writer.setData('/ro/tree', Buffer.from('changed'), -1)],
      ['delete', await writer.delete('/ro/tree/leaf', -1)],
      ['setACL', await writer.setAcl('/ro/tree', [{ scheme: 'world', id: 'anyone', perms: 1 }], -1)],
    ];
    for (const [operation, outcome] of outcomes) {
      const failure = failureOf(outcome);
      assert.equal(failure.code, 'readOnly', operation);
      assert.equal(failure.operation, operation);
    }
    const many = await writer.deleteMany([{ path: '/ro/tree/leaf' }, { path: '/ro/tree' }]);
    assert.deepEqual(many.deleted, []);
    assert.deepEqual(many.failed.map((f) => f.code), ['readOnly', 'readOnly']);
    // Previewing is reading: allowed. Executing is refused.
    const planned = await planRecursiveDelete(session, '/ro');
    assert.ok(planned.ok);
    assert.equal(planned.plan.count, 3);
    const executed = await executeDeletePlan(session, planned.plan, { readOnly: true });
    assert.equal(executed.ok, false);
    assert.equal((executed as { failure: WriteFailure }).failure.code, 'readOnly');
    // Reads go through.
    const read = await writer.getData('/ro/tree');
    assert.ok(read.ok);
    assert.deepEqual(read.data, Buffer.from('original'));
    assert.ok((await writer.getAcl('/ro/tree')).ok);
    assert.deepEqual(sentWrites, [], 'no write request reached the server');
    assert.ok(await session.exists('/ro/tree/leaf'));
    assert.equal(await session.exists('/ro/new'), undefined);
  });

  test('the same connection without the flag writes (the proxy sees write requests)', async () => {
    const writer = new ZnodeWriter(session, { readOnly: false });
    assert.ok((await writer.setData('/ro/tree', Buffer.from('changed'), -1)).ok);
    assert.deepEqual(sentWrites, [OpCode.setData]);
  });
});
