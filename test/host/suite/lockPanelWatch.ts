// Watches a lock-queue panel's webview from outside, through the events of its channel: what went to the webview,
// and the `rendered` reports it sends back (with the text of the rows it shows). Start watching in the same task
// that made the panel (right after the command that opened it resolves, which runs in this extension host): the
// new webview's messages arrive later, each in a task of its own, so none is missed.
import type { HostMessage, WebviewMessage } from '../../../src/shared/lockQueueMessages';
import type { LockQueuePanel } from '../../../src/vscode/lockQueue/lockQueuePanel';

type Rendered = Extract<WebviewMessage, { type: 'rendered' }>;

export class PanelWatch {
  /** The webview's last `rendered` report. */
  rendered: Rendered | undefined;
  /** The type of every message posted to the webview, in order. */
  readonly posted: HostMessage['type'][] = [];
  private readonly onRendered = new Set<() => void>();

  constructor(panel: LockQueuePanel) {
    panel.channel.onDidPost((m) => this.posted.push(m.type));
    panel.channel.onDidReceive((m) => {
      if (m.type !== 'rendered') return;
      this.rendered = m;
      for (const listener of [...this.onRendered]) listener();
    });
  }

  /** How many messages of this type went to the webview so far. */
  count(type: HostMessage['type']): number {
    return this.posted.filter((t) => t === type).length;
  }

  /** The rows as shown, once the last render or a later one passes `check`; with `after`, one of a later message. */
  rows(check: (rows: string[]) => boolean, what: string, options: { after?: number; timeoutMs?: number } = {}): Promise<string[]> {
    const { after = 0, timeoutMs = 20000 } = options;
    return new Promise((resolve, reject) => {
      const done = () => {
        const shown = this.rendered && this.rendered.seq > after ? this.rendered.shown : undefined;
        if (!shown || !check(shown)) return false;
        clearTimeout(timer);
        this.onRendered.delete(listener);
        resolve(shown);
        return true;
      };
      const listener = () => { done(); };
      const timer = setTimeout(() => {
        this.onRendered.delete(listener);
        reject(new Error(`${what} not shown (rows: ${JSON.stringify(this.rendered?.shown ?? null).slice(0, 600)})`));
      }, timeoutMs);
      if (!done()) this.onRendered.add(listener);
    });
  }
}

const watches = new WeakMap<LockQueuePanel, PanelWatch>();

/** The watch of this panel, started now if it has none. */
export function watchPanel(panel: LockQueuePanel): PanelWatch {
  let watch = watches.get(panel);
  if (!watch) {
    watch = new PanelWatch(panel);
    watches.set(panel, watch);
  }
  return watch;
}
