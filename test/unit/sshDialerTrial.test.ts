// The dialer's side of trying a password once (src/zk/tunnel/dialer.ts with secretTrial.ts), with a stand-in `ssh`
// that logs each start and answers as OpenSSH does. A tunnel that ends while it waits must not hold up the others.
// The real bastion and its log: integration/sshPassword.test.ts.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SshDialer } from '../../src/zk/tunnel/dialer';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-dialer-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** A stand-in ssh: logs its start, waits for `release` to exist, then says `verdict` as ssh would. */
function standInSsh(name: string, verdict: 'refused' | 'accepted'): { sshPath: string; starts: () => number; release: () => void } {
  const log = path.join(work, `${name}.log`);
  const release = path.join(work, `${name}.go`);
  const sshPath = path.join(work, `${name}-ssh`);
  const answer = verdict === 'refused'
    ? `echo 'user@b: Permission denied (publickey,password).' >&2; exit 255`
    : `echo 'Authenticated to b ([127.0.0.1]:22) using "password".' >&2; exec cat`;
  fs.writeFileSync(sshPath, `#!/bin/sh\necho start >> '${log}'\nwhile [ ! -e '${release}' ]; do sleep 0.02; done\n${answer}\n`, { mode: 0o755 });
  return {
    sshPath,
    starts: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0),
    release: () => fs.writeFileSync(release, ''),
  };
}

const ended = (socket: ReturnType<SshDialer['dial']>) => new Promise<string>((resolve) => {
  socket.once('connect', () => resolve('connected'));
  socket.once('error', (error: Error) => resolve(error.message));
  socket.once('close', () => resolve('closed'));
});

const waitFor = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
};

test('a refused password: one ssh starts; the waiting tunnels and a later one end with its line, never starting', async () => {
  const ssh = standInSsh('refused', 'refused');
  const dialer = new SshDialer({ destination: 'user@b', secret: 'wrong', sshPath: ssh.sshPath });
  const tunnels = [1, 2, 3].map(() => dialer.dial('zk', 2181));
  const endings = tunnels.map(ended);
  await waitFor(() => ssh.starts() === 1);
  ssh.release();
  const lines = await Promise.all(endings);
  for (const line of lines) assert.equal(line, 'SSH bastion user@b refused authentication (it accepts: publickey,password)');
  assert.equal(await ended(dialer.dial('zk', 2181)), lines[0]);
  assert.equal(ssh.starts(), 1);
});

test('a tunnel ended while it waits for its turn neither starts nor holds up the ones after it', async () => {
  const ssh = standInSsh('waiting', 'accepted');
  const dialer = new SshDialer({ destination: 'user@b', secret: 'right', sshPath: ssh.sshPath });
  const first = dialer.dial('zk', 2181);
  const probe = dialer.dial('zk', 2181);
  const third = dialer.dial('zk', 2181);
  await waitFor(() => ssh.starts() === 1);
  probe.destroy(); // its time ran out while the first was authenticating
  first.destroy(); // and the first went too, before the bastion answered: nothing is known of the password
  const thirdEnded = ended(third);
  await waitFor(() => ssh.starts() === 2); // the third takes the turn
  ssh.release();
  assert.equal(await thirdEnded, 'connected');
  assert.equal(probe.pid, undefined, 'the ended probe never started ssh');
  // Once the password is in, tunnels start together.
  const more = [dialer.dial('zk', 2181), dialer.dial('zk', 2181)];
  assert.deepEqual(await Promise.all(more.map(ended)), ['connected', 'connected']);
  for (const tunnel of [third, ...more]) tunnel.destroy();
});
