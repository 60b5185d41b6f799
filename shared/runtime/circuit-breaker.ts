// A small circuit breaker: after `failureThreshold` consecutive failures it opens and
// refuses calls for `resetAfterMs`; then one trial call (half-open) decides whether it
// closes again or reopens for another period.

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  failureThreshold: number;
  resetAfterMs: number;
  /** Clock in milliseconds; injected by tests. */
  now?: () => number;
  /** Whether an error counts against the circuit (default: every error does). */
  isFailure?: (error: unknown) => boolean;
}

export class CircuitOpenError extends Error {
  override readonly name = 'CircuitOpenError';
  readonly status = 503;
  readonly retryAfterMs: number;

  constructor(retryAfterMs: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(`외부 서비스 오류가 이어져 요청을 잠시 멈췄습니다. ${seconds}초 후 다시 시도해 주세요.`);
    this.retryAfterMs = retryAfterMs;
  }
}

export class CircuitBreaker {
  readonly #failureThreshold: number;
  readonly #resetAfterMs: number;
  readonly #now: () => number;
  readonly #isFailure: (error: unknown) => boolean;

  #consecutiveFailures = 0;
  #openedAt: number | null = null;
  #trialInFlight = false;

  constructor(options: CircuitBreakerOptions) {
    if (!Number.isInteger(options.failureThreshold) || options.failureThreshold < 1) {
      throw new RangeError('failureThreshold must be a positive integer');
    }
    if (!Number.isFinite(options.resetAfterMs) || options.resetAfterMs < 0) {
      throw new RangeError('resetAfterMs must be a non-negative number');
    }
    this.#failureThreshold = options.failureThreshold;
    this.#resetAfterMs = options.resetAfterMs;
    this.#now = options.now ?? Date.now;
    this.#isFailure = options.isFailure ?? (() => true);
  }

  get state(): CircuitState {
    if (this.#openedAt === null) return 'closed';
    return this.#now() - this.#openedAt >= this.#resetAfterMs ? 'half-open' : 'open';
  }

  get consecutiveFailures(): number {
    return this.#consecutiveFailures;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const state = this.state;
    if (state === 'open') {
      throw new CircuitOpenError(this.#openedAt! + this.#resetAfterMs - this.#now());
    }
    // Half-open lets exactly one trial through; the rest wait for its verdict.
    if (state === 'half-open' && this.#trialInFlight) {
      throw new CircuitOpenError(this.#resetAfterMs);
    }
    const isTrial = state === 'half-open';
    if (isTrial) this.#trialInFlight = true;

    try {
      const result = await fn();
      this.#consecutiveFailures = 0;
      this.#openedAt = null;
      return result;
    } catch (error) {
      if (this.#isFailure(error)) {
        this.#consecutiveFailures += 1;
        if (isTrial || this.#consecutiveFailures >= this.#failureThreshold) {
          this.#openedAt = this.#now();
        }
      } else {
        // An error such as "not found" still proves the service answers.
        this.#consecutiveFailures = 0;
        this.#openedAt = null;
      }
      throw error;
    } finally {
      if (isTrial) this.#trialInFlight = false;
    }
  }

  /** Back to closed, forgetting failures (for an operator's manual restart). */
  reset(): void {
    this.#consecutiveFailures = 0;
    this.#openedAt = null;
  }
}
