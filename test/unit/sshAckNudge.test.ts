// The byte a plain ZooKeeper tunnel sends ahead so sshd's held packet gets its ACK (src/zk/tunnel/ackNudge.ts): the
// frames ZooKeeper receives are the ones written, with at most whole pings between them; and the tunnel socket sends
// the byte when the server's bytes came and nothing was written back, only for ZooKeeper frames.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AckNudge } from '../../src/zk/tunnel/ackNudge';
import { SshTunnelSocket } from '../../src/zk/tunnel/tunnelSocket';

const frame = (...body: number[]) => Buffer.from([0, 0, 0, body.length, ...body]);
const PING = frame(0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 11);

/** Splits a stream into its frames (4-byte length, then the body). */
function framesOf(stream: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = 0; at < stream.length;) {
    const end = at + 4 + stream.readUInt32BE(at);
    assert.ok(end <= stream.length, 'a frame cut short');
    frames.push(stream.subarray(at, end));
    at = end;
  }
  return frames;
}

test('a byte ahead becomes the next frame\'s first, or the first of a ping finished before a frame starting otherwise', () => {
  const nudge = new AckNudge();
  const sent: Buffer[] = [];
  sent.push(nudge.outgoing(frame(1, 2, 3)));
  const ahead = nudge.nudge();
  assert.deepEqual(ahead, Buffer.from([0]));
  sent.push(ahead!);
  assert.equal(nudge.nudge(), undefined, 'one byte ahead at most');
  const second = frame(4);
  const out = nudge.outgoing(second);
  assert.deepEqual(out, second.subarray(1), 'the frame goes without the byte already sent');
  sent.push(out);
  sent.push(nudge.nudge()!);
  // A frame whose length does not start with 0 (16 MiB or more): the byte ahead was a ping's.
  const big = Buffer.alloc(4 + 0x1000000);
  big.writeUInt32BE(0x1000000, 0);
  const bigOut = nudge.outgoing(big);
  sent.push(bigOut);
  assert.deepEqual(framesOf(Buffer.concat(sent)).map((f) => f.length), [7, 5, PING.length, big.length]);
  assert.deepEqual(framesOf(Buffer.concat(sent))[2], PING);
});

test('no byte ahead in the middle of a frame: the rest of the frame carries the ACK', () => {
  const nudge = new AckNudge();
  const whole = frame(9, 9, 9, 9);
  const sent = [nudge.outgoing(whole.subarray(0, 2))];
  assert.equal(nudge.nudge(), undefined, 'inside the length');
  sent.push(nudge.outgoing(whole.subarray(2, 6)));
  assert.equal(nudge.nudge(), undefined, 'inside the body');
  sent.push(nudge.outgoing(whole.subarray(6)));
  sent.push(nudge.nudge()!);
  sent.push(nudge.outgoing(frame(5)));
  assert.deepEqual(framesOf(Buffer.concat(sent)), [whole, frame(5)]);
});

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-nudge-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** A stand-in ssh: authenticates, sends the member's "reply" R once it has read a byte, records what it is sent. */
function standInSsh(name: string): { program: string; received: () => Buffer } {
  const record = path.join(work, `${name}.bytes`);
  const program = path.join(work, `${name}-ssh`);
  fs.writeFileSync(program, [
    '#!/bin/sh',
    'echo \'Authenticated to b ([127.0.0.1]:22) using "publickey".\' >&2',
    `dd bs=1 count=1 of='${record}' 2>/dev/null`,
    'printf R',
    `exec cat >> '${record}'`,
  ].join('\n') + '\n', { mode: 0o755 });
  return { program, received: () => fs.readFileSync(record) };
}

/** Opens a tunnel through the stand-in, writes a frame and gets the reply; `then` runs before the last frame goes. */
async function exchange(name: string, zooKeeperFrames: boolean, then: (received: () => Buffer) => Promise<void>): Promise<Buffer> {
  const ssh = standInSsh(name);
  const socket = new SshTunnelSocket({ program: ssh.program, args: [], env: {} }, 'b', 'zk', 2181);
  if (zooKeeperFrames) socket.carryZooKeeperFrames();
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(frame(1, 2));
  await new Promise((resolve) => socket.once('data', resolve));
  await then(ssh.received);
  socket.end(frame(3));
  await new Promise((resolve) => socket.once('close', resolve));
  return ssh.received();
}

test('a ZooKeeper tunnel sends a byte ahead after the server\'s bytes when nothing goes back; the member gets the same frames', async () => {
  const received = await exchange('zk', true, async (sofar) => {
    // The reader wrote nothing back after the reply: the byte goes ahead (the time is only a failure guard).
    for (const start = Date.now(); sofar().length < 7 && Date.now() - start < 10000;) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(sofar(), Buffer.concat([frame(1, 2), Buffer.from([0])]), 'the next frame\'s first byte, sent ahead');
  });
  assert.deepEqual(received, Buffer.concat([frame(1, 2), frame(3)]), 'the last frame went without the byte already sent');
});

test('a tunnel not told it carries ZooKeeper frames (TLS, four-letter words) sends exactly what is written', async () => {
  const received = await exchange('plain', false, () => new Promise((resolve) => setTimeout(resolve, 100)));
  assert.deepEqual(received, Buffer.concat([frame(1, 2), frame(3)]));
});
