// The virtualized, keyed list: only rows on screen (plus a margin) exist in the DOM; an update re-renders only
// rows whose signature changed and moves the others. Arrow keys move a roving focus, Enter reveals.
import { scrollToReveal, visibleWindow } from './layout';
import { renderRow, RenderContext, RowAction, updatePositions, updateTime } from './rowView';
import { onlyPositionsDiffer, planPatch, Row } from './rows';
import type { RowList } from './rowModel';

const NO_ROWS: RowList = { length: 0, row: () => { throw new RangeError('no rows'); }, offsetOf: () => 0, indexAt: () => 0, indexOfKey: () => undefined };

export interface ActionEvent {
  action: RowAction;
  target: string;
  row: Row;
}

export class LockListView {
  private rows: RowList = NO_ROWS;
  /** Rendered rows by key, and the signature each was rendered with. */
  private readonly nodes = new Map<string, HTMLElement>();
  private readonly renderedSigs = new Map<string, string>();
  private readonly spacer: HTMLElement;
  private focusedKey: string | undefined;
  /** Where the focused row was last seen: after an update it is usually there or next to it. */
  private focusedIndex: number | undefined;
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

  /** Replaces the rows. Only rows on screen whose signature changed are re-rendered, unless `forceAll`. */
  setRows(rows: RowList, forceAll = false): void {
    this.rows = rows;
    const height = `${rows.offsetOf(rows.length)}px`;
    if (this.spacer.style.height !== height) this.spacer.style.height = height;
    if (this.focusedKey && this.indexOf(this.focusedKey) === undefined) this.focusedKey = undefined;
    this.render(forceAll);
  }

  /** Re-renders every shown row (e.g. new strings or capabilities). */
  refreshAll(): void {
    this.render(true);
  }

  private indexOf(key: string): number | undefined {
    const index = this.rows.indexOfKey(key, key === this.focusedKey ? this.focusedIndex : undefined);
    if (key === this.focusedKey) this.focusedIndex = index;
    return index;
  }

  private rowAt(index: number): Row | undefined {
    return index >= 0 && index < this.rows.length ? this.rows.row(index) : undefined;
  }

  /** Updates ticking times of the rows on screen. */
  tick(): void {
    const ctx = this.context();
    for (const node of this.nodes.values()) {
      const row = this.rowAt(Number(node.dataset.index));
      if (row) updateTime(node, row, ctx);
    }
  }

  /** Scrolls to a row by key and gives it the keyboard focus. */
  focusKey(key: string): boolean {
    const index = this.indexOf(key);
    if (index === undefined) return false;
    this.moveFocus(index);
    return true;
  }

  /** The text of the rows in the DOM, top to bottom: what the `rendered` report says is shown. */
  shownText(): string[] {
    return [...this.nodes.entries()]
      .sort((a, b) => Number(a[1].dataset.index) - Number(b[1].dataset.index))
      .map(([, node]) => node.textContent ?? '');
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render(false);
    });
  }

  /** Patches the DOM to the rows on screen: drops rows scrolled away, creates new ones, re-renders changed ones. */
  private render(forceAll: boolean): void {
    const ctx = this.context();
    const { start, end } = visibleWindow(this.rows, this.scroller.scrollTop, this.scroller.clientHeight || 800);
    const plan = planPatch(this.renderedSigs, this.rows, start, end);
    const focusedInside = document.activeElement && this.scroller.contains(document.activeElement);
    const fresh = new Set<string>();
    for (const key of plan.remove) {
      this.nodes.get(key)?.remove();
      this.nodes.delete(key);
      this.renderedSigs.delete(key);
    }
    for (const i of plan.create) {
      const row = this.rows.row(i);
      const node = document.createElement('div');
      node.dataset.key = row.key;
      node.setAttribute('role', 'listitem');
      renderRow(node, row, ctx);
      this.spacer.append(node);
      this.nodes.set(row.key, node);
      this.renderedSigs.set(row.key, row.sig);
      fresh.add(row.key);
    }
    for (const i of forceAll ? [...plan.update, ...plan.keep] : plan.update) {
      const row = this.rows.row(i);
      const node = this.nodes.get(row.key)!;
      if (!forceAll && row.kind === 'participant' && onlyPositionsDiffer(this.renderedSigs.get(row.key) ?? '', row.sig)) {
        updatePositions(node, row, ctx);
        this.renderedSigs.set(row.key, row.sig);
        continue;
      }
      const hadFocus = node.contains(document.activeElement) && document.activeElement !== node;
      renderRow(node, row, ctx);
      this.renderedSigs.set(row.key, row.sig);
      fresh.add(row.key);
      if (hadFocus) node.focus();
    }
    const tabKey = this.focusedKey ?? this.rowAt(start)?.key;
    for (let i = start; i < end; i++) {
      const row = this.rows.row(i);
      const node = this.nodes.get(row.key)!;
      const top = `${this.rows.offsetOf(i)}px`;
      if (node.style.top !== top) node.style.top = top;
      node.dataset.index = String(i);
      node.setAttribute('aria-posinset', String(i + 1));
      node.setAttribute('aria-setsize', String(this.rows.length));
      const tabbable = row.key === tabKey;
      if (fresh.has(row.key) || node.tabIndex !== (tabbable ? 0 : -1)) {
        node.tabIndex = tabbable ? 0 : -1;
        node.querySelectorAll<HTMLElement>('button').forEach((b) => { b.tabIndex = tabbable ? 0 : -1; });
      }
    }
    if (focusedInside && this.focusedKey && !this.scroller.contains(document.activeElement)) this.nodes.get(this.focusedKey)?.focus();
  }

  private moveFocus(index: number): void {
    if (this.rows.length === 0) return;
    const i = Math.max(0, Math.min(this.rows.length - 1, index));
    this.focusedKey = this.rows.row(i).key;
    this.focusedIndex = i;
    const target = scrollToReveal(this.rows, i, this.scroller.scrollTop, this.scroller.clientHeight);
    if (target !== undefined) this.scroller.scrollTop = target;
    this.render(false);
    this.nodes.get(this.focusedKey)?.focus();
  }

  private currentIndex(): number {
    return this.focusedKey ? this.indexOf(this.focusedKey) ?? 0 : 0;
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
      const row = this.rowAt(Number(rowNode.dataset.index));
      const path = row?.kind === 'participant' ? row.participant.path : row?.kind === 'queue' ? row.queue.path : undefined;
      if (row && path) this.onAction({ action: 'reveal', target: path, row });
    }
  }

  private onFocusIn(e: FocusEvent): void {
    const rowNode = (e.target as HTMLElement).closest<HTMLElement>('[data-key]');
    if (rowNode?.dataset.key && rowNode.dataset.key !== this.focusedKey) {
      this.focusedKey = rowNode.dataset.key;
      this.focusedIndex = Number(rowNode.dataset.index);
      this.render(false);
    }
  }

  private onClick(e: MouseEvent): void {
    const b = (e.target as HTMLElement).closest<HTMLElement>('[data-action]');
    const rowNode = b?.closest<HTMLElement>('[data-key]');
    const row = rowNode ? this.rowAt(Number(rowNode.dataset.index)) : undefined;
    if (!b || !row) return;
    e.stopPropagation();
    const action = b.dataset.action as RowAction;
    const target = b.dataset.target ?? '';
    if (action === 'focusEdge' && this.focusKey(`p:${target}`)) return;
    this.onAction({ action: action === 'focusEdge' ? 'reveal' : action, target, row });
  }
}
