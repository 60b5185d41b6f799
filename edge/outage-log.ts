// A database outage in the log: one warning when requests start failing because the database
// cannot be reached, and one line when it answers again with how many requests were refused in
// between, instead of a warning with a stack per 503 (three retrying clients wrote 43,455 lines in
// 2.5 minutes). Refusals are also counted in a metric (`http_database_unavailable_total`).
import type { Logger } from '../shared/runtime/logger.ts';

/** How often the database is asked whether it is back, while it is away. */
const PROBE_EVERY_MS = 1_000;

export class OutageLog {
  #since: number | null = null;
  #refused = 0;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly logger: Logger,
    /** True when the database answers (the readiness check's query). */
    private readonly probe: () => Promise<boolean>,
    private readonly count: () => void = () => undefined,
  ) {}

  /** A request answered 503 because the database could not be reached. */
  refused(route: string | undefined, error: unknown): void {
    this.count();
    this.#refused++;
    if (this.#since !== null) return;
    this.#since = Date.now();
    this.logger.warn({ route, reason: error instanceof Error ? error.message : String(error) }, 'database unavailable: answering 503 until it is back');
    this.#schedule();
  }

  get inOutage(): boolean {
    return this.#since !== null;
  }

  #schedule(): void {
    this.#timer = setTimeout(async () => {
      const back = await this.probe().catch(() => false);
      if (this.#since === null) return;
      if (!back) return this.#schedule();
      this.logger.warn({ refused: this.#refused, seconds: Math.round((Date.now() - this.#since) / 1000) }, 'database available again');
      this.#since = null;
      this.#refused = 0;
      this.#timer = null;
    }, PROBE_EVERY_MS);
    this.#timer.unref();
  }

  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
