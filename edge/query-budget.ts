// The budget of uncached search and suggestion work per client (docs/security.md, "Search and
// suggestions"): a token bucket per client key (client-key.ts) holding `burst` requests, refilled
// at `perSecond`. A request answered from a cache costs nothing. Sized so that a person typing (a
// suggestion a keystroke) or paging through results never meets it; one address sending queries
// back to back gets 429 with Retry-After instead of a share of the analysis pool and PostgreSQL.
import { HttpError } from '../shared/errors.ts';

/** Clients tracked at once; past it the least recently seen are forgotten (their buckets start full again). */
const MAX_CLIENTS = 100_000;

export class QueryBudget {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {}

  /** Takes one request's worth for `client`, or throws 429 with the seconds until one is back. */
  take(client: string): void {
    const now = this.now();
    const bucket = this.#buckets.get(client);
    const tokens = bucket ? Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond) : this.burst;
    if (tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - tokens) / this.perSecond));
      throw new HttpError(429, '검색 요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.', { 'Retry-After': String(retryAfter) });
    }
    // Re-inserted: the map's order is the order clients were last seen.
    this.#buckets.delete(client);
    this.#buckets.set(client, { tokens: tokens - 1, at: now });
    if (this.#buckets.size > MAX_CLIENTS) this.#buckets.delete(this.#buckets.keys().next().value!);
  }
}

const budgets = new WeakMap<object, QueryBudget>();

/** The one budget of a running service (search and suggestions share it). */
export function queryBudgetOf(owner: object, create: () => QueryBudget): QueryBudget {
  let budget = budgets.get(owner);
  if (!budget) budgets.set(owner, (budget = create()));
  return budget;
}
