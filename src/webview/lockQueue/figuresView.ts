// Contention figures per lock and per participant, as the host computed them (src/shared/lockHistory.ts LockFigures) over the
// whole history or the timeline's visible window. Each lock's and participant's row says whether its figures are
// exact or bounds (a time found already running, or a gap in what was seen), a lock's also whether summarised
// intervals make them approximate.
import type { WebviewStrings } from '../../shared/lockQueueMessages';
import { visibleText } from '../../shared/visibleText';
import { participantKey, type LockFigures, type Spread } from '../../shared/lockHistory';
import { fmt } from './format';
import { el } from './rowView';
import { preciseDuration } from './timelineText';

/** Participants listed per lock (the longest holders first). */
const MAX_PARTICIPANTS = 8;

/** A cell whose text may break only between its ' · ' parts, so a narrow panel wraps "median … · p95 … · max …"
 *  into whole figures instead of running off its right edge. */
function fillCell(cell: HTMLTableCellElement, text: string): void {
  const parts = text.split(' · ');
  parts.forEach((part, i) => {
    if (i > 0) cell.append(' · ');
    const span = el('span', 'figure-part');
    span.textContent = part; // already made visible by the caller
    cell.append(span);
  });
}

export class FiguresView {
  readonly element = el('details', 'figures');
  private readonly summary = el('summary', 'figures-summary');
  private readonly scope = el('select', 'figures-scope');
  private readonly table = el('table', 'figures-table');
  private figures: LockFigures[] = [];
  private participantBounds: Record<string, boolean> = {};

  constructor(private strings: WebviewStrings, private readonly scopeChanged: (visibleWindow: boolean) => void) {
    this.element.open = true;
    this.scope.append(el('option'), el('option'));
    this.scope.addEventListener('change', () => this.scopeChanged(this.scope.selectedIndex === 1));
    const head = el('div', 'figures-head');
    head.append(this.scope);
    this.element.append(this.summary, head, this.table);
    this.setStrings(strings);
  }

  get visibleWindowChosen(): boolean {
    return this.scope.selectedIndex === 1;
  }

  setStrings(strings: WebviewStrings): void {
    this.strings = strings;
    this.summary.textContent = visibleText(strings['fig.title']);
    this.scope.options[0].textContent = visibleText(strings['fig.whole']);
    this.scope.options[1].textContent = visibleText(strings['fig.window']);
    this.scope.setAttribute('aria-label', visibleText(strings['fig.title']));
    this.render();
  }

  setFigures(figures: LockFigures[], participantBounds: Record<string, boolean> = {}): void {
    this.figures = figures;
    this.participantBounds = participantBounds;
    this.render();
  }

  private spread(spread: Spread): string {
    const s = this.strings;
    if (spread.count === 0 || spread.max === undefined) return '—';
    const d = (ms: number | undefined) => (ms === undefined ? '?' : preciseDuration(ms, s));
    return fmt(s['fig.spread'], d(spread.median), d(spread.p95), d(spread.max));
  }

  private render(): void {
    const s = this.strings;
    const t = visibleText;
    this.table.replaceChildren();
    if (this.figures.length === 0) {
      const row = this.table.insertRow();
      row.insertCell().textContent = t(s['fig.none']);
      return;
    }
    const header = this.table.createTHead().insertRow();
    for (const key of ['fig.who', 'fig.acquisitions', 'fig.hold', 'fig.wait', 'fig.longestQueue', 'fig.perSecond', 'fig.heldLongest', 'fig.exact'] as const) {
      const cell = el('th', undefined, key === 'fig.exact' ? '' : s[key]);
      header.append(cell);
    }
    const body = this.table.createTBody();
    for (const lock of this.figures) {
      const row = body.insertRow();
      row.className = 'figures-lock';
      const cells = [
        lock.lock, String(lock.acquisitions), this.spread(lock.holdMs), this.spread(lock.waitMs), String(lock.maxQueueLength),
        lock.acquisitionsPerSecond.toFixed(2),
        lock.longestHold ? `${lock.longestHold.session ?? lock.longestHold.node} (${preciseDuration(lock.longestHold.ms, s)}${lock.longestHold.exact ? '' : ' ≥'})` : '—',
        [lock.bounds ? s['fig.bound'] : s['fig.exact'], lock.approximate ? s['fig.approximate'] : ''].filter(Boolean).join(' · '),
      ];
      for (const text of cells) fillCell(row.insertCell(), t(text));
      row.cells[7].className = lock.bounds ? 'figure-bound' : 'figure-exact';
      for (const p of lock.participants.slice(0, MAX_PARTICIPANTS)) {
        const prow = body.insertRow();
        prow.className = 'figures-participant';
        const who = [p.who, p.clientAddress ?? '', p.label ?? ''].filter(Boolean).join(' · ');
        const bound = this.participantBounds[participantKey(lock.lock, p.who)] === true;
        const texts = [who, String(p.acquisitions), this.spread(p.holdMs), this.spread(p.waitMs), p.gaveUp ? fmt(s['fig.gaveUp'], p.gaveUp) : '', '', '', bound ? s['fig.bound'] : s['fig.exact']];
        for (const text of texts) fillCell(prow.insertCell(), t(text));
        prow.cells[7].className = bound ? 'figure-bound' : 'figure-exact';
      }
    }
  }
}
