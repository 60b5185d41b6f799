// Suggestions, /api/schedules/suggestions (decisions.md "Suggestions"): completions from the
// analysis pool, popular searches of the last 7 days, saving a finished search, the user dictionary.
// Saved searches are bounded and cannot buy a suggestion (docs/security.md, "Saved searches"): a
// daily count per address, a query listed only once saved from SUGGEST_MIN_NETWORKS networks,
// and queries an administrator blocked for good.
import { ErrorResponse, SuccessResponse } from '../../schemas/common.ts';
import {
  BlockedQuery, BlockedResponse, BlockQuery, BlockResponse, DictionaryBody, DictionaryResponse, PopularQuery, PopularResponse, SaveBody, SuggestionsQuery, SuggestionsResponse,
} from '../../schemas/suggestions.ts';
import { compile } from '../../schemas/validate.ts';
import { blockedSearches, blockSearch, popularSearches, SAVED_IN_INDEX, saveSearch } from '../../shared/db/repositories/saved-searches.ts';
import { normalizeQuery } from '../../shared/korean/normalize.ts';
import { badRequest, HttpError } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { clientKey, clientNetwork } from '../client-key.ts';
import { reply, type Context } from '../context.ts';
import { intQuery } from '../params.ts';
import { QueryBudget, queryBudgetOf } from '../query-budget.ts';
import type { Route } from '../router.ts';

const saveBody = compile(SaveBody);
const dictionaryBody = compile(DictionaryBody);
/** Suggestions look at the first characters only: a 1,000-character paste is not an error. */
const MAX_TYPED = 100;
const POPULAR_WINDOW_DAYS = 7;

/** The budget of uncached search and suggestion work of this service (search uses the same one). */
export const queryBudget = (s: Services) => queryBudgetOf(s, () => new QueryBudget(s.config.queryBudget.burst, s.config.queryBudget.perSecond, () => s.clock.now()));

/** A saved or blocked query as stored: normalised; empty, too long or not a string is 400. */
function savedQuery(raw: unknown): string {
  const query = typeof raw === 'string' ? normalizeQuery(raw) : raw;
  if (query === '' || query === undefined || query === null) throw badRequest('검색어가 비어 있습니다.');
  saveBody.parse({ query }); // over 100 characters, wrong type → 400
  return query as string;
}

