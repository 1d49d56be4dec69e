// The lock history as a timeline on a <canvas>: a lane per participant (or per session), waits and holds as bars on
// a shared time axis, hand-overs as links from one hold's end to the next hold, gaps in what was seen as shaded
// bands with dashed edges (never filled in), session losses and anomalies as marks. Only what is on screen is drawn
// (timelineLayout.ts). This class holds the data, the lanes and the selection, and puts the parts together: where
// the view stands in time (timelineViewport.ts), what the user does (timelineInput.ts), the painting
// (timelinePainter.ts), and the tooltip that tells what is under the pointer or selected.
import type { AnomalyMark, WebviewStrings } from '../../shared/lockQueueMessages';
import { visibleText } from '../../shared/visibleText';
import type { TimelineData } from '../../shared/lockHistory';
import { anomaliesInView, buildLanes, firstVisible, Frame, frameOf, intervalAt, Lanes, TimeWindow } from './timelineLayout';
import { listenToInput, TimelineControls } from './timelineInput';
import { AXIS, LABELS, LANE, paintEmpty, paintScene, startFrame } from './timelinePainter';
import { anomalyText, dataLaneOf, gapText, intervalText, nodePath } from './timelineText';
import { TimelineViewport } from './timelineViewport';
import { el, icon } from './rowView';

export interface TimelineEvents {
  /** A participant chosen (click or Enter): its node's full path. */
  reveal(path: string): void;
  /** The visible window moved (ms since the epoch). */
  windowChanged(window: { from: number; to: number }): void;
}

export class TimelineView {
  readonly element = el('section', 'timeline');
  private readonly canvas = el('canvas', 'timeline-canvas');
  private readonly tooltip = el('div', 'timeline-tooltip');
  private readonly followButton: HTMLButtonElement;
  private readonly sessionButton: HTMLButtonElement;
  private readonly buttons: HTMLButtonElement[] = [];
  private readonly viewport = new TimelineViewport(() => this.moved());
  private data: TimelineData | undefined;
  private anomalies: readonly AnomalyMark[] = [];
  private lanes: Lanes | undefined;
  private perSession = false;
  private firstLane = 0;
  private pointer: { x: number; y: number } | undefined;
  private selected: { lane: number; interval?: number } | undefined;
  private frame = 0;

  constructor(private strings: WebviewStrings, private readonly events: TimelineEvents) {
    const toolbar = el('div', 'timeline-toolbar');
    const title = el('span', 'timeline-title');
    const button = (name: string, run: () => void) => {
      const b = el('button', 'action');
      b.type = 'button';
      b.append(icon(name));
      b.addEventListener('click', run);
      this.buttons.push(b);
      return b;
    };
    const zoomIn = button('zoom-in', () => this.viewport.zoom(0.5, 1));
    const zoomOut = button('zoom-out', () => this.viewport.zoom(2, 1));
    this.followButton = button('debug-continue', () => this.follow());
    this.sessionButton = button('person', () => this.setPerSession(!this.perSession));
    toolbar.append(title, el('span', 'fill'), zoomIn, zoomOut, this.followButton, this.sessionButton);
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('role', 'img');
    this.tooltip.setAttribute('role', 'tooltip');
    this.tooltip.setAttribute('aria-live', 'polite');
    this.tooltip.id = 'timeline-tooltip';
    this.canvas.setAttribute('aria-describedby', this.tooltip.id);
    const plot = el('div', 'timeline-plot');
    plot.append(this.canvas, this.tooltip);
    this.element.append(toolbar, plot);
    this.setStrings(strings);
    listenToInput(this.canvas, this.controls());
    new ResizeObserver(() => this.schedule()).observe(plot);
  }

  setStrings(strings: WebviewStrings): void {
    this.strings = strings;
    const [zoomIn, zoomOut] = this.buttons;
    const label = (b: HTMLButtonElement, text: string) => { b.title = visibleText(text); b.setAttribute('aria-label', visibleText(text)); };
    label(zoomIn, strings.zoomIn);
    label(zoomOut, strings.zoomOut);
    label(this.followButton, strings.followNow);
    label(this.sessionButton, strings.perSession);
    (this.element.querySelector('.timeline-title') as HTMLElement).textContent = visibleText(strings.timeline);
    this.canvas.setAttribute('aria-label', visibleText(strings.timelineHelp));
    this.schedule();
  }

  /** New history data; `now` is the host's clock (ms since the epoch) when it was taken. */
  setData(data: TimelineData, live: boolean, now: number, anomalies: readonly AnomalyMark[] = []): void {
    const previous = this.data;
    this.data = data;
    this.anomalies = anomalies;
    this.lanes = buildLanes(data, this.perSession);
    this.viewport.received(data, previous, live, now);
    this.followButton.setAttribute('aria-pressed', String(this.viewport.following));
    this.schedule();
  }

