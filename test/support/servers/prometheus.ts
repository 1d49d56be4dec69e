// A real Prometheus (Debian's, scripts/zk/ensure-prometheus.sh) started on loopback for a test, scraping the given
// targets every second, with its HTTP API for queries. Stopped by the test (and with the test process).
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../ports';
import { endsWithTestProcess, exitOf } from '../processes';
import { eventually } from '../waiting';

export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

export function httpGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type']), body: Buffer.concat(chunks).toString('utf8') }));
    }).on('error', reject);
  });
}

export class TestPrometheus {
  private constructor(readonly url: string, readonly dir: string, private readonly proc: ChildProcess, private readonly stderr: () => string) {}

  /** Scraping `targets` (host:port) as job `job`, rules from `rules` (a file's text) when given; ready when it has scraped them once. */
  static async start(job: string, targets: string[], rules?: string): Promise<TestPrometheus> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-prom-'));
    const port = await freePort();
    if (rules !== undefined) fs.writeFileSync(path.join(dir, 'rules.yml'), rules);
    fs.writeFileSync(path.join(dir, 'prometheus.yml'), [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      ...(rules !== undefined ? ['rule_files: [rules.yml]'] : []),
      'scrape_configs:',
      `  - job_name: ${job}`,
      `    static_configs: [{ targets: [${targets.map((t) => `'${t}'`).join(', ')}] }]`,
    ].join('\n'));
    const proc = spawn('prometheus', [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    endsWithTestProcess(proc);
    let stderr = '';
    proc.stderr!.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-5000); });
    const prometheus = new TestPrometheus(`http://127.0.0.1:${port}`, dir, proc, () => stderr);
    await eventually(async () => (await httpGet(`${prometheus.url}/-/ready`).catch(() => ({ status: 0 }))).status === 200, 60000, 'Prometheus ready');
    await eventually(async () => (await prometheus.valueOf(`up{job="${job}"}`)) === 1, 60000, `the first scrape (Prometheus: ${stderr})`);
    return prometheus;
  }

  get log(): string {
    return this.stderr();
  }

  async query(expr: string): Promise<PromSample[]> {
    const { status, body } = await httpGet(`${this.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
    if (status !== 200) throw new Error(`Prometheus query ${expr}: ${status} ${body}`);
    return (JSON.parse(body) as { data: { result: PromSample[] } }).data.result;
  }

  async valueOf(expr: string): Promise<number | undefined> {
    const [sample] = await this.query(expr);
    return sample === undefined ? undefined : Number(sample.value[1]);
  }

  async stop(): Promise<void> {
    const exited = exitOf(this.proc);
    this.proc.kill('SIGTERM');
    await exited;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
