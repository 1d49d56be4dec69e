// `zooscope log <dir|file>… [--json]`: the transactions of ZooKeeper's own logs (a data directory's version-2, or
// log files), one a line, read by src/zk/serverLogs without a JVM. Trouble in a file is one line on stderr.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TextDecoder } from 'node:util';
import { readTxnLogFile } from '../../zk/serverLogs/txnLogReader';
import type { Txn, TxnRecord } from '../../zk/serverLogs/txnTypes';
import { hex } from '../../zk/stat';
import { UsageError } from '../args';
import { defineCommand, usageText } from '../command';
import { escapeHiddenInJson } from '../output';

const USAGE = 'zooscope log <dir|file>… [--json]';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Data as text when it is UTF-8, else base64. */
function dataFields(data: Buffer | null): Record<string, string> {
  if (data === null) return {};
  try {
    return { data: utf8.decode(data) };
  } catch {
    return { dataBase64: data.toString('base64') };
  }
}

function recordFields(record: TxnRecord): Record<string, unknown> {
  const { op, ...rest } = record;
  const fields: Record<string, unknown> = { op };
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'data') Object.assign(fields, dataFields(value as Buffer | null));
    else if (key === 'parts') fields.parts = (value as TxnRecord[]).map(recordFields);
    else fields[key] = typeof value === 'bigint' ? String(value) : value;
  }
  return fields;
}

export function txnLine(txn: Txn): Record<string, unknown> {
  return { zxid: hex(txn.zxid), time: txn.time, session: hex(txn.session), ...recordFields(txn.record) };
}

/** Log files of the arguments: files as given, folders' `log.<hex>` files (and those of a version-2 inside) by zxid. */
function logFiles(args: string[]): string[] {
  return args.flatMap((arg) => {
    if (!fs.statSync(arg).isDirectory()) return [arg];
    const dir = fs.existsSync(path.join(arg, 'version-2')) ? path.join(arg, 'version-2') : arg;
    return fs.readdirSync(dir).filter((f) => /^log\.[0-9a-f]+$/i.test(f))
      .sort((a, b) => (BigInt('0x' + a.slice(4)) < BigInt('0x' + b.slice(4)) ? -1 : 1)).map((f) => path.join(dir, f));
  });
}

export const logCommand = defineCommand({
  name: 'log',
  summary: 'the transactions of ZooKeeper\'s own logs (a data directory or log files), oldest first, one a line',
  usage: USAGE,
  details: '  --json: JSON Lines (data as text when it is UTF-8, else dataBase64)',
  options: { json: {} },
  connects: false,
  failureExit: 1,
  parse({ values, positionals }) {
    if (positionals.length === 0) throw new UsageError(`expected <dir|file>…\n${usageText(USAGE)}`);
    return { json: !!values.json, targets: positionals };
  },
  async run({ json, targets }, { out }) {
    let troubled = false;
    for (const file of logFiles(targets)) {
      for await (const item of readTxnLogFile(file)) {
        if (out.closed) return 0;
        if (item.kind === 'issue') {
          troubled = true;
          out.error(item.issue.message);
        } else if (item.kind === 'txn') {
          const line = txnLine(item.txn);
          // JSON Lines keep the exact value (hidden characters as \u escapes); the human line shows them as visible text.
          if (json) out.exact(`${escapeHiddenInJson(JSON.stringify(line))}\n`);
          else out.text(`${line.zxid} ${new Date(item.txn.time).toISOString()} ${line.session} ${item.txn.record.op}${'path' in item.txn.record ? ' ' + item.txn.record.path : ''}`);
        }
      }
    }
    return troubled ? 1 : 0;
  },
});