  /** Called every second: a live view that follows now moves with it. */
  tick(): void {
    if (this.viewport.live && this.data) this.schedule();
  }

  /** Where the view stands (tests and the figures' window). */
  get visibleWindow(): { from: number; to: number } | undefined {
    return this.data ? this.viewport.visible : undefined;
  }

  /** Draws one frame; what it drew and how long it took are left on the canvas's data attributes (tests, bench). */
  draw(): void {
    const started = performance.now();
    this.drawFrame();
    this.canvas.dataset.drawMs = String(performance.now() - started);
  }

  /** What the input handlers act on. */
  private controls(): TimelineControls {
    return {
      active: () => this.data !== undefined && this.lanes !== undefined,
      window: () => this.viewport.window,
      plotWidth: () => this.plotWidth(),
      zoom: (factor, at) => this.viewport.zoom(factor, at),
      moveTo: (window) => this.viewport.moveTo(window),
      scrollLanes: (by) => this.scrollLanes(by),
      hover: (point) => {
        this.pointer = point;
        this.schedule();
      },
      click: (x, y) => {
        const hit = this.hit(x, y);
        if (hit?.interval === undefined) return;
        this.selected = hit;
        this.reveal(hit.interval);
      },
      follow: () => this.follow(),
      revealSelected: () => {
        if (this.selected?.interval !== undefined) this.reveal(this.selected.interval);
      },
      selectNextLane: (dir) => this.selectNextLane(dir),
      stepInterval: (dir) => this.stepInterval(dir),
    };
  }

  /** After the view moved: the follow button says whether it still follows now, and the figures may follow the window. */
  private moved(): void {
    this.followButton.setAttribute('aria-pressed', String(this.viewport.following));
    this.schedule();
    const visible = this.visibleWindow;
    if (visible) this.events.windowChanged(visible);
  }

  private setPerSession(on: boolean): void {
    this.perSession = on;
    this.sessionButton.setAttribute('aria-pressed', String(on));
    this.firstLane = 0;
    this.selected = undefined;
    if (this.data) this.lanes = buildLanes(this.data, on);
    this.schedule();
  }

  private follow(): void {
    this.viewport.follow();
    this.followButton.setAttribute('aria-pressed', 'true');
    this.schedule();
  }

  private plotWidth(): number {
    return Math.max(1, this.canvas.clientWidth - LABELS);
  }

  private laneRows(): number {
    return Math.max(1, Math.floor((this.canvas.clientHeight - AXIS) / LANE));
  }

  private scrollLanes(by: number): void {
    const count = this.lanes?.lanes.length ?? 0;
    this.firstLane = Math.max(0, Math.min(count - this.laneRows(), this.firstLane + by));
    this.schedule();
  }

  private reveal(interval: number): void {
    if (this.data) this.events.reveal(nodePath(this.data, dataLaneOf(this.data, interval)));
  }

  /** The lane and interval under a point of the canvas. */
  private hit(x: number, y: number): { lane: number; interval?: number } | undefined {
    if (!this.data || !this.lanes || y < AXIS || x < LABELS) return undefined;
    const lane = this.firstLane + Math.floor((y - AXIS) / LANE);
    if (lane >= this.lanes.lanes.length) return undefined;
    const window = this.viewport.window;
    const msPerPx = (window.to - window.from) / this.plotWidth();
    const t = window.from + (x - LABELS) * msPerPx;
    return { lane, interval: intervalAt(this.data, this.lanes.lanes[lane], t, 3 * msPerPx, this.viewport.now()) };
  }

  private selectNextLane(dir: -1 | 1): void {
    const count = this.lanes?.lanes.length ?? 0;
    if (!count) return;
    const lane = Math.max(0, Math.min(count - 1, (this.selected?.lane ?? this.firstLane - 1) + dir));
    this.select(lane, this.nearestOnLane(lane));
  }

  /** The lane's interval nearest the middle of the view. */
  private nearestOnLane(lane: number): number | undefined {
    const items = this.lanes!.lanes[lane].items;
    if (!items.length) return undefined;
    const window = this.viewport.window;
    const middle = (window.from + window.to) / 2;
    return items[Math.min(items.length - 1, firstVisible(this.lanes!.lanes[lane], middle))];
  }

  private stepInterval(dir: -1 | 1): boolean {
    if (!this.selected) return false;
    const { lane, interval } = this.selected;
    const items = this.lanes!.lanes[lane].items;
    const at = interval === undefined ? -1 : items.indexOf(interval);
    const next = items[Math.max(0, Math.min(items.length - 1, at + dir))];
    this.select(lane, next);
    return true;
  }

