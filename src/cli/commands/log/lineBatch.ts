// How `zooscope log` writes: lines a chunk at a time, data as text or base64, a short preview of data for people.
import { visibleText } from '../../../shared/visibleText';
import { encodeData } from '../../../zk/transfer/exportFormat';
import { escapeHiddenInJson, type Output } from '../../output';

/** Data as text when it is UTF-8, else base64 (as the export format decides it). */
export function dataFields(data: Buffer | null): Record<string, string> {
  if (data === null) return {};
  const encoded = encodeData(data);
  return encoded.encoding === 'utf8' ? { data: encoded.data } : { dataBase64: encoded.data };
}

const PREVIEW_CHARS = 60;
const NOT_PLAIN = /[^\x20-\x7e\n]/;

/** What a human line says of data: its size, and its start when it is text. */
export function dataSummary(data: Buffer | null | undefined): string {
  if (data === undefined) return '';
  if (data === null) return ', no data';
  const text = dataFields(data).data;
  if (text === undefined) return `, ${data.length} bytes (binary)`;
  return `, ${data.length} bytes: ${JSON.stringify(text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text)}`;
}

/**
 * Lines written a chunk at a time (a log has millions: one write each costs more than making them). JSON Lines keep
 * the exact value, hidden characters as \u escapes; a human line shows them as visible text, a line break inside a
 * value (a hostile path) included, so one transaction is one line.
 */
export class LineBatch {
  private parts: string[] = [];
  private size = 0;

  constructor(private readonly out: Output, private readonly json: boolean) {}

  add(line: string): void {
    this.parts.push(this.json ? line : visibleText(line));
    this.size += line.length;
    if (this.size >= 65536) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const chunk = `${this.parts.join('\n')}\n`;
    this.parts = [];
    this.size = 0;
    // Printable ASCII alone (most logs) has nothing to escape: a simple scan spares the full one.
    this.out.exact(this.json && NOT_PLAIN.test(chunk) ? escapeHiddenInJson(chunk) : chunk);
  }
}
