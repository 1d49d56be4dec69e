// What every decoder needs: strict UTF-8, JSON objects that may be anything, rows from values, a raw result.
import type { Decoded, DecodedField, SystemId, Translate } from './types';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as UTF-8 text, or undefined when they are not. */
export function utf8(data: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(data);
  } catch {
    return undefined;
  }
}

export type JsonObject = Record<string, unknown>;

/** A JSON object (not an array or scalar), or undefined. */
export function jsonObject(data: Uint8Array): JsonObject | undefined {
  const text = utf8(data);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON value as one line: strings as they are, anything else as JSON. */
export function show(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
export const strOrNum = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

/** Rows for the values present (undefined and null are left out). */
export function rows(entries: [string, unknown][]): DecodedField[] {
  return entries.filter(([, v]) => v !== undefined && v !== null).map(([label, v]) => ({ label, value: show(v) }));
}

/** Every key of a JSON object as a row; nested objects become groups. Bounded in depth and width. */
export function objectRows(object: JsonObject, depth = 0): DecodedField[] {
  return Object.entries(object).slice(0, 200).map(([label, value]) =>
    isObject(value) && depth < 3 ? { label, value: '', children: objectRows(value, depth + 1) } : { label, value: show(value) });
}

/** The path's segments after a prefix (`/a/b/c` → ['a','b','c']). */
export const segments = (path: string): string[] => path.split('/').filter(Boolean);

/** The system was recognised by the path but the bytes do not parse: shown raw, with the reason. */
export function rawDecoded(system: SystemId, systemName: string, role: string, reason: string, t: Translate): Decoded {
  return { system, systemName, role, summary: t('not decoded: {0}', reason), fields: [], icon: 'file-binary', raw: { reason } };
}

/** `host:port`, with brackets around an IPv6 host. */
export function hostPort(host: string, port: string | number | undefined): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return port === undefined ? h : `${h}:${port}`;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** A byte count in binary units: `512 B`, `1.5 KiB`, `16 MiB` (one decimal below ten units, whole above). */
export function humanBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  // 1023.97 KiB would round to "1024 KiB": divided once more instead.
  while (value >= 1023.95 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || value >= 10 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
  return `${shown} ${BYTE_UNITS[unit]}`;
}
