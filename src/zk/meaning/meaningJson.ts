// A meaning as plain JSON for scripts (`zooscope get --decoded`, the shell's `get --decoded`).
import type { Meaning, MeaningField } from './types';

export interface MeaningJson {
  system: string;
  role: string;
  summary: string;
  election?: string;
  raw?: { reason: string };
  fields: Record<string, unknown>;
}

/** Rows as an object: a group becomes a nested object, a repeated label keeps its first value. */
function fieldsObject(fields: MeaningField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (Object.prototype.hasOwnProperty.call(out, f.label)) continue;
    // defineProperty: a label such as "__proto__" stays a plain key.
    Object.defineProperty(out, f.label, { value: f.children ? fieldsObject(f.children) : f.value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function meaningJson(meaning: Meaning): MeaningJson {
  return {
    system: meaning.system, role: meaning.role, summary: meaning.summary,
    ...(meaning.election ? { election: meaning.election } : {}),
    ...(meaning.raw ? { raw: meaning.raw } : {}),
    fields: fieldsObject(meaning.fields),
  };
}

/** What `get --decoded` prints: the path, the meaning (null when no system recognises the node) and its size. */
export function decodedDocument(path: string, data: Uint8Array | null, decode: (path: string, data: Uint8Array) => Meaning | undefined):
  { path: string; dataLength: number; decoded: MeaningJson | null } {
  const meaning = decode(path, data ?? new Uint8Array());
  return { path, dataLength: data?.length ?? -1, decoded: meaning ? meaningJson(meaning) : null };
}
