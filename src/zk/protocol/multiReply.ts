// The framing both kinds of multi reply share (MultiResponse: a header per result, then a closing header): what
// differs between multi and multiRead is only each result's body.
import { JuteReader } from './jute';

/** The type of an error result; its body is the error code. */
export const ERROR_TYPE = -1;

/**
 * Reads `reply`'s results in order: `each` gets each result's type and index and reads its body from `reader`.
 * Returns how many results there were.
 */
export function forEachMultiResult(reply: Buffer, each: (type: number, index: number, reader: JuteReader) => void): number {
  const reader = new JuteReader(reply);
  for (let i = 0; ; i++) {
    const type = reader.int();
    const done = reader.bool();
    reader.int(); // the header's err; an error result repeats it in its body
    if (done) return i;
    each(type, i, reader);
  }
}
