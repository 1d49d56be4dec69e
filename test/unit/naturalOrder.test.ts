import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { compareNatural, placeInOrder, sequenceNumber, sortChildren } from '../../src/zk/tree/naturalOrder';

const sign = (n: number) => Math.sign(n);

describe('compareNatural', () => {
  test('digit runs compare as numbers', () => {
    assert.equal(sign(compareNatural('item-2', 'item-10')), -1);
    assert.equal(sign(compareNatural('item-10', 'item-2')), 1);
    assert.equal(sign(compareNatural('a9b', 'a10a')), -1);
    assert.equal(sign(compareNatural('v1.10', 'v1.9')), 1);
    assert.equal(compareNatural('same-7', 'same-7'), 0);
  });

  test('leading zeros: equal value is ordered by padding, never equal', () => {
    assert.equal(sign(compareNatural('a01', 'a1')), 1);
    assert.equal(sign(compareNatural('a1', 'a01')), -1);
    assert.equal(sign(compareNatural('a007', 'a10')), -1);
    assert.notEqual(compareNatural('x0', 'x00'), 0);
  });

  test('long digit runs beyond 2^53 compare exactly', () => {
    assert.equal(sign(compareNatural('n9007199254740993', 'n9007199254740992')), 1);
    assert.equal(sign(compareNatural('n12345678901234567890', 'n12345678901234567891')), -1);
  });

  test('a prefix sorts first; other characters by code unit', () => {
    assert.equal(sign(compareNatural('abc', 'abcd')), -1);
    assert.equal(sign(compareNatural('B', 'a')), -1);
  });
});

describe('sequenceNumber', () => {
  test('reads the 10-digit suffix whatever the prefix', () => {
    assert.equal(sequenceNumber('lock-0000000003'), 3);
    assert.equal(sequenceNumber('_c_0f8e4f2a-9b1c-4d5e-8f00-1234567890ab-lock-0000000042'), 42);
    assert.equal(sequenceNumber('0123456789abcdef0123456789abcdef__lock__0000000007'), 7);
    assert.equal(sequenceNumber('0000000000'), 0);
    assert.equal(sequenceNumber('x-2147483647'), 2147483647);
  });

  test('a negative sequence after overflow', () => {
    assert.equal(sequenceNumber('lock--000000001'), -1);
    assert.equal(sequenceNumber('n-000000123'), -123);
  });

  test('names without a sequence suffix', () => {
    assert.equal(sequenceNumber('lock-00000003'), undefined);
    assert.equal(sequenceNumber('lock000000003'), undefined);
    assert.equal(sequenceNumber('item-10'), undefined);
    assert.equal(sequenceNumber('0000000001x'), undefined);
  });
});

describe('sortChildren', () => {
  test('plain names first, naturally', () => {
    assert.deepEqual(sortChildren(['item-10', 'item-2', 'item-1', 'b', 'a']), ['a', 'b', 'item-1', 'item-2', 'item-10']);
  });

  test('sequential names by sequence number, whatever the prefix', () => {
    const names = [
      'zzz-0000000005',
      '_c_f0a1-lock-0000000003',
      '_c_0b2c-lock-0000000004',
      'aaaa__lock__0000000006',
      'x-123-0000000001',
      'config',
    ];
    assert.deepEqual(sortChildren(names), [
      'config',
      'x-123-0000000001',
      '_c_f0a1-lock-0000000003',
      '_c_0b2c-lock-0000000004',
      'zzz-0000000005',
      'aaaa__lock__0000000006',
    ]);
  });

  test('a negative sequence (after overflow) comes before 0', () => {
    assert.deepEqual(sortChildren(['q-0000000000', 'q--000000002', 'q--000000001']), ['q--000000002', 'q--000000001', 'q-0000000000']);
  });

  test('ties on the sequence number are ordered by name, stably whatever the input order', () => {
    const tie = ['_c_b-__WRIT__0000000005', '_c_a-__READ__0000000005', 'n-0000000004'];
    const expected = ['n-0000000004', '_c_a-__READ__0000000005', '_c_b-__WRIT__0000000005'];
    assert.deepEqual(sortChildren(tie), expected);
    assert.deepEqual(sortChildren([...tie].reverse()), expected);
  });

  test('returns a new array and leaves the input alone', () => {
    const input = ['b', 'a'];
    const out = sortChildren(input);
    assert.deepEqual(input, ['b', 'a']);
    assert.notEqual(out, input);
  });
});

describe('sequenceNumber read without a regular expression', () => {
  const SUFFIX = /(?:\d{10}|-\d{9})$/;
  const byRegex = (name: string) => { const m = SUFFIX.exec(name); return m ? Number(m[0]) : undefined; };

  test('agrees with the %010d suffix pattern on every shape of name', () => {
    const tails = ['', '0', '7', '-', '--', 'x', '٣', '\u{1F600}', '0000000001', '-000000001', '123456789', '-12345678', '12345678901',
      '-1234567890', '99999999999999', '-000000000', 'a-123456789', '1-123456789', '9999999999', '0000000000x'];
    const heads = ['', 'lock-', 'n', '-', '1', 'x-1', '_c_ab-lock-'];
    for (const head of heads) {
      for (const tail of tails) {
        const name = head + tail;
        assert.equal(sequenceNumber(name), byRegex(name), JSON.stringify(name));
      }
    }
  });
});

describe('placeInOrder', () => {
  test('finds where a name goes in names already in display order (binary search), and the name when it is there', () => {
    const sorted = sortChildren(['item-10', 'item-2', 'a', 'lock-0000000007', 'b-01', 'b-1', 'lock-0000000003', 'item-1']);
    for (const [index, name] of sorted.entries()) assert.equal(placeInOrder(sorted, name), index, name);
    for (const name of ['item-3', 'item-11', '0', 'zz', 'lock-0000000005', 'lock-0000000100', 'b-001', 'b-2']) {
      const at = placeInOrder(sorted, name);
      assert.deepEqual(sortChildren([...sorted, name]).indexOf(name), at, name);
    }
    assert.equal(placeInOrder([], 'x'), 0);
  });
});
