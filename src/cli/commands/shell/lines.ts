// Lines of a stream as Java's BufferedReader.readLine splits them (\n, \r\n or a lone \r), read as they arrive so a
// command runs before the next line is written (a pipe from another program, a FIFO).
import { StringDecoder } from 'node:string_decoder';

export async function* readLines(input: NodeJS.ReadableStream): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let lastWasCr = false;
  for await (const chunk of input) {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
    let start = 0;
    for (let i = 0; i < pending.length; i++) {
      const c = pending[i];
      if (c === '\n' && lastWasCr && i === start) {
        start = i + 1;
        lastWasCr = false;
        continue;
      }
      lastWasCr = false;
      if (c === '\n' || c === '\r') {
        yield pending.slice(start, i);
        start = i + 1;
        lastWasCr = c === '\r';
      }
    }
    pending = pending.slice(start);
  }
  pending += decoder.end();
  if (pending.length > 0) yield pending;
}
