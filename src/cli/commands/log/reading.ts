// What every form of `zooscope log` reads the logs with: the query's filter, and the logs' troubles said as they come and remembered for the exit code.
import type { LogSetItem } from '../../../zk/serverLogs/logSet';
import { pastWindow, txnMatcher, type TxnQuery } from '../../../zk/serverLogs/txnFilter';

/** The items the query keeps (issues always), ending where the query's window ends. */
export async function* matching(items: AsyncIterable<LogSetItem>, query: TxnQuery): AsyncGenerator<LogSetItem> {
  const matches = txnMatcher(query);
  for await (const item of items) {
    if (item.kind === 'issue') yield item;
    else if (pastWindow(query, item.txn)) return;
    else if (matches(item.txn)) yield item;
  }
}

/** Says each issue of the logs as it passes (and remembers that one did); every item goes on. */
export class SaidIssues {
  troubled = false;

  constructor(private readonly say: (line: string) => void) {}

  async *said(items: AsyncIterable<LogSetItem>): AsyncGenerator<LogSetItem> {
    for await (const item of items) {
      if (item.kind === 'issue') {
        this.troubled = true;
        this.say(item.issue.message);
      }
      yield item;
    }
  }
}
