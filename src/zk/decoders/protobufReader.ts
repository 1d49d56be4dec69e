// A small reader of the protobuf wire format (varint, 64-bit, length-delimited, 32-bit): enough to read the few
// messages HBase and Hadoop keep in ZooKeeper, with each message's field names written out by its decoder.
// Never throws: a truncated or malformed message gives undefined.

export type WireValue =
  | { wire: 'varint'; value: bigint }
  | { wire: 'fixed64'; value: bigint }
  | { wire: 'bytes'; value: Uint8Array }
  | { wire: 'fixed32'; value: number };

/** Field number → its values in order (a repeated field has several). */
export type ProtoMessage = Map<number, WireValue[]>;

const MAX_VARINT_BYTES = 10;

function readVarint(bytes: Uint8Array, at: number): { value: bigint; next: number } | undefined {
  let value = 0n;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    if (at + i >= bytes.length) return undefined;
    const byte = bytes[at + i];
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if ((byte & 0x80) === 0) return { value: BigInt.asUintN(64, value), next: at + i + 1 };
  }
  return undefined;
}

/** The message's fields, or undefined when the bytes are not a well-formed message (truncated, bad wire type). */
export function readMessage(bytes: Uint8Array): ProtoMessage | undefined {
  const fields: ProtoMessage = new Map();
  let at = 0;
  while (at < bytes.length) {
    const key = readVarint(bytes, at);
    if (!key) return undefined;
    at = key.next;
    const field = Number(key.value >> 3n);
    const wireType = Number(key.value & 7n);
    if (field === 0 || field > 536870911) return undefined;
    let value: WireValue;
    if (wireType === 0) {
      const v = readVarint(bytes, at);
      if (!v) return undefined;
      value = { wire: 'varint', value: v.value };
      at = v.next;
    } else if (wireType === 1) {
      if (at + 8 > bytes.length) return undefined;
      value = { wire: 'fixed64', value: new DataView(bytes.buffer, bytes.byteOffset + at, 8).getBigUint64(0, true) };
      at += 8;
    } else if (wireType === 2) {
      const length = readVarint(bytes, at);
      if (!length || length.value > BigInt(bytes.length - length.next)) return undefined;
      const end = length.next + Number(length.value);
      value = { wire: 'bytes', value: bytes.subarray(length.next, end) };
      at = end;
    } else if (wireType === 5) {
      if (at + 4 > bytes.length) return undefined;
      value = { wire: 'fixed32', value: new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true) };
      at += 4;
    } else {
      return undefined; // groups (3, 4) are deprecated and unused by the messages we read; 6 and 7 do not exist
    }
    const list = fields.get(field);
    if (list) list.push(value);
    else fields.set(field, [value]);
  }
  return fields;
}

const last = (message: ProtoMessage, field: number): WireValue | undefined => message.get(field)?.at(-1);

export function uint(message: ProtoMessage, field: number): bigint | undefined {
  const v = last(message, field);
  return v?.wire === 'varint' ? v.value : undefined;
}

/** A signed int32/int64 field (two's complement in the varint). */
export function int(message: ProtoMessage, field: number): bigint | undefined {
  const v = uint(message, field);
  return v === undefined ? undefined : BigInt.asIntN(64, v);
}

export function bytesField(message: ProtoMessage, field: number): Uint8Array | undefined {
  const v = last(message, field);
  return v?.wire === 'bytes' ? v.value : undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A string field, or undefined when absent or not UTF-8. */
export function text(message: ProtoMessage, field: number): string | undefined {
  const v = bytesField(message, field);
  if (!v) return undefined;
  try {
    return strictUtf8.decode(v);
  } catch {
    return undefined;
  }
}

export function sub(message: ProtoMessage, field: number): ProtoMessage | undefined {
  const v = bytesField(message, field);
  return v ? readMessage(v) : undefined;
}

export function subs(message: ProtoMessage, field: number): ProtoMessage[] {
  return (message.get(field) ?? []).flatMap((v) => (v.wire === 'bytes' ? [readMessage(v.value)].filter((m): m is ProtoMessage => m !== undefined) : []));
}
