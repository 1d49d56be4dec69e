// Painting the timeline on its <canvas>: one frame from a scene (what timelineLayout.ts chose to show, and where the
// view stands), in layers from the bottom: the time axis, gaps as shaded bands with dashed edges (never filled in),
// waits and holds as bars (bounds faint), hand-overs as links, session losses as crosses, "now", the selection,
// anomalies as triangles on the axis; then the lane labels. Colours come from the theme (var(--vscode-…)).
import type { AnomalyMark, WebviewStrings } from '../../shared/lockQueueMessages';
import type { TimelineData } from '../../shared/lockHistory';
import { shortened, visibleText } from '../../shared/visibleText';
import { anomaliesInView, Frame, isExact, Lanes, TimeWindow } from './timelineLayout';
import { clockTime } from './timelineText';

/** Heights and widths of the drawing (px): the axis above, a lane, the labels on the left. */
export const AXIS = 22;
export const LANE = 20;
export const LABELS = 170;

const COLOURS = ['hold', 'wait', 'gap', 'lost', 'axis', 'grid', 'handover', 'label', 'now', 'selected', 'info'] as const;
const SEVERITY_COLOUR = { error: 'lost', warning: 'gap', info: 'info' } as const;
type Colour = typeof COLOURS[number];
type Colours = Record<Colour, string>;

/** What one frame shows. */
export interface Scene {
  data: TimelineData;
  lanes: Lanes;
  frame: Frame;
  window: TimeWindow;
  firstLane: number;
  /** Lane rows that fit. */
  rows: number;
  /** Width of the plot (right of the labels) and height of the canvas (px). */
  plot: number;
  height: number;
  /** ms after the origin. */
  now: number;
  live: boolean;
  selected?: { lane: number; interval?: number };
  anomalies: readonly AnomalyMark[];
}

