// A meaning as plain JSON for scripts (`zooscope get --decoded`, the shell's `get --decoded`).
import type { Decoded, DecodedField } from './types';

export interface DecodedJson {
  system: string;
  role: string;
  summary: string;
  election?: string;
  raw?: { reason: string };
  fields: Record<string, unknown>;
}

/** Rows as an object: a group becomes a nested object, a repeated label keeps its first value. */
function fieldsObject(fields: DecodedField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (Object.prototype.hasOwnProperty.call(out, f.label)) continue;
    // defineProperty: a label such as "__proto__" stays a plain key.
    Object.defineProperty(out, f.label, { value: f.children ? fieldsObject(f.children) : f.value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function decodedJson(decoded: Decoded): DecodedJson {
  return {
    system: decoded.system, role: decoded.role, summary: decoded.summary,
    ...(decoded.election ? { election: decoded.election } : {}),
    ...(decoded.raw ? { raw: decoded.raw } : {}),
    fields: fieldsObject(decoded.fields),
  };
}

/** What `get --decoded` prints: the path, the meaning (null when no system recognises the node) and its size. */
export function decodedDocument(path: string, data: Uint8Array | null, decode: (path: string, data: Uint8Array) => Decoded | undefined):
  { path: string; dataLength: number; decoded: DecodedJson | null } {
  const decoded = decode(path, data ?? new Uint8Array());
  return { path, dataLength: data?.length ?? -1, decoded: decoded ? decodedJson(decoded) : null };
}
