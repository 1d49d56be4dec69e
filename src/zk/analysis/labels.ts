// A participant node's data shown as a short label: the text when it is printable UTF-8 (client IPs, host names,
// participant ids, JSON), else hex. Untrusted: control characters never pass through.
const decoder = new TextDecoder('utf-8', { fatal: true });

export const LABEL_MAX_CHARS = 80;
const HEX_MAX_BYTES = 24;

function isPrintable(text: string): boolean {
  // C0/C1 controls (tab and newlines excepted, they become spaces), and bidi overrides that could disguise text.
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text);
}

/** undefined for empty data. */
export function dataLabel(data: Buffer | undefined, maxChars = LABEL_MAX_CHARS): string | undefined {
  if (!data || data.length === 0) return undefined;
  let text: string | undefined;
  try {
    text = decoder.decode(data);
  } catch {
    text = undefined;
  }
  if (text !== undefined && isPrintable(text)) {
    const flat = text.replace(/\s+/g, ' ').trim();
    const chars = [...flat];
    return chars.length > maxChars ? chars.slice(0, maxChars - 1).join('') + '…' : flat;
  }
  return `0x${data.subarray(0, HEX_MAX_BYTES).toString('hex')}${data.length > HEX_MAX_BYTES ? '…' : ''}`;
}
