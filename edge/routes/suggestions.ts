// Suggestions, /api/schedules/suggestions (decisions.md "Suggestions"): completions from the
// analysis pool, popular searches of the last 7 days, saving a finished search, the user dictionary.
import { ErrorResponse, SuccessResponse } from '../../schemas/common.ts';
import { DictionaryBody, DictionaryResponse, PopularQuery, PopularResponse, SaveBody, SuggestionsQuery, SuggestionsResponse } from '../../schemas/suggestions.ts';
import { compile } from '../../schemas/validate.ts';
import { normalizeQuery } from '../../shared/korean/normalize.ts';
import { badRequest } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { reply, type Context } from '../context.ts';
import { intQuery } from '../params.ts';
import type { Route } from '../router.ts';

const saveBody = compile(SaveBody);
const dictionaryBody = compile(DictionaryBody);
/** Suggestions look at the first characters only: a 1,000-character paste is not an error. */
const MAX_TYPED = 100;
const POPULAR_WINDOW_DAYS = 7;
/** Distinct client addresses a query needs before it is listed as popular. */
const POPULAR_MIN_ADDRESSES = 2;

export function suggestionRoutes(s: Services): Route[] {
  async function suggestions(ctx: Context) {
    const typed = [...(ctx.query.get('q') ?? '')].slice(0, MAX_TYPED).join('');
    const limit = intQuery(ctx.query, 'limit', 10, 1, 50);
    if (typed.trim() === '') return reply({ suggestions: [] });
    return reply({ suggestions: await s.analysis.suggest(typed, limit) });
  }

  async function popular(ctx: Context) {
    const limit = intQuery(ctx.query, 'limit', 10, 1, 50);
    const queries = await s.db.any<{ query: string; count: number }>(
      // One row per address, query and day (save); a query saved from one address only is not popular.
      `SELECT query, count(*)::int AS count FROM saved_searches
        WHERE created_at > $1::timestamptz - $2 * interval '1 day'
        GROUP BY query HAVING count(DISTINCT coalesce(client, 'row:' || id)) >= $4
        ORDER BY count(*) DESC, max(created_at) DESC LIMIT $3`,
      [new Date(s.clock.now()), POPULAR_WINDOW_DAYS, limit, POPULAR_MIN_ADDRESSES],
    );
    return reply({ queries });
  }

  async function save(ctx: Context) {
    const body = await ctx.json();
    const raw = typeof body === 'object' && body !== null ? (body as { query?: unknown }).query : undefined;
    const query = typeof raw === 'string' ? normalizeQuery(raw) : raw;
    if (query === '' || query === undefined || query === null) throw badRequest('검색어가 비어 있습니다.');
    saveBody.parse({ query }); // over 100 characters, wrong type → 400
    // Counted once per client address, query and (UTC) day: a repeat is answered the same and adds nothing.
    const now = new Date(s.clock.now());
    const saved = await s.db.oneOrNone<{ id: number }>(
      `INSERT INTO saved_searches (query, created_at, client, saved_on) VALUES ($1, $2, $3, ($2::timestamptz AT TIME ZONE 'UTC')::date)
       ON CONFLICT (query, client, saved_on) DO NOTHING RETURNING id`,
      [query, now, ctx.ip],
    );
    if (saved) s.analysis.searchSaved(saved.id);
    return reply({ success: true });
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
    { method: 'get', path: '/api/schedules/suggestions', handler: suggestions, cacheControl: 'public, max-age=10', doc: { summary: 'Completions of what was typed (prefix, half-typed syllables, bigrams, initial consonants), ranked by popularity then recency; a query with a word one jamo off a known word gets its corrected form first', tags, query: SuggestionsQuery, responses: { 200: SuggestionsResponse, 400: ErrorResponse } } },
    { method: 'get', path: '/api/schedules/suggestions/popular', handler: popular, cacheControl: 'public, max-age=60', doc: { summary: 'Most saved searches of the last 7 days', description: 'Counts one save per client address, query and day; a query saved from a single address only is never listed.', tags, query: PopularQuery, responses: { 200: PopularResponse } } },
    { method: 'post', path: '/api/schedules/suggestions/save', handler: save, bodyLimit: 8 * 1024, doc: { summary: 'Record a finished search (the client calls it once per search; counted per normalised query)', description: 'Counted at most once per client address, query and UTC day; a repeat answers 200 and adds nothing.', tags, body: SaveBody, responses: { 200: SuccessResponse, 400: ErrorResponse } } },
    { method: 'get', path: '/api/schedules/suggestions/dict', handler: readDictionary, auth: 'admin', doc: { summary: 'The user dictionary', tags, responses: { 200: DictionaryResponse } } },
    { method: 'put', path: '/api/schedules/suggestions/dict', handler: writeDictionary, auth: 'admin', bodyLimit: 1_100_000, doc: { summary: 'Replace the user dictionary (validated line by line; used from the next query on)', tags, body: DictionaryBody, responses: { 200: SuccessResponse, 400: ErrorResponse } } },
  ];
}
