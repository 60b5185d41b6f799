// How a retrying background loop logs a run of failures: the first one at `error` (a database that
// cannot be reached without its stack: the cause is known and the same every time), the rest at
// `debug`, and one line when it works again. An outage of minutes is then two lines per loop, not
// one a second.
import { databaseUnavailable } from '../db/database.ts';
import type { Logger } from './logger.ts';

export class FailureStreak {
  #failures = 0;

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  get failures(): number {
    return this.#failures;
  }

  failed(error: unknown, fields: Record<string, unknown> = {}): void {
    this.#failures++;
    const cause = databaseUnavailable(error) ? { reason: (error as Error).message } : { err: error };
    if (this.#failures === 1) this.logger.error({ ...fields, ...cause }, `${this.what} failed; retrying`);
    else this.logger.debug({ ...fields, ...cause, failures: this.#failures }, `${this.what} failed again; retrying`);
  }

  succeeded(): void {
    if (this.#failures === 0) return;
    this.logger.warn({ failures: this.#failures }, `${this.what} works again`);
    this.#failures = 0;
  }
}
