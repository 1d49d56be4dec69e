// The order in which a session's tunnels may try an SSH password (src/zk/tunnel/secretTrial.ts): one at a time until
// one is in, never again once the bastion refused it. The real bastion: integration/sshPassword.test.ts.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { SecretTrial, TrialTurn } from '../../src/zk/tunnel/secretTrial';
import type { TunnelFailure } from '../../src/zk/tunnel/sshFailure';

const REFUSED: TunnelFailure = { kind: 'authFailed', line: 'SSH bastion b refused authentication (it accepts: password)' };

/** Whether `promise` has settled once every queued callback has run. */
async function settled<T>(promise: Promise<T>): Promise<boolean> {
  let done = false;
  void promise.then(() => { done = true; });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

function reporter(turn: TrialTurn) {
  assert.equal(turn.refused, undefined, 'a turn to try');
  return turn as Extract<TrialTurn, { refused?: undefined }>;
}

test('while one tunnel tries the password, the next waits; when the bastion refuses it, the waiting ones never try', async () => {
  const trial = new SecretTrial();
  const first = reporter(await trial.turn());
  const second = trial.turn();
  const third = trial.turn();
  assert.equal(await settled(second), false, 'the second waits for the first');
  first.report(REFUSED);
  assert.deepEqual(await second, { refused: REFUSED });
  assert.deepEqual(await third, { refused: REFUSED });
  assert.deepEqual(await trial.turn(), { refused: REFUSED }, 'nor does a later one');
  assert.deepEqual(trial.refusal, REFUSED);
});

test('once one tunnel is in with the password, the rest start together', async () => {
  const trial = new SecretTrial();
  const first = reporter(await trial.turn());
  const waiting = [trial.turn(), trial.turn()];
  first.report('accepted');
  for (const turn of await Promise.all(waiting)) reporter(turn);
  reporter(await trial.turn());
  assert.equal(trial.refusal, undefined);
});

test('a tunnel that ended without an answer (killed, bastion unreachable) passes the turn to one waiting tunnel', async () => {
  const trial = new SecretTrial();
  const first = reporter(await trial.turn());
  const second = trial.turn();
  const third = trial.turn();
  first.report('unknown');
  const next = reporter(await second);
  assert.equal(await settled(third), false, 'only one tries at a time');
  next.report(REFUSED);
  assert.deepEqual(await third, { refused: REFUSED });
});

test('only a tunnel\'s first outcome counts: its close after it was in does not undo the verdict', async () => {
  const trial = new SecretTrial();
  const first = reporter(await trial.turn());
  first.report('accepted');
  first.report('unknown');
  first.report(REFUSED);
  reporter(await trial.turn());
});