  /** Selects a lane and interval, scrolling and panning so both are on screen. */
  private select(lane: number, interval: number | undefined): void {
    this.selected = { lane, interval };
    if (lane < this.firstLane) this.firstLane = lane;
    else if (lane >= this.firstLane + this.laneRows()) this.firstLane = lane - this.laneRows() + 1;
    if (interval !== undefined && this.data) {
      const start = this.data.start[interval];
      const end = this.data.end[interval] < 0 ? this.viewport.now() : this.data.end[interval];
      const window = this.viewport.window;
      const span = window.to - window.from;
      if (end < window.from || start > window.to) this.viewport.moveTo({ from: start - span / 2, to: start + span / 2 });
    }
    this.pointer = undefined;
    this.schedule();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private drawFrame(): void {
    const started = startFrame(this.canvas, this.element);
    if (!started) return;
    const { ctx, colours } = started;
    const { data, lanes } = this;
    this.viewport.place(data);
    if (!data || !lanes || data.start.length === 0 && data.gaps.length === 0) {
      paintEmpty(ctx, colours, this.strings);
      this.report(0, 0, 0);
      this.showTooltip(undefined);
      return;
    }
    const now = this.viewport.now();
    const window = this.viewport.window;
    const plot = Math.max(1, this.canvas.clientWidth - LABELS);
    const rows = this.laneRows();
    const frame = frameOf(data, lanes, window, plot, this.firstLane, this.firstLane + rows, now);
    const firstTick = paintScene(ctx, colours, {
      data, lanes, frame, window, firstLane: this.firstLane, rows, plot, height: this.canvas.clientHeight, now,
      live: this.viewport.live, selected: this.selected, anomalies: this.anomalies,
    });
    this.report(frame.bars.length, Math.min(rows, lanes.lanes.length - this.firstLane), frame.merged, firstTick);
    this.showTooltip(this.hoverText(frame.gaps));
  }

  private report(bars: number, lanes: number, merged: number, firstTick?: number): void {
    const dataset = this.canvas.dataset;
    dataset.bars = String(bars);
    dataset.lanes = String(lanes);
    dataset.merged = String(merged);
    dataset.following = String(this.viewport.following);
    // The time range on screen and its first tick (ms since the epoch).
    if (this.data) {
      const window = this.viewport.window;
      dataset.viewFrom = String(Math.round(this.data.origin + window.from));
      dataset.viewTo = String(Math.round(this.data.origin + window.to));
    }
    if (firstTick === undefined) delete dataset.firstTick;
    else dataset.firstTick = String(Math.round(firstTick));
  }

  private hoverText(gaps: Frame['gaps']): string | undefined {
    const data = this.data!;
    const now = this.viewport.now();
    const window: TimeWindow = this.viewport.window;
    const s = this.strings;
    if (this.pointer) {
      const hit = this.hit(this.pointer.x, this.pointer.y);
      if (hit?.interval !== undefined) return intervalText(data, hit.interval, s, data.origin + now).join('\n');
      const x = this.pointer.x - LABELS;
      if (this.pointer.y < AXIS) {
        const near = anomaliesInView(this.anomalies, data.origin, window, this.plotWidth()).filter((a) => Math.abs(a.x - x) <= 6);
        return near.length ? near.map((a) => anomalyText(a.mark)).join('\n') : undefined;
      }
      if (this.pointer.y >= AXIS && gaps.some((g) => x >= g.x0 && x <= g.x1)) {
        const t = data.origin + window.from + (x / this.plotWidth()) * (window.to - window.from);
        const gap = data.gaps.find((g) => g.from <= t && (g.to ?? data.origin + now) >= t);
        if (gap) return gapText(gap, s, data.origin + now);
      }
      return undefined;
    }
    if (this.selected?.interval !== undefined && document.activeElement === this.canvas) {
      return intervalText(data, this.selected.interval, s, data.origin + now).join('\n');
    }
    return undefined;
  }

  private showTooltip(text: string | undefined): void {
    if (!text) {
      this.tooltip.hidden = true;
      return;
    }
    if (this.tooltip.textContent !== text) this.tooltip.textContent = text;
    this.tooltip.hidden = false;
    const x = this.pointer?.x ?? LABELS + 8;
    const y = this.pointer?.y ?? AXIS + 8;
    this.tooltip.style.left = `${Math.min(x + 12, Math.max(0, this.canvas.clientWidth - 320))}px`;
    this.tooltip.style.top = `${y + 14}px`;
  }
}
