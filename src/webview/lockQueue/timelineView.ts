// The lock history as a timeline on a <canvas>: a lane per participant (or per session), waits and holds as bars on
// a shared time axis, hand-overs as links from one hold's end to the next hold, gaps in what was seen as shaded
// bands with dashed edges (never filled in), session losses and anomalies as marks. Only what is on screen is drawn
// (timelineLayout.ts). The first view is the recorded window (recordedWindow), growing with it while live, until the
// user zooms or pans. Wheel or buttons zoom, drag or Shift+wheel pans, and the view follows "now" while live until
// the user looks back. Keyboard: ↑/↓ choose a lane, ←/→ an interval on it, Shift+←/→ pan, +/− zoom, Home follows
// now, Enter reveals.
import type { AnomalyMark, WebviewStrings } from '../../shared/lockQueueMessages';
import { shortened, visibleText } from '../../shared/visibleText';
import type { TimelineData } from '../../shared/lockHistory';
import { anomaliesInView, buildLanes, firstVisible, frameOf, intervalAt, isExact, Lanes, panned, recordedWindow, TimeWindow, zoomed } from './timelineLayout';
import { anomalyText, clockTime, dataLaneOf, gapText, intervalText, nodePath } from './timelineText';
import { el, icon } from './rowView';

const AXIS = 22;
const LANE = 20;
const LABELS = 170;
const COLOURS = ['hold', 'wait', 'gap', 'lost', 'axis', 'grid', 'handover', 'label', 'now', 'selected', 'info'] as const;
const SEVERITY_COLOUR = { error: 'lost', warning: 'gap', info: 'info' } as const;
type Colour = typeof COLOURS[number];

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
  private data: TimelineData | undefined;
  private anomalies: readonly AnomalyMark[] = [];
  private lanes: Lanes | undefined;
  private perSession = false;
  private window: TimeWindow = { from: 0, to: 60_000 };
  /** The view is the recorded window (until the user zooms or pans). */
  private fitting = true;
  private following = true;
  private live = false;
  /** The host's clock at the last data (ms since the epoch), and when it arrived here. */
  private hostNow = 0;
  private receivedAt = 0;
  private firstLane = 0;
  private pointer: { x: number; y: number } | undefined;
  private selected: { lane: number; interval?: number } | undefined;
  private drag: { x: number; window: TimeWindow } | undefined;
  private frame = 0;
  private colours: Record<Colour, string> | undefined;

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
    const zoomIn = button('zoom-in', () => this.zoom(0.5, 1));
    const zoomOut = button('zoom-out', () => this.zoom(2, 1));
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
    this.canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    this.canvas.addEventListener('pointermove', (e) => this.onPointerMove(e));
    this.canvas.addEventListener('pointerleave', () => { this.pointer = undefined; this.drag = undefined; this.schedule(); });
    this.canvas.addEventListener('pointerdown', (e) => { this.drag = { x: e.offsetX, window: this.window }; });
    this.canvas.addEventListener('pointerup', (e) => this.onPointerUp(e));
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
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
    this.live = live;
    this.hostNow = now;
    this.receivedAt = performance.now();
    this.lanes = buildLanes(data, this.perSession);
    if (!previous) {
      this.fitting = true;
      this.following = live;
    } else if (previous.origin !== data.origin) {
      // The window is kept after the origin: the same moments when the origin moves (a node found from earlier).
      this.window = panned(this.window, previous.origin - data.origin);
    }
    this.placeWindow();
    this.followButton.setAttribute('aria-pressed', String(this.following));
    this.schedule();
  }

  /** Called every second: a live view that follows now moves with it. */
  tick(): void {
    if (this.live && this.data) this.schedule();
  }

  /** Where the view stands (tests and the figures' window). */
  get visibleWindow(): { from: number; to: number } | undefined {
    return this.data ? { from: Math.round(this.data.origin + Math.max(0, this.window.from)), to: Math.round(this.data.origin + Math.max(0, this.window.to)) } : undefined;
  }

  /** The recorded window while fitting, the latest moments while following live; else where the user put it. */
  private placeWindow(): void {
    if (!this.data) return;
    const now = this.now();
    if (this.fitting) this.window = recordedWindow(this.data, now, this.live);
    else if (this.following && this.live) {
      const span = this.window.to - this.window.from;
      this.window = { from: now + span * 0.02 - span, to: now + span * 0.02 };
    }
  }

  /** ms after the origin that "now" is: the host's clock moved on by the time since, or the data's end in a replay. */
  private now(): number {
    if (!this.data) return 0;
    return this.hostNow - this.data.origin + (this.live ? performance.now() - this.receivedAt : 0);
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
    this.following = true;
    this.followButton.setAttribute('aria-pressed', 'true');
    this.schedule();
  }

  private moveTo(window: TimeWindow, keepFollowing = false): void {
    const before = this.window;
    this.window = window;
    this.fitting = false;
    // Looking back (the view's end moves earlier) stops following; reaching now again resumes.
    const now = this.now();
    this.following = this.live && (keepFollowing || (window.to >= now && window.to >= before.to));
    this.followButton.setAttribute('aria-pressed', String(this.following));
    this.schedule();
    const visible = this.visibleWindow;
    if (visible) this.events.windowChanged(visible);
  }

  private zoom(factor: number, at: number): void {
    // Zooming while following stays with now: the window only catches up with the clock when it is drawn, so on a
    // slow machine it may already end before now (run S6).
    this.moveTo(zoomed(this.window, factor, this.following ? 1 : at), this.following);
  }

  private plotWidth(): number {
    return Math.max(1, this.canvas.clientWidth - LABELS);
  }

  private laneRows(): number {
    return Math.max(1, Math.floor((this.canvas.clientHeight - AXIS) / LANE));
  }

  private onWheel(e: WheelEvent): void {
    if (!this.data) return;
    e.preventDefault();
    const at = Math.min(1, Math.max(0, (e.offsetX - LABELS) / this.plotWidth()));
    if (e.ctrlKey || e.metaKey) this.zoom(e.deltaY > 0 ? 1.25 : 0.8, at);
    else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      const delta = e.shiftKey ? e.deltaY || e.deltaX : e.deltaX;
      this.moveTo(panned(this.window, (delta / this.plotWidth()) * (this.window.to - this.window.from)));
    } else this.scrollLanes(Math.sign(e.deltaY) * Math.max(1, Math.round(Math.abs(e.deltaY) / LANE)));
  }

  private scrollLanes(by: number): void {
    const count = this.lanes?.lanes.length ?? 0;
    this.firstLane = Math.max(0, Math.min(count - this.laneRows(), this.firstLane + by));
    this.schedule();
  }

  private onPointerMove(e: PointerEvent): void {
    if (this.drag && e.buttons === 1 && Math.abs(e.offsetX - this.drag.x) > 2) {
      const ms = ((this.drag.x - e.offsetX) / this.plotWidth()) * (this.drag.window.to - this.drag.window.from);
      this.moveTo(panned(this.drag.window, ms));
      this.pointer = undefined;
      return;
    }
    this.pointer = { x: e.offsetX, y: e.offsetY };
    this.schedule();
  }

  private onPointerUp(e: PointerEvent): void {
    const dragged = this.drag && Math.abs(e.offsetX - this.drag.x) > 2;
    this.drag = undefined;
    if (dragged) return;
    const hit = this.hit(e.offsetX, e.offsetY);
    if (hit?.interval !== undefined) {
      this.selected = hit;
      this.reveal(hit.interval);
    }
  }

  private reveal(interval: number): void {
    if (this.data) this.events.reveal(nodePath(this.data, dataLaneOf(this.data, interval)));
  }

  /** The lane and interval under a point of the canvas. */
  private hit(x: number, y: number): { lane: number; interval?: number } | undefined {
    if (!this.data || !this.lanes || y < AXIS || x < LABELS) return undefined;
    const lane = this.firstLane + Math.floor((y - AXIS) / LANE);
    if (lane >= this.lanes.lanes.length) return undefined;
    const msPerPx = (this.window.to - this.window.from) / this.plotWidth();
    const t = this.window.from + (x - LABELS) * msPerPx;
    return { lane, interval: intervalAt(this.data, this.lanes.lanes[lane], t, 3 * msPerPx, this.now()) };
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.data || !this.lanes) return;
    const span = this.window.to - this.window.from;
    const lanes = this.lanes.lanes;
    const handled = (() => {
      switch (e.key) {
        case '+': case '=': this.zoom(0.5, 0.5); return true;
        case '-': case '_': this.zoom(2, 0.5); return true;
        case 'Home': this.follow(); return true;
        case 'Enter': if (this.selected?.interval !== undefined) this.reveal(this.selected.interval); return true;
        case 'ArrowUp': case 'ArrowDown': {
          if (!lanes.length) return true;
          const lane = Math.max(0, Math.min(lanes.length - 1, (this.selected?.lane ?? this.firstLane - 1) + (e.key === 'ArrowUp' ? -1 : 1)));
          this.select(lane, this.nearestOnLane(lane));
          return true;
        }
        case 'ArrowLeft': case 'ArrowRight': {
          const dir = e.key === 'ArrowLeft' ? -1 : 1;
          if (e.shiftKey || !this.selected) this.moveTo(panned(this.window, dir * span * 0.2));
          else this.stepInterval(dir);
          return true;
        }
        default: return false;
      }
    })();
    if (handled) e.preventDefault();
  }

  /** The lane's interval nearest the middle of the view. */
  private nearestOnLane(lane: number): number | undefined {
    const items = this.lanes!.lanes[lane].items;
    if (!items.length) return undefined;
    const middle = (this.window.from + this.window.to) / 2;
    return items[Math.min(items.length - 1, firstVisible(this.lanes!.lanes[lane], middle))];
  }

  private stepInterval(dir: number): void {
    const { lane, interval } = this.selected!;
    const items = this.lanes!.lanes[lane].items;
    const at = interval === undefined ? -1 : items.indexOf(interval);
    const next = items[Math.max(0, Math.min(items.length - 1, at + dir))];
    this.select(lane, next);
  }

  /** Selects a lane and interval, scrolling and panning so both are on screen. */
  private select(lane: number, interval: number | undefined): void {
    this.selected = { lane, interval };
    if (lane < this.firstLane) this.firstLane = lane;
    else if (lane >= this.firstLane + this.laneRows()) this.firstLane = lane - this.laneRows() + 1;
    if (interval !== undefined && this.data) {
      const start = this.data.start[interval];
      const end = this.data.end[interval] < 0 ? this.now() : this.data.end[interval];
      const span = this.window.to - this.window.from;
      if (end < this.window.from || start > this.window.to) this.moveTo({ from: start - span / 2, to: start + span / 2 });
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

  private colour(name: Colour): string {
    return this.colours![name];
  }

  /** Theme colours (var(--vscode-…)), read through the style sheet's --tl-* properties. */
  private readColours(): void {
    const style = getComputedStyle(this.element);
    const fallback = style.color;
    this.colours = Object.fromEntries(COLOURS.map((c) => [c, style.getPropertyValue(`--tl-${c}`).trim() || fallback])) as Record<Colour, string>;
  }

  /** Draws one frame; what it drew and how long it took are left on the canvas's data attributes (tests, bench). */
  draw(): void {
    const started = performance.now();
    this.drawFrame();
    this.canvas.dataset.drawMs = String(performance.now() - started);
  }

  private drawFrame(): void {
    const canvas = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    this.readColours();
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = `12px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
    ctx.textBaseline = 'middle';
    const data = this.data;
    const lanes = this.lanes;
    this.placeWindow();
    if (!data || !lanes || data.start.length === 0 && data.gaps.length === 0) {
      ctx.fillStyle = this.colour('axis');
      ctx.fillText(visibleText(this.strings.noHistory), 8, AXIS + LANE / 2);
      this.report(0, 0, 0);
      this.showTooltip(undefined);
      return;
    }
    const now = this.now();
    const plot = Math.max(1, width - LABELS);
    const rows = this.laneRows();
    const frame = frameOf(data, lanes, this.window, plot, this.firstLane, this.firstLane + rows, now);
    const laneY = (lane: number) => AXIS + (lane - this.firstLane) * LANE;
    ctx.save();
    ctx.beginPath();
    ctx.rect(LABELS, 0, plot, height);
    ctx.clip();
    ctx.translate(LABELS, 0);
    const firstTick = this.drawAxis(ctx, plot, height, data.origin);
    // Gaps first, under the bars: a shaded band over the lanes it concerns, dashed edges across the plot, so it never reads as quiet.
    for (const gap of frame.gaps) {
      ctx.fillStyle = this.colour('gap');
      ctx.globalAlpha = 0.18;
      for (let l = this.firstLane; l < Math.min(lanes.lanes.length, this.firstLane + rows); l++) {
        if (gap.lock === undefined || lanes.lanes[l].lock === gap.lock) ctx.fillRect(gap.x0, laneY(l), Math.max(1, gap.x1 - gap.x0), LANE);
      }
      ctx.globalAlpha = 1;
      ctx.strokeStyle = this.colour('gap');
      ctx.setLineDash([3, 3]);
      ctx.strokeRect(gap.x0, AXIS, Math.max(1, gap.x1 - gap.x0), height - AXIS);
      ctx.setLineDash([]);
    }
    for (const kind of [0, 1] as const) {
      for (const exact of [true, false]) {
        ctx.fillStyle = this.colour(kind === 1 ? 'hold' : 'wait');
        ctx.globalAlpha = exact ? 1 : 0.45;
        const inset = kind === 1 ? 3 : 7;
        for (const bar of frame.bars) {
          const i = bar.interval;
          if (data.kind[i] !== kind || isExact(data, i) !== exact) continue;
          ctx.fillRect(bar.x0, laneY(bar.lane) + inset, Math.max(1, bar.x1 - bar.x0), LANE - 2 * inset);
        }
      }
    }
    ctx.globalAlpha = 1;
    ctx.strokeStyle = this.colour('handover');
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (const h of frame.handOvers) {
      ctx.moveTo(h.x0, laneY(h.fromLane) + LANE / 2);
      ctx.lineTo(h.x1, laneY(h.toLane) + LANE / 2);
    }
    ctx.stroke();
    ctx.strokeStyle = this.colour('lost');
    ctx.lineWidth = 2;
    ctx.beginPath();
    for (const m of frame.marks) {
      const y = laneY(m.lane) + LANE / 2;
      ctx.moveTo(m.x - 4, y - 4); ctx.lineTo(m.x + 4, y + 4);
      ctx.moveTo(m.x + 4, y - 4); ctx.lineTo(m.x - 4, y + 4);
    }
    ctx.stroke();
    ctx.lineWidth = 1;
    if (this.live) {
      const x = ((now - this.window.from) / (this.window.to - this.window.from)) * plot;
      ctx.fillStyle = this.colour('now');
      ctx.fillRect(x, AXIS, 1, height - AXIS);
    }
    const chosen = this.selected?.interval;
    if (chosen !== undefined) {
      const bar = frame.bars.find((b) => b.interval === chosen);
      if (bar) {
        ctx.strokeStyle = this.colour('selected');
        ctx.strokeRect(bar.x0 - 1, laneY(bar.lane) + 1, Math.max(1, bar.x1 - bar.x0) + 2, LANE - 2);
      }
    }
    // Anomalies as they appeared: a triangle on the axis, in the colour of their severity.
    for (const { x, mark } of anomaliesInView(this.anomalies, data.origin, this.window, plot)) {
      ctx.fillStyle = this.colour(SEVERITY_COLOUR[mark.severity]);
      ctx.beginPath();
      ctx.moveTo(x - 5, AXIS - 8);
      ctx.lineTo(x + 5, AXIS - 8);
      ctx.lineTo(x, AXIS);
      ctx.fill();
    }
    ctx.restore();
    this.drawLabels(ctx, height, rows);
    this.report(frame.bars.length, Math.min(rows, lanes.lanes.length - this.firstLane), frame.merged, firstTick);
    this.showTooltip(this.hoverText(frame.gaps));
  }

  /** Draws the time axis; returns its first tick (ms since the epoch), if any. */
  private drawAxis(ctx: CanvasRenderingContext2D, plot: number, height: number, origin: number): number | undefined {
    const span = this.window.to - this.window.from;
    const target = span / Math.max(1, plot / 110);
    const power = 10 ** Math.floor(Math.log10(Math.max(1, target)));
    const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= target) ?? 10 * power;
    ctx.fillStyle = this.colour('grid');
    // Ticks on round times of the clock (whole seconds, tens of seconds…), not on the origin's odd milliseconds.
    const first = Math.ceil((origin + this.window.from) / step) * step - origin;
    for (let t = first; t <= this.window.to; t += step) {
      const x = ((t - this.window.from) / span) * plot;
      ctx.fillStyle = this.colour('grid');
      ctx.fillRect(x, AXIS - 4, 1, height - AXIS + 4);
      ctx.fillStyle = this.colour('axis');
      const text = clockTime(origin + t);
      ctx.fillText(step >= 1000 ? text.slice(0, -4) : text, x + 3, AXIS / 2);
    }
    return first <= this.window.to ? origin + first : undefined;
  }

  private drawLabels(ctx: CanvasRenderingContext2D, height: number, rows: number): void {
    const lanes = this.lanes!.lanes;
    ctx.fillStyle = this.colour('label');
    const last = Math.min(lanes.length, this.firstLane + rows);
    for (let l = this.firstLane; l < last; l++) {
      const y = AXIS + (l - this.firstLane) * LANE + LANE / 2;
      ctx.fillStyle = this.colour(this.selected?.lane === l ? 'selected' : 'label');
      ctx.fillText(shortened(visibleText(lanes[l].name), 24), 6, y, LABELS - 10);
    }
    ctx.fillStyle = this.colour('grid');
    ctx.fillRect(LABELS - 1, 0, 1, height);
  }

  private report(bars: number, lanes: number, merged: number, firstTick?: number): void {
    const dataset = this.canvas.dataset;
    dataset.bars = String(bars);
    dataset.lanes = String(lanes);
    dataset.merged = String(merged);
    dataset.following = String(this.following);
    // The time range on screen and its first tick (ms since the epoch).
    if (this.data) {
      dataset.viewFrom = String(Math.round(this.data.origin + this.window.from));
      dataset.viewTo = String(Math.round(this.data.origin + this.window.to));
    }
    if (firstTick === undefined) delete dataset.firstTick;
    else dataset.firstTick = String(Math.round(firstTick));
  }

  private hoverText(gaps: { x0: number; x1: number }[]): string | undefined {
    const data = this.data!;
    const now = this.now();
    const s = this.strings;
    if (this.pointer) {
      const hit = this.hit(this.pointer.x, this.pointer.y);
      if (hit?.interval !== undefined) return intervalText(data, hit.interval, s, data.origin + now).join('\n');
      const x = this.pointer.x - LABELS;
      if (this.pointer.y < AXIS) {
        const near = anomaliesInView(this.anomalies, data.origin, this.window, this.plotWidth()).filter((a) => Math.abs(a.x - x) <= 6);
        return near.length ? near.map((a) => anomalyText(a.mark)).join('\n') : undefined;
      }
      if (this.pointer.y >= AXIS && gaps.some((g) => x >= g.x0 && x <= g.x1)) {
        const t = data.origin + this.window.from + (x / this.plotWidth()) * (this.window.to - this.window.from);
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
