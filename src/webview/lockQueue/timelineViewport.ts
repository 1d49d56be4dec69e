// Where the timeline's view stands in time, and how it moves. The first view is the recorded window
// (recordedWindow), growing with it while live, until the user zooms or pans; while live it follows "now" until the
// user looks back (the view's end moves earlier), and reaching now again, or Follow Now, resumes.
import type { TimelineData } from '../../shared/lockHistory';
import { panned, recordedWindow, TimeWindow, zoomed } from './timelineLayout';

export class TimelineViewport {
  window: TimeWindow = { from: 0, to: 60_000 };
  /** The view is the recorded window (until the user zooms or pans). */
  private fitting = true;
  following = true;
  live = false;
  private origin: number | undefined;
  /** The host's clock at the last data (ms since the epoch), and when it arrived here. */
  private hostNow = 0;
  private receivedAt = 0;

  /** `moved`: the user (or a selection) moved the view, which may have stopped or resumed following. */
  constructor(private readonly moved: () => void) {}

  /** New data (`previous`: the data before it, if any); `now` is the host's clock when it was taken. */
  received(data: TimelineData, previous: TimelineData | undefined, live: boolean, now: number): void {
    this.origin = data.origin;
    this.live = live;
    this.hostNow = now;
    this.receivedAt = performance.now();
    if (!previous) {
      this.fitting = true;
      this.following = live;
    } else if (previous.origin !== data.origin) {
      // The window is kept after the origin: the same moments when the origin moves (a node found from earlier).
      this.window = panned(this.window, previous.origin - data.origin);
    }
    this.place(data);
  }

  /** ms after the origin that "now" is: the host's clock moved on by the time since, or the data's end in a replay. */
  now(): number {
    if (this.origin === undefined) return 0;
    return this.hostNow - this.origin + (this.live ? performance.now() - this.receivedAt : 0);
  }

  /** The recorded window while fitting, the latest moments while following live; else where the user put it. */
  place(data: TimelineData | undefined): void {
    if (!data) return;
    const now = this.now();
    if (this.fitting) this.window = recordedWindow(data, now, this.live);
    else if (this.following && this.live) {
      const span = this.window.to - this.window.from;
      this.window = { from: now + span * 0.02 - span, to: now + span * 0.02 };
    }
  }

  /** Where the view stands, ms since the epoch. */
  get visible(): { from: number; to: number } | undefined {
    if (this.origin === undefined) return undefined;
    return { from: Math.round(this.origin + Math.max(0, this.window.from)), to: Math.round(this.origin + Math.max(0, this.window.to)) };
  }

  follow(): void {
    this.following = true;
  }

  moveTo(window: TimeWindow, keepFollowing = false): void {
    const before = this.window;
    this.window = window;
    this.fitting = false;
    // Looking back (the view's end moves earlier) stops following; reaching now again resumes.
    const now = this.now();
    this.following = this.live && (keepFollowing || (window.to >= now && window.to >= before.to));
    this.moved();
  }

  /** `at`: where the zoom is centred, as a fraction of the view's width. */
  zoom(factor: number, at: number): void {
    // Zooming while following stays with now: the window only catches up with the clock when it is drawn, so on a
    // slow machine it may already end before now (run S6).
    this.moveTo(zoomed(this.window, factor, this.following ? 1 : at), this.following);
  }
}
