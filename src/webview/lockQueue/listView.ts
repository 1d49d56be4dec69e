/// <reference lib="dom" />
// The virtualized, keyed list: only rows on screen (plus a margin) exist in the DOM; an update re-renders only
// rows whose signature changed and moves the others. Arrow keys move a roving focus, Enter reveals.
import { rowOffsets, scrollToReveal, visibleWindow } from './layout';
import { renderRow, RenderContext, RowAction, updateTime } from './rowView';
import { diffRows, Row, RowDiff, signatures } from './rows';

export interface ActionEvent {
  action: RowAction;
  target: string;
  row: Row;
}

export class LockListView {
  private rows: Row[] = [];
  private offsets: Float64Array = new Float64Array(1);
  private indexByKey = new Map<string, number>();
  private sigs = new Map<string, string>();
  /** Rendered rows by key. */
  private readonly nodes = new Map<string, HTMLElement>();
  private readonly spacer: HTMLElement;
  private focusedKey: string | undefined;
  private frame = 0;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly context: () => RenderContext,
    private readonly onAction: (event: ActionEvent) => void,
  ) {
    this.spacer = document.createElement('div');
    this.spacer.className = 'spacer';
    scroller.append(this.spacer);
    scroller.addEventListener('scroll', () => this.schedule());
    scroller.addEventListener('click', (e) => this.onClick(e));
    scroller.addEventListener('keydown', (e) => this.onKey(e));
    scroller.addEventListener('focusin', (e) => this.onFocusIn(e));
    new ResizeObserver(() => this.schedule()).observe(scroller);
  }

  get rowCount(): number {
    return this.rows.length;
  }

  get domRowCount(): number {
    return this.nodes.size;
  }

  /** Replaces the rows; returns what changed. `forceAll` re-renders every shown row (strings or capabilities). */
  setRows(rows: Row[], forceAll = false): RowDiff {
    const diff = diffRows(this.sigs, rows);
    this.rows = rows;
    this.sigs = signatures(rows);
    this.offsets = rowOffsets(rows);
    this.indexByKey = new Map(rows.map((r, i) => [r.key, i] as const));
    this.spacer.style.height = `${this.offsets[rows.length]}px`;
    const dirty = forceAll ? new Set(this.nodes.keys()) : new Set([...diff.changed]);
    if (this.focusedKey && !this.indexByKey.has(this.focusedKey)) this.focusedKey = undefined;
    this.render(dirty);
    return diff;
  }

  /** Re-renders every shown row (e.g. new anomaly texts or capabilities). */
  refreshAll(): void {
    this.render(new Set(this.nodes.keys()));
  }

  /** Updates ticking times of the rows on screen. */
  tick(): void {
    const ctx = this.context();
    for (const [key, node] of this.nodes) {
      const row = this.rows[this.indexByKey.get(key) ?? -1];
      if (row) updateTime(node, row, ctx);
    }
  }

  /** Scrolls to a row by key and gives it the keyboard focus. */
  focusKey(key: string): boolean {
    const index = this.indexByKey.get(key);
    if (index === undefined) return false;
    this.moveFocus(index);
    return true;
  }

  /** The text of the rendered rows, top to bottom (tests, diagnostics). */
  snapshot(): string[] {
    return [...this.nodes.entries()]
      .sort((a, b) => (this.indexByKey.get(a[0]) ?? 0) - (this.indexByKey.get(b[0]) ?? 0))
      .map(([, node]) => node.textContent ?? '');
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render(new Set());
    });
  }

  private render(dirty: Set<string>): void {
    const ctx = this.context();
    const { start, end } = visibleWindow(this.offsets, this.scroller.scrollTop, this.scroller.clientHeight || 800);
    const wanted = new Set<string>();
    for (let i = start; i < end; i++) wanted.add(this.rows[i].key);
    const focusedInside = document.activeElement && this.scroller.contains(document.activeElement);
    for (const [key, node] of this.nodes) {
      if (!wanted.has(key)) {
        node.remove();
        this.nodes.delete(key);
      }
    }
    const tabKey = this.focusedKey ?? this.rows[start]?.key;
    for (let i = start; i < end; i++) {
      const row = this.rows[i];
      let node = this.nodes.get(row.key);
      if (!node) {
        node = document.createElement('div');
        node.dataset.key = row.key;
        node.setAttribute('role', 'listitem');
        renderRow(node, row, ctx);
        this.spacer.append(node);
        this.nodes.set(row.key, node);
      } else if (dirty.has(row.key)) {
        const hadFocus = node.contains(document.activeElement) && document.activeElement !== node;
        renderRow(node, row, ctx);
        if (hadFocus) node.focus();
      }
      const top = `${this.offsets[i]}px`;
      if (node.style.top !== top) node.style.top = top;
      node.setAttribute('aria-posinset', String(i + 1));
      node.setAttribute('aria-setsize', String(this.rows.length));
      const tabbable = row.key === tabKey;
      node.tabIndex = tabbable ? 0 : -1;
      node.querySelectorAll<HTMLElement>('button').forEach((b) => { b.tabIndex = tabbable ? 0 : -1; });
    }
    if (focusedInside && this.focusedKey && !this.scroller.contains(document.activeElement)) this.nodes.get(this.focusedKey)?.focus();
  }

  private moveFocus(index: number): void {
    if (this.rows.length === 0) return;
    const i = Math.max(0, Math.min(this.rows.length - 1, index));
    this.focusedKey = this.rows[i].key;
    const target = scrollToReveal(this.offsets, i, this.scroller.scrollTop, this.scroller.clientHeight);
    if (target !== undefined) this.scroller.scrollTop = target;
    this.render(new Set());
    this.nodes.get(this.focusedKey)?.focus();
  }

  private currentIndex(): number {
    return this.focusedKey ? this.indexByKey.get(this.focusedKey) ?? 0 : 0;
  }

  private onKey(e: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.scroller.clientHeight / 46) - 1);
    const moves: Record<string, () => number> = {
      ArrowDown: () => this.currentIndex() + 1,
      ArrowUp: () => this.currentIndex() - 1,
      PageDown: () => this.currentIndex() + page,
      PageUp: () => this.currentIndex() - page,
      Home: () => 0,
      End: () => this.rows.length - 1,
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      this.moveFocus(move());
      return;
    }
    const rowNode = (e.target as HTMLElement).closest<HTMLElement>('[data-key]');
    if (e.key === 'Enter' && rowNode && e.target === rowNode) {
      e.preventDefault();
      const row = this.rows[this.indexByKey.get(rowNode.dataset.key ?? '') ?? -1];
      const path = row?.kind === 'participant' ? row.participant.path : row?.kind === 'queue' ? row.queue.path : undefined;
      if (row && path) this.onAction({ action: 'reveal', target: path, row });
    }
  }

  private onFocusIn(e: FocusEvent): void {
    const rowNode = (e.target as HTMLElement).closest<HTMLElement>('[data-key]');
    if (rowNode?.dataset.key && rowNode.dataset.key !== this.focusedKey) {
      this.focusedKey = rowNode.dataset.key;
      this.render(new Set());
    }
  }

  private onClick(e: MouseEvent): void {
    const b = (e.target as HTMLElement).closest<HTMLElement>('[data-action]');
    const rowNode = b?.closest<HTMLElement>('[data-key]');
    const row = rowNode ? this.rows[this.indexByKey.get(rowNode.dataset.key ?? '') ?? -1] : undefined;
    if (!b || !row) return;
    e.stopPropagation();
    const action = b.dataset.action as RowAction;
    const target = b.dataset.target ?? '';
    if (action === 'focusEdge' && this.focusKey(`p:${target}`)) return;
    this.onAction({ action: action === 'focusEdge' ? 'reveal' : action, target, row });
  }
}
