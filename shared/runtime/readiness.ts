// What `/readyz` asks before it says this replica wants traffic (Kubernetes readiness, not liveness):
// each part of the service that traffic depends on adds a named check (the database; the bus for
// the roles that consume it). A check that throws, answers false or is slower than the probe's
// budget counts as failing.

export type ReadinessCheck = () => Promise<boolean> | boolean;

export interface ReadinessResult {
  ready: boolean;
  /** Names of the failing checks. */
  failing: string[];
}

export class Readiness {
  readonly #checks = new Map<string, ReadinessCheck>();

  constructor(
    /** Longest a check may take before it counts as failing. */
    readonly timeoutMs = 1500,
  ) {}

  /** Adds (or replaces) the check of that name. */
  add(name: string, check: ReadinessCheck): void {
    this.#checks.set(name, check);
  }

  remove(name: string): void {
    this.#checks.delete(name);
  }

  names(): string[] {
    return [...this.#checks.keys()];
  }

  /** Runs every check at once, each bounded by timeoutMs. */
  async check(): Promise<ReadinessResult> {
    const entries = [...this.#checks];
    const results = await Promise.all(entries.map(([, check]) => this.#bounded(check)));
    const failing = entries.filter((_, i) => !results[i]).map(([name]) => name);
    return { ready: failing.length === 0, failing };
  }

  async #bounded(check: ReadinessCheck): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.timeoutMs);
    });
    try {
      return await Promise.race([Promise.resolve().then(check).then((ok) => ok === true, () => false), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
