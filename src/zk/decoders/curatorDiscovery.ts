// Apache Curator's service discovery (curator-x-discovery): <basePath>/<service name>/<instance id>, each instance
// a ServiceInstance serialised by JsonInstanceSerializer: {name, id, address, port, sslPort, payload,
// registrationTimeUTC, serviceType, uriSpec, enabled}. The name and id must agree with the path, so any other
// JSON is not taken for an instance.
import { hostPort, isObject, jsonObject, num, objectRows, rows, segments, show, str } from './decoding';
import type { Decoded, SystemDecoder, DecodedField, Translate } from './types';

// Curator's default instance id is a UUID: the cheap guess used before any bytes are read.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function decode(path: string, data: Uint8Array, t: Translate): Decoded | undefined {
  const parts = segments(path);
  if (parts.length < 2 || data.length === 0 || data[0] !== 0x7b) return undefined;
  const json = jsonObject(data);
  if (!json || str(json.id) !== parts.at(-1) || str(json.name) !== parts.at(-2)) return undefined;
  const address = str(json.address);
  const port = num(json.port);
  const sslPort = num(json.sslPort);
  const where = address === undefined ? '?' : hostPort(address, port ?? sslPort);
  const fields: DecodedField[] = rows([['name', json.name], ['id', json.id], ['address', address], ['port', port], ['sslPort', sslPort],
    ['serviceType', json.serviceType], ['enabled', json.enabled],
    ['registrationTimeUTC', typeof json.registrationTimeUTC === 'number' ? `${json.registrationTimeUTC} (${safeIso(json.registrationTimeUTC)})` : undefined]]);
  if (isObject(json.uriSpec) && Array.isArray(json.uriSpec.parts)) {
    // UriSpec parts: variables written back in braces, as the spec was given ("{scheme}://{address}:{port}").
    fields.push({ label: 'uriSpec', value: json.uriSpec.parts.filter(isObject).map((p) => (p.variable === true ? `{${show(p.value)}}` : show(p.value))).join('') });
  }
  if (json.payload !== undefined && json.payload !== null) {
    fields.push(isObject(json.payload) ? { label: 'payload', value: '', children: objectRows(json.payload) } : { label: 'payload', value: show(json.payload) });
  }
  const disabled = json.enabled === false ? ` · ${t('disabled')}` : '';
  return { system: 'curator', systemName: 'Curator', role: t('Curator service instance'), summary: `${show(json.name)} · ${where}${disabled}`, fields, icon: 'globe' };
}

function safeIso(millis: number): string {
  const date = new Date(millis);
  return Number.isNaN(date.getTime()) ? '?' : date.toISOString();
}

export const curatorDiscoveryDecoder: SystemDecoder = {
  system: 'curator',
  claims: (path) => UUID.test(segments(path).at(-1) ?? ''),
  decode,
};
