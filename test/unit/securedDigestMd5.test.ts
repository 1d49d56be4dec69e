// DIGEST-MD5 against RFC 2831's own example (section 4) and ZooKeeper's fixed service name.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DigestMd5Client, digestResponse, expectedRspAuth, parseDirectives, ZOOKEEPER_DIGEST_URI } from '../../src/zk/security/digestMd5';

const rfcExample = {
  username: 'chris', password: 'secret', realm: 'elwood.innosoft.com', nonce: 'OA6MG9tEQGm2hh', cnonce: 'OA6MHXh6VqTrRk',
  nc: '00000001', digestUri: 'imap/elwood.innosoft.com',
};

test('response and rspauth match RFC 2831 section 4', () => {
  assert.equal(digestResponse(rfcExample), 'd388dad90d4bbd760a152321f2143af7');
  assert.equal(expectedRspAuth(rfcExample), 'ea40f60335c427b5527b84dbabcdfffd');
});

test('an authzid changes A1 (and so the response)', () => {
  assert.notEqual(digestResponse({ ...rfcExample, authzid: 'chris' }), digestResponse(rfcExample));
});

test('directives: quoted values with commas and escapes, bare values, any case', () => {
  const d = parseDirectives('realm="zk-sasl-md5",nonce="a,b\\"c",charset=utf-8,Algorithm=md5-sess');
  assert.equal(d.get('realm'), 'zk-sasl-md5');
  assert.equal(d.get('nonce'), 'a,b"c');
  assert.equal(d.get('charset'), 'utf-8');
  assert.equal(d.get('algorithm'), 'md5-sess');
});

test('the client answers ZooKeeper\'s challenge and checks its rspauth', () => {
  const client = new DigestMd5Client('alice', 'alice-pw', 'fixed-cnonce');
  const answer = parseDirectives(client.respond('realm="zk-sasl-md5",nonce="n0nce",charset=utf-8,algorithm=md5-sess'));
  assert.equal(answer.get('username'), 'alice');
  assert.equal(answer.get('digest-uri'), ZOOKEEPER_DIGEST_URI);
  assert.equal(answer.get('qop'), 'auth');
  const inputs = { username: 'alice', password: 'alice-pw', realm: 'zk-sasl-md5', nonce: 'n0nce', cnonce: 'fixed-cnonce', nc: '00000001', digestUri: ZOOKEEPER_DIGEST_URI };
  assert.equal(answer.get('response'), digestResponse(inputs));
  assert.ok(!client.respond('nonce="n0nce",realm="zk-sasl-md5"').includes('alice-pw'), 'the password never goes on the wire');
  client.verify(`rspauth=${expectedRspAuth(inputs)}`);
  assert.throws(() => client.verify('rspauth=00000000000000000000000000000000'), /rspauth is wrong/);
});

test('a challenge without a nonce, or without qop auth, is refused', () => {
  assert.throws(() => new DigestMd5Client('a', 'b').respond('realm="x"'), /no nonce/);
  assert.throws(() => new DigestMd5Client('a', 'b').respond('nonce="x",qop="auth-conf"'), /offers qop "auth-conf" only/);
});
