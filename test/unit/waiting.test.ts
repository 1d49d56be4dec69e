// The tests' own waiting helper: a check that throws while the thing it reads is not there yet is polled again.
import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import { eventually, waitFor } from '../support/waiting';

describe('eventually', () => {
  test('a check that throws before it holds is polled again, not taken as a failure', async () => {
    let calls = 0;
    await eventually(() => {
      calls++;
      if (calls < 3) throw new Error('noNode: not applied yet');
      return true;
    }, 60000, 'the third call');
    assert.equal(calls, 3);
  });

  test('at the deadline it names what it waited for and the last error', async () => {
    await assert.rejects(
      eventually(() => { throw new Error('connection refused'); }, 100, 'the server'),
      /^Error: timed out waiting for the server; last error: connection refused$/,
    );
  });

  test('a check that only returns false times out with no error named', async () => {
    await assert.rejects(eventually(() => false, 100, 'never'), /^Error: timed out waiting for never$/);
  });
});

test('eventually: a check that never settles ends the wait at the deadline, saying so (it hung the file before)', async () => {
  const never = new Promise<boolean>(() => undefined);
  await assert.rejects(eventually(() => never, 200, 'the other client'), /timed out waiting for the other client; last error: the check itself never answered/);
});

test('waitFor: a probe that never settles ends the wait at the deadline too', async () => {
  await assert.rejects(waitFor('a member', () => new Promise<undefined>(() => undefined), 200), /timed out waiting for a member: .*never answered/);
});
