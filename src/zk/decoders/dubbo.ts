// Apache Dubbo's ZooKeeper registry: /<group>/<interface>/{providers,consumers,routers,configurators}/<URL>, the
// group being `dubbo` unless configured, the child's name a percent-encoded URL
// (protocol://host:port/path?key=value&…) as org.apache.dubbo.common.URL writes it. The node's data is not used by
// the registry (empty, or the address in some versions); the meaning is in the name, so the name must parse.
import { hostPort, rows, segments, utf8 } from './decoding';
import type { Decoded, SystemDecoder, DecodedField, Translate } from './types';

const NODE = /^(?:.*\/)?([^/]+)\/([^/]+)\/(providers|consumers|routers|configurators)\/([^/]+)$/;
const URL_SHAPE = /^([a-zA-Z][\w+.-]*):\/\/(?:[^@/]*@)?(\[[0-9a-fA-F:.]+\]|[^/:?]*)(?::(\d+))?(\/[^?]*)?(?:\?(.*))?$/s;

function decodeComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

export interface DubboUrl {
  protocol: string;
  host: string;
  port?: string;
  path: string;
  parameters: [string, string][];
}

export function parseDubboUrl(encodedName: string): DubboUrl | undefined {
  const url = decodeComponent(encodedName);
  const m = url === undefined ? null : URL_SHAPE.exec(url);
  if (!m) return undefined;
  const parameters = (m[5] ?? '').split('&').filter(Boolean).slice(0, 500).map((pair): [string, string] => {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    return [decodeComponent(key) ?? key, decodeComponent(value) ?? value];
  });
  return { protocol: m[1], host: m[2], port: m[3], path: (m[4] ?? '').replace(/^\//, ''), parameters };
}

const ROLE_ICON: Record<string, string> = { providers: 'server-process', consumers: 'plug', routers: 'git-merge', configurators: 'settings-gear' };

function decode(path: string, data: Uint8Array, t: Translate): Decoded | undefined {
  const m = NODE.exec(path);
  if (!m) return undefined;
  const [, group, iface, category, name] = m;
  const url = parseDubboUrl(name);
  if (!url) return undefined;
  const roles: Record<string, string> = { providers: t('Dubbo provider'), consumers: t('Dubbo consumer'), routers: t('Dubbo router'), configurators: t('Dubbo configurator') };
  const get = (key: string) => url.parameters.find(([k]) => k === key)?.[1];
  const where = hostPort(url.host, url.port);
  const fields: DecodedField[] = [
    ...rows([['group', group], ['interface', iface], ['protocol', url.protocol], ['host', url.host], ['port', url.port], ['path', url.path]]),
    { label: 'parameters', value: String(url.parameters.length), children: url.parameters.map(([label, value]) => ({ label, value })) },
  ];
  const text = data.length ? utf8(data) : undefined;
  if (data.length) fields.push({ label: 'data', value: text ?? t('{0} bytes, not text', data.length) });
  const extra = [get('application'), get('version') && `v${get('version')}`].filter(Boolean).join(' ');
  return { system: 'dubbo', systemName: 'Dubbo', role: roles[category], summary: `${url.protocol}://${where}${extra ? ` · ${extra}` : ''}`, fields, icon: ROLE_ICON[category] };
}

export const dubboDecoder: SystemDecoder = {
  system: 'dubbo',
  claims: (path) => NODE.test(path) && segments(path).at(-1)?.includes('%3A%2F%2F') === true,
  decode,
};
