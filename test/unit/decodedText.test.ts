// The one renderer of decoded text (src/zk/decoders/decodedText.ts): whatever a decoder took from a znode's bytes
// (summary, role, labels, values, a group's rows, the reason it was not decoded) comes out as visible text, so a
// Kafka broker's host holding a line break and a right-to-left override cannot forge a row in Show Details or the
// decoded view. Checked with the hostile fixture and with hostile text in every slot of a meaning, whatever decoder made it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodeNode, decoders, Decoded } from '../../src/zk/decoders';
import { fieldLines, flatFields, decodedHeading, decodedLines } from '../../src/zk/decoders/decodedText';
import { plainTranslate } from '../../src/zk/decoders/types';
import { FORGED_ROW, forgedLines, HOSTILE_BROKER, HOSTILE_BROKER_PATH, RAW_HIDDEN } from '../support/fixtures/hostileFixture';

test('the hostile Kafka broker: no forged leader row and no raw override in the lines of its decoded', () => {
  const decoded = decodeNode(HOSTILE_BROKER_PATH, HOSTILE_BROKER);
  assert.ok(decoded && !decoded.raw, 'decoded as a broker');
  const lines = decodedLines(decoded, plainTranslate);
  assert.deepEqual(forgedLines(lines.join('\n')), []);
  const text = lines.join('\n');
  assert.ok(text.includes(`kafka7[U+000A]${FORGED_ROW}[U+000A][U+202E]2909:evil`), text);
  assert.ok(text.includes(`PLAINTEXT[U+000A]${FORGED_ROW}`), 'a label from a JSON key too');
  // Each row is one line: the host's row is still the host's.
  const host = lines.filter((line) => line.startsWith('host '));
  assert.equal(host.length, 1);
  assert.match(host[0], /^host\s+kafka7\[U\+000A\]/);
});

const HOSTILE = `x\n${FORGED_ROW}\u202e\u200b\u0007`;

/** A meaning as any decoder could build it, hostile text in every slot. */
function hostileDecoded(system: Decoded['system'], raw: boolean): Decoded {
  return {
    system, systemName: `S${HOSTILE}`, role: `R${HOSTILE}`, summary: `sum${HOSTILE}`, icon: 'server', election: 'leader',
    fields: [
      { label: `label${HOSTILE}`, value: `value${HOSTILE}` },
      { label: 'group', value: HOSTILE, children: [{ label: HOSTILE, value: HOSTILE, children: [{ label: 'deep', value: HOSTILE }] }] },
    ],
    ...(raw ? { raw: { reason: `reason${HOSTILE}` } } : {}),
  };
}

test('every decoder\'s every slot is made visible where it is rendered, not by the decoder', () => {
  for (const { system } of decoders) {
    for (const raw of [false, true]) {
      const decoded = hostileDecoded(system, raw);
      const lines = decodedLines(decoded, plainTranslate);
      assert.deepEqual(forgedLines(lines.join('\n')), [], `${system} raw=${raw}`);
      assert.ok(lines.every((line) => !RAW_HIDDEN.test(line)), `${system}: ${JSON.stringify(lines)}`);
      assert.equal(lines.length, raw ? 2 : 8, `one line per row: ${JSON.stringify(lines)}`);
      assert.doesNotMatch(decodedHeading(decoded), RAW_HIDDEN);
      for (const [label, value] of flatFields(decoded.fields)) {
        assert.doesNotMatch(label, RAW_HIDDEN);
        assert.doesNotMatch(value, RAW_HIDDEN);
      }
    }
  }
});

test('field rows keep their layout: labels padded on their visible width, groups indented', () => {
  assert.deepEqual(fieldLines([{ label: 'a', value: '1' }, { label: 'b\u202e', value: '2', children: [{ label: 'c', value: '3\n4' }] }]),
    ['a          1', 'b[U+202E]  2', '  c  3[U+000A]4']);
});
