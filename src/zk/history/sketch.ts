// A mergeable sketch of durations: counts in buckets that grow by 2% each, so any percentile read from it is within
// 2% of a recorded value, whatever the number of values (a few hundred buckets cover 1 ms to days). Used for
// intervals summarised away from memory, so their figures stay counted instead of being dropped.
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);

export interface SketchData {
  count: number;
  max: number;
  /** Bucket index → count; bucket 0 holds durations under 1 ms. */
  buckets: Record<string, number>;
}

export class DurationSketch {
  count = 0;
  max = 0;
  private readonly buckets = new Map<number, number>();

  add(ms: number): void {
    const value = Math.max(0, ms);
    const index = value < 1 ? 0 : 1 + Math.floor(Math.log(value) / LOG_GROWTH);
    this.buckets.set(index, (this.buckets.get(index) ?? 0) + 1);
    this.count++;
    if (value > this.max) this.max = value;
  }

  merge(other: DurationSketch): void {
    for (const [index, n] of other.buckets) this.buckets.set(index, (this.buckets.get(index) ?? 0) + n);
    this.count += other.count;
    this.max = Math.max(this.max, other.max);
  }

  /** The q-quantile (0..1), within 2%; undefined when empty. */
  quantile(q: number): number | undefined {
    if (this.count === 0) return undefined;
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (const index of [...this.buckets.keys()].sort((a, b) => a - b)) {
      seen += this.buckets.get(index) ?? 0;
      if (seen >= rank) return index === 0 ? 0 : Math.min(this.max, Math.pow(GROWTH, index - 0.5));
    }
    return this.max;
  }

  toJSON(): SketchData {
    return { count: this.count, max: this.max, buckets: Object.fromEntries(this.buckets) };
  }

  static from(data: SketchData): DurationSketch {
    const sketch = new DurationSketch();
    sketch.count = data.count;
    sketch.max = data.max;
    for (const [index, n] of Object.entries(data.buckets)) sketch.buckets.set(Number(index), n);
    return sketch;
  }
}
