// The budget of uncached search, suggestion and calendar feed work per client (docs/security.md,
// "Search and suggestions", "Calendar feeds"): a token bucket per client key (client-key.ts) holding
// `burst` requests, refilled at `perSecond`. A request answered from a cache costs nothing; a feed
// build costs more than a search. Sized so that a person typing (a
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

  /**
   * Takes `cost` requests' worth for `client` (at most the whole burst), or throws 429 with the
   * seconds until that much is back.
   */
  take(client: string, cost = 1, message = '검색 요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.'): void {
    const now = this.now();
    const bucket = this.#buckets.get(client);
    const tokens = bucket ? Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond) : this.burst;
    const price = Math.min(cost, this.burst);
    if (tokens < price) {
      const retryAfter = Math.max(1, Math.ceil((price - tokens) / this.perSecond));
      throw new HttpError(429, message, { 'Retry-After': String(retryAfter) });
    }
    // Re-inserted: the map's order is the order clients were last seen.
    this.#buckets.delete(client);
    this.#buckets.set(client, { tokens: tokens - price, at: now });
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