export function suggestionRoutes(s: Services): Route[] {
  const budget = queryBudget(s);
  const rules = s.config.savedSearches;

  async function suggestions(ctx: Context) {
    const typed = [...(ctx.query.get('q') ?? '')].slice(0, MAX_TYPED).join('');
    const limit = intQuery(ctx.query, 'limit', 10, 1, 50);
    if (typed.trim() === '') return reply({ suggestions: [] });
    const cached = s.analysis.cachedSuggestions(typed, limit);
    if (cached) return reply({ suggestions: cached });
    budget.take(clientKey(ctx.ip));
    return reply({ suggestions: await s.analysis.suggest(typed, limit) });
  }

  async function popular(ctx: Context) {
    const limit = intQuery(ctx.query, 'limit', 10, 1, 50);
    // One row per address, query and day (save); a query saved from fewer addresses is not popular.
    return reply({ queries: await popularSearches(s.db, new Date(s.clock.now()), POPULAR_WINDOW_DAYS, rules.minNetworks, limit) });
  }

  async function save(ctx: Context) {
    const body = await ctx.json();
    const query = savedQuery(typeof body === 'object' && body !== null ? (body as { query?: unknown }).query : undefined);
    // Counted once per client address (an IPv6 client's /64), query and UTC day: a repeat, or a
    // blocked query, is answered the same and adds nothing.
    const outcome = await saveSearch(s.db, query, clientKey(ctx.ip), clientNetwork(ctx.ip), new Date(s.clock.now()), rules.limitPerDay);
    if (outcome.saved) s.analysis.searchSaved(outcome.id);
    else if (outcome.reason === 'limited') {
      throw new HttpError(429, `하루에 저장할 수 있는 검색어는 ${rules.limitPerDay}개까지입니다.`, { 'Retry-After': String(outcome.retryAfterS) });
    }
    return reply({ success: true });
  }

  async function block(ctx: Context) {
    const query = savedQuery(ctx.query.get('query') ?? undefined);
    const outcome = await blockSearch(s.db, query);
    s.analysis.searchBlocked(outcome.blockedAt.getTime());
    s.logger.info({ removed: outcome.removed, blocked: outcome.blocked }, 'search query blocked');
    return reply({ query, blocked: outcome.blocked, removed: outcome.removed });
  }

  async function blocked(ctx: Context) {
    const limit = intQuery(ctx.query, 'limit', 100, 1, 500);
    const offset = intQuery(ctx.query, 'offset', 0, 0, 1_000_000);
    const rows = await blockedSearches(s.db, limit, offset);
    return reply({ queries: rows.map((row) => ({ query: row.query, blockedAt: row.blockedAt.toISOString() })) });
  }

  async function readDictionary() {
    return reply(await s.db.one<{ content: string }>('SELECT content FROM user_dictionary WHERE id = 1'));
  }

  async function writeDictionary(ctx: Context) {
    const { content } = dictionaryBody.parse(await ctx.json());
    const parsed = await s.analysis.parseDictionary(content);
    const first = parsed.errors[0];
    if (first) throw badRequest(`사전 ${first.line}번째 줄이 올바르지 않습니다: ${first.message}${parsed.errors.length > 1 ? ` (외 ${parsed.errors.length - 1}개 줄)` : ''}`);
    const { updated_at } = await s.db.one<{ updated_at: Date }>(
      'UPDATE user_dictionary SET content = $1, updated_at = clock_timestamp() WHERE id = 1 RETURNING updated_at',
      [content],
    );
    s.analysis.dictionaryChanged(updated_at.getTime());
    await s.onDictionaryChanged?.(content);
    return reply({ success: true, entries: parsed.entries.length });
  }

  const tags = ['suggestions'];
  return [
    { method: 'get', path: '/api/schedules/suggestions', handler: suggestions, cacheControl: 'public, max-age=10', doc: { summary: 'Completions of what was typed (prefix, half-typed syllables, bigrams, initial consonants), ranked by popularity then recency; a query with a word one jamo off a known word gets its corrected form first', description: `A saved search is a candidate only once saved from SUGGEST_MIN_NETWORKS (default 3) distinct networks (IPv4 /24, IPv6 /48) within SAVED_SEARCH_RETENTION_DAYS (default 30); the ${SAVED_IN_INDEX} most saved are held. An answer not served from the 5-second cache of identical requests counts against the client's query budget (QUERY_BUDGET_BURST requests, refilled at QUERY_BUDGET_PER_SECOND, shared with search): past it 429 with Retry-After.`, tags, query: SuggestionsQuery, responses: { 200: SuggestionsResponse, 400: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse } } },
    { method: 'get', path: '/api/schedules/suggestions/popular', handler: popular, cacheControl: 'public, max-age=60', doc: { summary: 'Most saved searches of the last 7 days', description: 'Counts one save per client address (an IPv6 client: its /64), query and day; a query saved from fewer than SUGGEST_MIN_NETWORKS (default 3) distinct networks (IPv4 /24, IPv6 /48), or blocked by an administrator, is never listed.', tags, query: PopularQuery, responses: { 200: PopularResponse } } },
    { method: 'post', path: '/api/schedules/suggestions/save', handler: save, bodyLimit: 8 * 1024, doc: { summary: 'Record a finished search (the client calls it once per search; counted per normalised query)', description: 'Counted at most once per client address (an IPv6 client: its /64), query and UTC day; a repeat, or a query an administrator blocked, answers 200 and adds nothing. At most SAVED_SEARCH_LIMIT_PER_DAY (default 50) distinct queries per address and UTC day: past it 429 with Retry-After (seconds to the next UTC day). Saves are kept SAVED_SEARCH_RETENTION_DAYS (default 30).', tags, body: SaveBody, responses: { 200: SuccessResponse, 400: ErrorResponse, 429: ErrorResponse } } },
    { method: 'delete', path: '/api/schedules/suggestions/popular', handler: block, auth: 'admin', doc: { summary: 'Take a query out of popular searches and suggestions for good', description: 'Deletes its saved rows and ignores later saves of every text that normalises to the same query (NFKC; invisible, bidi, format and control characters removed; whitespace and the blank braille cell collapsed to one space; Latin case folded; look-alike letters of other scripts read as the letters they imitate, by the Unicode confusable skeleton); every analysis thread drops it before its next answer. Idempotent: a second call answers `blocked: false`.', tags, query: BlockQuery, responses: { 200: BlockResponse, 400: ErrorResponse } } },
    { method: 'get', path: '/api/schedules/suggestions/blocked', handler: blocked, auth: 'admin', doc: { summary: 'Queries taken out by an administrator, newest first', tags, query: BlockedQuery, responses: { 200: BlockedResponse } } },
    { method: 'get', path: '/api/schedules/suggestions/dict', handler: readDictionary, auth: 'admin', doc: { summary: 'The user dictionary', tags, responses: { 200: DictionaryResponse } } },
    { method: 'put', path: '/api/schedules/suggestions/dict', handler: writeDictionary, auth: 'admin', bodyLimit: 1_100_000, doc: { summary: 'Replace the user dictionary (validated line by line; used from the next query on)', tags, body: DictionaryBody, responses: { 200: SuccessResponse, 400: ErrorResponse } } },
  ];
}
