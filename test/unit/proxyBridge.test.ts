// The bridge a member's ssh runs as its ProxyCommand: run as ssh runs it (`sh -c`, after ssh's `%` expansion), it
// carries the member's bytes to the dialer's connection for %h:%p; its socket takes one connection only, and its
// folder (0700, with the socket) is gone once that connection came; a folder whose name has `%` and `'` is kept literal.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { directDialer } from '../../src/zk/tunnel/dialer';
import { openProxyBridge } from '../../src/zk/tunnel/proxyBridge';

/** What ssh does with a ProxyCommand: `%%` → `%`, `%h`/`%p` → the member's host and port, then `sh -c "exec …"`. */
const expanded = (command: string, host: string, port: number) => command.replace(/%(%|h|p)/g, (_, c: string) => (c === '%' ? '%' : c === 'h' ? host : String(port)));

test('one connection carried to %h:%p; a second finds no socket; the folder is removed', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-test-bridge-it\'s 100%-'));
  const echo = net.createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const port = (echo.address() as net.AddressInfo).port;
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  const bridge = openProxyBridge(directDialer);
  process.env.TMPDIR = savedTmp;
  try {
    const [dir] = fs.readdirSync(tmp);
    assert.match(dir, new RegExp(`^zooscope-bridge-${process.pid}-`));
    assert.equal(fs.statSync(path.join(tmp, dir)).mode & 0o777, 0o700);
    assert.ok(bridge.proxyCommand.endsWith(`'%h' '%p'`), bridge.proxyCommand);
    const proxy = spawn('/bin/sh', ['-c', `exec ${expanded(bridge.proxyCommand, '127.0.0.1', port)}`], { stdio: ['pipe', 'pipe', 'inherit'] });
    let heard = '';
    proxy.stdout.setEncoding('utf8');
    proxy.stdout.on('data', (text: string) => { heard += text; });
    proxy.stdin.write('ruok');
    while (!heard.includes('ruok')) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(heard, 'ruok', 'the bytes went to %h:%p and back, nothing added');
    assert.deepEqual(fs.readdirSync(tmp), [], 'the folder and its socket are gone once the one connection came');
    const second = net.connect(path.join(tmp, dir, 's'));
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => second.once('error', resolve));
    assert.equal(error.code, 'ENOENT');
    proxy.stdin.end();
    await new Promise((resolve) => proxy.once('close', resolve));
  } finally {
    bridge.close();
    echo.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
