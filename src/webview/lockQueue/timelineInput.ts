// What the user does to the timeline: wheel or +/− zoom, drag or Shift+wheel (Shift+←/→) pans, the wheel scrolls
// the lanes, hover shows what is under the pointer, a click reveals a node. Keyboard: ↑/↓ choose a lane, ←/→ an
// interval on it, Home follows now, Enter reveals. Each is turned into a call on the view's controls.
import { panned, TimeWindow } from './timelineLayout';
import { LABELS, LANE } from './timelinePainter';

/** A move shorter than this (px) between press and release is a click, not a drag. */
const DRAG_PX = 2;

export interface TimelineControls {
  /** Whether there is a timeline to act on. */
  active(): boolean;
  /** Where the view stands now. */
  window(): TimeWindow;
  plotWidth(): number;
  /** `at`: where the zoom is centred, as a fraction of the plot's width. */
  zoom(factor: number, at: number): void;
  moveTo(window: TimeWindow): void;
  scrollLanes(by: number): void;
  /** The pointer is at (x, y) on the canvas, or gone. */
  hover(point: { x: number; y: number } | undefined): void;
  /** A click (not the end of a drag) at (x, y). */
  click(x: number, y: number): void;
  follow(): void;
  revealSelected(): void;
  /** The lane above (-1) or below (1) the selected one. */
  selectNextLane(dir: -1 | 1): void;
  /** The interval before or after the selected one on its lane; false when nothing is selected. */
  stepInterval(dir: -1 | 1): boolean;
}

export function listenToInput(canvas: HTMLCanvasElement, controls: TimelineControls): void {
  let drag: { x: number; window: TimeWindow } | undefined;
  canvas.addEventListener('wheel', (e) => onWheel(e, controls), { passive: false });
  canvas.addEventListener('pointermove', (e) => {
    if (drag && e.buttons === 1 && Math.abs(e.offsetX - drag.x) > DRAG_PX) {
      const ms = ((drag.x - e.offsetX) / controls.plotWidth()) * (drag.window.to - drag.window.from);
      controls.moveTo(panned(drag.window, ms));
      controls.hover(undefined);
      return;
    }
    controls.hover({ x: e.offsetX, y: e.offsetY });
  });
  canvas.addEventListener('pointerleave', () => {
    drag = undefined;
    controls.hover(undefined);
  });
  canvas.addEventListener('pointerdown', (e) => { drag = { x: e.offsetX, window: controls.window() }; });
  canvas.addEventListener('pointerup', (e) => {
    const dragged = drag && Math.abs(e.offsetX - drag.x) > DRAG_PX;
    drag = undefined;
    if (!dragged) controls.click(e.offsetX, e.offsetY);
  });
  canvas.addEventListener('keydown', (e) => {
    if (controls.active() && onKey(e, controls)) e.preventDefault();
  });
}

function onWheel(e: WheelEvent, controls: TimelineControls): void {
  if (!controls.active()) return;
  e.preventDefault();
  const width = controls.plotWidth();
  const at = Math.min(1, Math.max(0, (e.offsetX - LABELS) / width));
  if (e.ctrlKey || e.metaKey) controls.zoom(e.deltaY > 0 ? 1.25 : 0.8, at);
  else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
    const delta = e.shiftKey ? e.deltaY || e.deltaX : e.deltaX;
    const window = controls.window();
    controls.moveTo(panned(window, (delta / width) * (window.to - window.from)));
  } else controls.scrollLanes(Math.sign(e.deltaY) * Math.max(1, Math.round(Math.abs(e.deltaY) / LANE)));
}

/** Whether the key was one of the timeline's. */
function onKey(e: KeyboardEvent, controls: TimelineControls): boolean {
  switch (e.key) {
    case '+': case '=': controls.zoom(0.5, 0.5); return true;
    case '-': case '_': controls.zoom(2, 0.5); return true;
    case 'Home': controls.follow(); return true;
    case 'Enter': controls.revealSelected(); return true;
    case 'ArrowUp': case 'ArrowDown': controls.selectNextLane(e.key === 'ArrowUp' ? -1 : 1); return true;
    case 'ArrowLeft': case 'ArrowRight': {
      const dir = e.key === 'ArrowLeft' ? -1 : 1;
      if (e.shiftKey || !controls.stepInterval(dir)) {
        const window = controls.window();
        controls.moveTo(panned(window, dir * (window.to - window.from) * 0.2));
      }
      return true;
    }
    default: return false;
  }
}
