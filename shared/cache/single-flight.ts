// One piece of work per key at a time: callers that ask while it runs wait for the same result
// instead of each doing it. A caller joins only work started at the same `version` (a cache version
// read before the work began), so a caller that came after a write never gets a result from before it.
export class SingleFlight<T> {
  readonly #running = new Map<number, { version: number; result: Promise<T> }>();

  run(key: number, version: number, work: () => Promise<T>): Promise<T> {
    const current = this.#running.get(key);
    if (current && current.version === version) return current.result;
    const entry = { version, result: work() };
    this.#running.set(key, entry);
    entry.result.then(
      () => this.#forget(key, entry),
      () => this.#forget(key, entry),
    );
    return entry.result;
  }

  #forget(key: number, entry: { version: number; result: Promise<T> }): void {
    if (this.#running.get(key) === entry) this.#running.delete(key);
  }
}
