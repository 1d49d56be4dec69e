// The failure of a session that must not connect: its open() rejected with a ConnectFailure, or the test fails.
import * as assert from 'node:assert/strict';
import { ConnectFailure, ZkSession } from '../../../src/zk/session/session';

export async function openFailure(session: ZkSession): Promise<ConnectFailure> {
  try {
    await session.open();
  } catch (error) {
    assert.ok(error instanceof ConnectFailure, String(error));
    return error;
  }
  session.close();
  assert.fail('connected, but should not have');
}
