// `--metrics <host:port>` of `zooscope locks --watch` and `zooscope watches --watch`: serves GET /metrics with node's http, in the format the scraper's Accept header asks for.
// It binds to loopback unless the address names another host (a bare `:port` or `port` is 127.0.0.1), and says in
// one line why it cannot listen (a bad address, a port in use). Rendering happens only when scraped.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTENT_TYPES, formatFor, type ExpositionFormat } from '../zk/metrics';
import { UsageError } from './args';

export interface ListenAddress {
  host: string;
  port: number;
}

/** `port`, `:port`, `host:port` or `[v6]:port` → where to listen; the host is 127.0.0.1 unless given. */
export function listenAddressOf(text: string, flag = '--metrics'): ListenAddress {
  const match = /^(?:(\[[^\]]*\]|[^:[\]]*):)?(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || !(port >= 0 && port <= 65535)) throw new UsageError(`${flag} takes <host:port>, :<port> or <port> (a port from 0 to 65535), not ${JSON.stringify(text)}`);
  const host = (match[1] ?? '').replace(/^\[(.*)\]$/, '$1');
  if (/\s/.test(host)) throw new UsageError(`${flag}: bad host ${JSON.stringify(host)}`);
  return { host: host === '' ? '127.0.0.1' : host, port };
}

/** Why listening failed, in words (the error's code where node gives one). */
function listenProblem(error: NodeJS.ErrnoException, where: string): string {
  switch (error.code) {
    case 'EADDRINUSE': return `cannot serve metrics on ${where}: the port is in use`;
    case 'EACCES': return `cannot serve metrics on ${where}: not allowed (ports below 1024 need privileges)`;
    case 'EADDRNOTAVAIL': return `cannot serve metrics on ${where}: no such address on this machine`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `cannot serve metrics on ${where}: unknown host`;
    default: return `cannot serve metrics on ${where}: ${error.message}`;
  }
}

/** What a server serves: the metrics of a lock recorder, or of a watch census. */
export interface MetricsSource {
  render(format: ExpositionFormat): string;
}

export class MetricsServer {
  private constructor(private readonly server: http.Server, readonly url: string) {}

  /** Listening on `address`, serving `metrics`; rejects with one line when it cannot. */
  static async listen(address: ListenAddress, metrics: MetricsSource): Promise<MetricsServer> {
    const server = http.createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the metrics are at /metrics\n');
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      const format = formatFor(request.headers.accept);
      const body = metrics.render(format);
      response.writeHead(200, { 'content-type': CONTENT_TYPES[format], 'content-length': Buffer.byteLength(body) });
      response.end(request.method === 'HEAD' ? undefined : body);
    });
    const where = `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => reject(new Error(listenProblem(error, where))));
      server.listen(address.port, address.host, () => resolve());
    });
    const bound = server.address() as AddressInfo;
    const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
    return new MetricsServer(server, `http://${host}:${bound.port}/metrics`);
  }

  close(): void {
    this.server.close();
    this.server.closeAllConnections();
  }
}