/** Sizes the canvas to its box at the screen's pixel ratio and clears it; undefined without a 2-D context. */
export function startFrame(canvas: HTMLCanvasElement, themed: HTMLElement): { ctx: CanvasRenderingContext2D; colours: Colours } | undefined {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return undefined;
  const colours = themeColours(themed);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.font = `12px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  ctx.textBaseline = 'middle';
  return { ctx, colours };
}

/** A frame with nothing recorded yet. */
export function paintEmpty(ctx: CanvasRenderingContext2D, colours: Colours, strings: WebviewStrings): void {
  ctx.fillStyle = colours.axis;
  ctx.fillText(visibleText(strings.noHistory), 8, AXIS + LANE / 2);
}

/** Paints the scene; returns the axis's first tick (ms since the epoch), if any. */
export function paintScene(ctx: CanvasRenderingContext2D, colours: Colours, scene: Scene): number | undefined {
  const laneY = (lane: number) => AXIS + (lane - scene.firstLane) * LANE;
  const paint: Painting = { ctx, colours, scene, laneY };
  ctx.save();
  ctx.beginPath();
  ctx.rect(LABELS, 0, scene.plot, scene.height);
  ctx.clip();
  ctx.translate(LABELS, 0);
  const firstTick = paintAxis(paint);
  paintGaps(paint);
  paintBars(paint);
  paintHandOvers(paint);
  paintSessionLosses(paint);
  if (scene.live) paintNow(paint);
  paintSelection(paint);
  paintAnomalies(paint);
  ctx.restore();
  paintLabels(paint);
  return firstTick;
}

interface Painting {
  ctx: CanvasRenderingContext2D;
  colours: Colours;
  scene: Scene;
  /** Top of a lane's row (px). */
  laneY: (lane: number) => number;
}

/** Theme colours (var(--vscode-…)), read through the style sheet's --tl-* properties. */
function themeColours(element: HTMLElement): Colours {
  const style = getComputedStyle(element);
  const fallback = style.color;
  return Object.fromEntries(COLOURS.map((c) => [c, style.getPropertyValue(`--tl-${c}`).trim() || fallback])) as Colours;
}

/** The time axis and its grid; returns its first tick (ms since the epoch), if any. */
function paintAxis({ ctx, colours, scene }: Painting): number | undefined {
  const { window, plot, height } = scene;
  const origin = scene.data.origin;
  const span = window.to - window.from;
  const target = span / Math.max(1, plot / 110);
  const power = 10 ** Math.floor(Math.log10(Math.max(1, target)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= target) ?? 10 * power;
  ctx.fillStyle = colours.grid;
  // Ticks on round times of the clock (whole seconds, tens of seconds…), not on the origin's odd milliseconds.
  const first = Math.ceil((origin + window.from) / step) * step - origin;
  for (let t = first; t <= window.to; t += step) {
    const x = ((t - window.from) / span) * plot;
    ctx.fillStyle = colours.grid;
    ctx.fillRect(x, AXIS - 4, 1, height - AXIS + 4);
    ctx.fillStyle = colours.axis;
    const text = clockTime(origin + t);
    ctx.fillText(step >= 1000 ? text.slice(0, -4) : text, x + 3, AXIS / 2);
  }
  return first <= window.to ? origin + first : undefined;
}

/** Gaps first, under the bars: a shaded band over the lanes it concerns, dashed edges across the plot, so it never reads as quiet. */
function paintGaps({ ctx, colours, scene, laneY }: Painting): void {
  const { lanes, firstLane, rows, height } = scene;
  for (const gap of scene.frame.gaps) {
    ctx.fillStyle = colours.gap;
    ctx.globalAlpha = 0.18;
    for (let l = firstLane; l < Math.min(lanes.lanes.length, firstLane + rows); l++) {
      if (gap.lock === undefined || lanes.lanes[l].lock === gap.lock) ctx.fillRect(gap.x0, laneY(l), Math.max(1, gap.x1 - gap.x0), LANE);
    }
    ctx.globalAlpha = 1;
    ctx.strokeStyle = colours.gap;
    ctx.setLineDash([3, 3]);
    ctx.strokeRect(gap.x0, AXIS, Math.max(1, gap.x1 - gap.x0), height - AXIS);
    ctx.setLineDash([]);
  }
}

/** Waits (thin) and holds (thick); exact ones solid, bounds faint. */
function paintBars({ ctx, colours, scene, laneY }: Painting): void {
  const { data, frame } = scene;
  for (const kind of [0, 1] as const) {
    for (const exact of [true, false]) {
      ctx.fillStyle = kind === 1 ? colours.hold : colours.wait;
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
}

/** A link from each released hold's end to the next hold. */
function paintHandOvers({ ctx, colours, scene, laneY }: Painting): void {
  ctx.strokeStyle = colours.handover;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (const h of scene.frame.handOvers) {
    ctx.moveTo(h.x0, laneY(h.fromLane) + LANE / 2);
    ctx.lineTo(h.x1, laneY(h.toLane) + LANE / 2);
  }
  ctx.stroke();
}

/** A cross where a session was lost. */
function paintSessionLosses({ ctx, colours, scene, laneY }: Painting): void {
  ctx.strokeStyle = colours.lost;
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (const m of scene.frame.marks) {
    const y = laneY(m.lane) + LANE / 2;
    ctx.moveTo(m.x - 4, y - 4); ctx.lineTo(m.x + 4, y + 4);
    ctx.moveTo(m.x + 4, y - 4); ctx.lineTo(m.x - 4, y + 4);
  }
  ctx.stroke();
  ctx.lineWidth = 1;
}

function paintNow({ ctx, colours, scene }: Painting): void {
  const { window, plot, height } = scene;
  const x = ((scene.now - window.from) / (window.to - window.from)) * plot;
  ctx.fillStyle = colours.now;
  ctx.fillRect(x, AXIS, 1, height - AXIS);
}

function paintSelection({ ctx, colours, scene, laneY }: Painting): void {
  const chosen = scene.selected?.interval;
  if (chosen === undefined) return;
  const bar = scene.frame.bars.find((b) => b.interval === chosen);
  if (!bar) return;
  ctx.strokeStyle = colours.selected;
  ctx.strokeRect(bar.x0 - 1, laneY(bar.lane) + 1, Math.max(1, bar.x1 - bar.x0) + 2, LANE - 2);
}

/** Anomalies as they appeared: a triangle on the axis, in the colour of their severity. */
function paintAnomalies({ ctx, colours, scene }: Painting): void {
  for (const { x, mark } of anomaliesInView(scene.anomalies, scene.data.origin, scene.window, scene.plot)) {
    ctx.fillStyle = colours[SEVERITY_COLOUR[mark.severity]];
    ctx.beginPath();
    ctx.moveTo(x - 5, AXIS - 8);
    ctx.lineTo(x + 5, AXIS - 8);
    ctx.lineTo(x, AXIS);
    ctx.fill();
  }
}

/** The lanes' names on the left (untrusted text, through visibleText), the selected one marked. */
function paintLabels({ ctx, colours, scene }: Painting): void {
  const { lanes, firstLane, rows, height, selected } = scene;
  ctx.fillStyle = colours.label;
  const last = Math.min(lanes.lanes.length, firstLane + rows);
  for (let l = firstLane; l < last; l++) {
    const y = AXIS + (l - firstLane) * LANE + LANE / 2;
    ctx.fillStyle = selected?.lane === l ? colours.selected : colours.label;
    ctx.fillText(shortened(visibleText(lanes.lanes[l].name), 24), 6, y, LABELS - 10);
  }
  ctx.fillStyle = colours.grid;
  ctx.fillRect(LABELS - 1, 0, 1, height);
}
