// Watches held by key until released. Arming a watch is asynchronous: a release that comes before the server
// answered still stops the watch once it is armed, and a failed arm frees its key so the next hold tries again.
export type StopWatching = () => void;

export class HeldWatches {
  private readonly held = new Map<string, Promise<StopWatching | undefined>>();

  /** Arms a watch under `key` with `arm` unless one is held already; resolves once it is armed (or failed). */
  async hold(key: string, arm: () => Promise<StopWatching>, onError: (error: unknown) => void = () => undefined): Promise<void> {
    const existing = this.held.get(key);
    if (existing) {
      await existing;
      return;
    }
    const armed = arm().catch((error: unknown) => {
      if (this.held.get(key) === armed) this.held.delete(key);
      onError(error);
      return undefined;
    });
    this.held.set(key, armed);
    await armed;
  }

  has(key: string): boolean {
    return this.held.has(key);
  }

  keys(): string[] {
    return [...this.held.keys()];
  }

  release(key: string): void {
    const armed = this.held.get(key);
    this.held.delete(key);
    void armed?.then((stop) => stop?.());
  }

  /** Releases every key `matches` accepts (all of them without a filter). */
  releaseAll(matches: (key: string) => boolean = () => true): void {
    for (const key of this.keys()) if (matches(key)) this.release(key);
  }
}
