// /zookeeper/config as the servers write it (3.5+ dynamic configuration) and the members ZooScope asks from it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ensembleMembers, parseEnsembleConfig } from '../../src/zk/servers/ensembleConfig';

const WITH_CLIENTS = [
  'server.1=10.0.0.1:2888:3888:participant;0.0.0.0:2181',
  'server.2=10.0.0.2:2888:3888:participant;10.0.0.2:2182',
  'server.3=zk3.example:2888:3888:observer;2183',
  'server.4=[fe80::1]:2888:3888;[::]:2184',
  'version=100000000',
].join('\n');

test('members, roles and client addresses (a wildcard client host is the quorum host)', () => {
  const config = parseEnsembleConfig(WITH_CLIENTS);
  assert.equal(config.version, '100000000');
  assert.deepEqual(config.members.map((m) => [m.id, m.role, m.client]), [
    [1, 'participant', '10.0.0.1:2181'], [2, 'participant', '10.0.0.2:2182'], [3, 'observer', 'zk3.example:2183'], [4, 'participant', '[fe80::1]:2184'],
  ]);
});

test('a config without client addresses: members known by their quorum address only', () => {
  const config = parseEnsembleConfig('server.1=127.0.0.1:30001:30002\nserver.2=127.0.0.1:30003:30004:participant\nversion=0\n');
  assert.deepEqual(config.members.map((m) => [m.id, m.host, m.quorumPort, m.electionPort, m.client]),
    [[1, '127.0.0.1', 30001, 30002, undefined], [2, '127.0.0.1', 30003, 30004, undefined]]);
  const { members, withoutClient } = ensembleMembers(['127.0.0.1:2181'], config);
  assert.deepEqual(members, [{ address: '127.0.0.1:2181', source: 'connectString' }]);
  assert.deepEqual(withoutClient.map((m) => m.id), [1, 2]);
  assert.deepEqual(parseEnsembleConfig('').members, [], 'standalone: empty');
});

test('members beyond the connect string are asked only when the user allowed them; the others come back unnamed', () => {
  const config = parseEnsembleConfig(WITH_CLIENTS);
  // The server chooses what its config lists: by default none of it beyond the connect string is asked.
  const unasked = ensembleMembers(['10.0.0.1:2181', '10.9.9.9:2181'], config);
  assert.deepEqual(unasked.members.map((m) => [m.address, m.source]), [['10.0.0.1:2181', 'both'], ['10.9.9.9:2181', 'connectString']]);
  assert.deepEqual(unasked.unnamed.map((m) => m.client), ['10.0.0.2:2182', 'zk3.example:2183', '[fe80::1]:2184']);
  const { members, withoutClient, unnamed } = ensembleMembers(['10.0.0.1:2181', '10.9.9.9:2181'], config, ['10.0.0.2:2182', 'zk3.example:2183', '[fe80::1]:2184']);
  assert.deepEqual(members.map((m) => [m.address, m.source]), [
    ['10.0.0.1:2181', 'both'], ['10.9.9.9:2181', 'connectString'], ['10.0.0.2:2182', 'config'], ['zk3.example:2183', 'config'], ['[fe80::1]:2184', 'config'],
  ]);
  assert.deepEqual(withoutClient, []);
  assert.deepEqual(unnamed, []);
});
