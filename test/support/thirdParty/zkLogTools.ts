// ZooKeeper's own readers of its logs and snapshots (Debian's 3.8.0 jar), run on files the tests made, and their
// output parsed to compare with ours.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CLASS_PATH = ['zookeeper.jar', 'zookeeper-jute.jar', 'commons-cli.jar', 'slf4j-api.jar', 'slf4j-simple.jar', 'snappy-java.jar'].map((j) => `/usr/share/java/${j}`).join(':');

async function java(mainClass: string, args: string[], props: string[] = []): Promise<string> {
  const { stdout } = await run('java', ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-Duser.timezone=UTC', ...props, '-cp', CLASS_PATH, mainClass, ...args], { maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

export interface ToolkitTxn {
  session: string;
  zxid: string;
  op: string;
  /** The first path in what it prints, for the ops that have one. */
  path?: string;
  /** For a multi: the parts' ops. */
  parts?: string[];
}

const LINE = /session (0x[0-9a-f]+) cxid 0x[0-9a-f]+ zxid (0x[0-9a-f]+) (\S+) ?(.*)$/;

/** TxnLogToolkit's transactions (one line each), and its closing count. */
export async function txnLogToolkit(file: string, props: string[] = []): Promise<{ txns: ToolkitTxn[]; eofCount: number }> {
  const out = await java('org.apache.zookeeper.server.persistence.TxnLogToolkit', [file], props);
  const txns: ToolkitTxn[] = [];
  let eofCount = -1;
  for (const line of out.split('\n')) {
    const eof = /^EOF reached after (\d+) txns\./.exec(line);
    if (eof) eofCount = Number(eof[1]);
    const m = LINE.exec(line);
    if (!m) continue;
    const [, session, zxid, op, rest] = m;
    const txn: ToolkitTxn = { session, zxid, op };
    if (op === 'multi') txn.parts = rest.split(';').map((p) => p.split(':')[0]);
    else if (!['createSession', 'closeSession', 'error'].includes(op)) txn.path = /(\/[^,]*)/.exec(rest)?.[1];
    txns.push(txn);
  }
  return { txns, eofCount };
}

export interface FormatterNode {
  path: string;
  fields: Record<string, string>;
}

/** SnapshotFormatter's nodes: a path line, then "  name = value" lines. */
export async function snapshotFormatter(file: string): Promise<FormatterNode[]> {
  const out = await java('org.apache.zookeeper.server.SnapshotFormatter', [file]);
  const nodes: FormatterNode[] = [];
  let inNodes = false;
  for (const line of out.split('\n')) {
    if (line.startsWith('ZNode Details')) inNodes = true;
    else if (line.startsWith('Session Details')) inNodes = false;
    if (!inNodes) continue;
    if (line.startsWith('/')) nodes.push({ path: line, fields: {} });
    const field = /^ {2}(\w+) = (.*)$/.exec(line);
    if (field && nodes.length) nodes[nodes.length - 1].fields[field[1]] = field[2];
  }
  return nodes;
}
