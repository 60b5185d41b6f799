// One run per key at a time: a call while a run with the same key is in flight joins it and gets
// its result (or its failure) instead of starting a second one. With a `version` (a cache version
// read before the work began), a call joins only a run of the same version, so a caller that came
// after a write never gets a result from before it. Within one process only.
export class SingleFlight<T> {
  readonly #running = new Map<string | number, { version: number; result: Promise<T> }>();

  /**
   * The run in flight for `key` (at `version`), or a new one of `work`; `joined` says which. `work`
   * is called at once: when it throws before returning its promise, nothing is registered and the
   * error reaches this caller alone (a charge refused, say).
   */
  run(key: string | number, work: () => Promise<T>, version = 0): { result: Promise<T>; joined: boolean } {
    const current = this.#running.get(key);
    if (current && current.version === version) return { result: current.result, joined: true };
    const entry = { version, result: work() };
    this.#running.set(key, entry);
    const forget = () => {
      if (this.#running.get(key) === entry) this.#running.delete(key);
    };
    entry.result.then(forget, forget);
    return { result: entry.result, joined: false };
  }
}
