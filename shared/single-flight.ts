// One run per key at a time: a call while a run with the same key is in flight joins it and gets
// its result (or its failure) instead of starting a second one. Within one process only.

export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  /** The run in flight for `key`, or a new one of `work`; `joined` says which. */
  run(key: string, work: () => Promise<T>): { result: Promise<T>; joined: boolean } {
    const current = this.running.get(key);
    if (current) return { result: current, joined: true };
    const result = work().finally(() => this.running.delete(key));
    this.running.set(key, result);
    return { result, joined: false };
  }
}
