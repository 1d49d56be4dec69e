// What the shell-parity tests compare: zkCli's output without its preamble, however its connection report lands.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { stripZkCliPreamble } from '../support/clients/shellRunners';

const SERVER = '127.0.0.1:2181';
const CONNECTING = `Connecting to ${SERVER}\n`;
const REPORT = '\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\n';

test('the connection report before the output is taken off', () => {
  assert.equal(stripZkCliPreamble(`${CONNECTING}${REPORT}9\n`, SERVER), '9\n');
});

test('a connection report split around the output is taken off too (seen in a fresh run)', () => {
  const split = `${CONNECTING}\nWATCHER::\n9\n\nWatchedEvent state:SyncConnected type:None path:null\n`;
  assert.equal(stripZkCliPreamble(split, SERVER), '9\n');
});

test('other watch events stay: they are output', () => {
  const event = '\nWATCHER::\n\nWatchedEvent state:SyncConnected type:NodeDataChanged path:/a\n';
  assert.equal(stripZkCliPreamble(`${CONNECTING}${REPORT}x\n${event}`, SERVER), `x\n${event}`);
});
