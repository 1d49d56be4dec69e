// Runs one shell command two ways on the same server: Debian's ZooKeeper 3.8.0 zkCli.sh (non-interactive,
// `-server host:port cmd args`) and the bundled `zooscope shell`, and returns what each printed. zkCli's own
// preamble — "Connecting to …" and the connection's SyncConnected WATCHER report (usually before the command's
// output, at times around it) — is taken off, as is the SLF4J chatter of Debian's classpath: what is left is the
// command's output.
import { execFile, spawn } from 'node:child_process';

export const ZKCLI = '/usr/share/zookeeper/bin/zkCli.sh';

export interface CommandRun {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Both tools in UTC, so Stat times print alike (zkCli in the JVM's default zone, ours in the process's). */
const ENV = { ...process.env, TZ: 'UTC', ZOOSCOPE_DIGEST: undefined, ZOOSCOPE_DIGEST_PASSWORD: undefined };

/**
 * zkCli's event thread reports the connection in two prints, and the command's own output may come between them
 * (a fresh run saw `\nWATCHER::\n9\n\nWatchedEvent …`): each part is taken out on its own.
 */
const CONNECTED_REPORT = ['\nWATCHER::\n', '\nWatchedEvent state:SyncConnected type:None path:null\n'];

export function stripZkCliPreamble(stdout: string, server: string): string {
  const connecting = `Connecting to ${server}\n`;
  let text = stdout.startsWith(connecting) ? stdout.slice(connecting.length) : stdout;
  for (const part of CONNECTED_REPORT) {
    const at = text.indexOf(part);
    if (at >= 0) text = text.slice(0, at) + text.slice(at + part.length);
  }
  return text;
}

export function runZkCli(server: string, args: readonly string[]): Promise<CommandRun> {
  return new Promise((resolve) => {
    execFile(ZKCLI, ['-server', server, ...args], { env: ENV, timeout: 60000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      const err = stderr.split('\n').filter((l) => !l.startsWith('SLF4J:')).join('\n');
      resolve({ stdout: stripZkCliPreamble(stdout, server), stderr: err, code });
    });
  });
}

export function runZooscopeShell(cli: string, server: string, args: readonly string[], stdin?: string, env: NodeJS.ProcessEnv = {}): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [cli, 'shell', server, ...args], { env: { ...ENV, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    proc.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`zooscope shell ${args.join(' ')} still running after 60 s`)); }, 60000);
    // 'close' comes after the process exited and its output ended.
    proc.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
    proc.stdin.end(stdin ?? '');
  });
}
