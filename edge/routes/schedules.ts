// Schedules, /api/schedules (api-service.md 4.4): the monthly listing with birthdays served from the
// per-process cache, search, detail, delete and the index rebuild; categories.
import { Type } from '@sinclair/typebox';
import { ErrorResponse, SuccessResponse } from '../../schemas/common.ts';
import { CategoryListItem, MonthlyListing, ScheduleDetail, ScheduleItemId, ScheduleListQuery, SearchResults, SyncSearchResponse } from '../../schemas/schedules.ts';
import { scheduleDetail, schedulesByIds } from '../../shared/db/repositories/schedules.ts';
import { birthdayDetail, categoriesLoader, monthSchedules, type CategoryRow } from '../../shared/schedules/calendar.ts';
import { badRequest, notFound } from '../../shared/errors.ts';
import { deleteSchedule } from '../../shared/schedules/schedule-writes.ts';
import { compressVariants, strongEtag } from '../../shared/cache/compression.ts';
import { rebuildSearchIndex } from '../../shared/search/sync.ts';
import type { Services } from '../../shared/services.ts';
import { clientKey } from '../client-key.ts';
import { reply, type Context, type Reply } from '../context.ts';
import { intQuery, parseId } from '../params.ts';
import type { Route } from '../router.ts';
import { SingleFlight } from '../../shared/runtime/single-flight.ts';
import type { CachedMonth } from '../../shared/cache/monthly-cache.ts';
import { queryBudget } from './suggestions.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const PUBLIC_CACHE = 'public, max-age=10, s-maxage=30, stale-while-revalidate=30';
const SEARCH_MAX_LENGTH = 200;

const seoulYearMonth = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul', year: 'numeric', month: '2-digit' });

async function detail(s: Services, loadCategories: () => Promise<CategoryRow[]>, ctx: Context) {
  const raw = ctx.params.id!;
  const birthday = await birthdayDetail(s.db, loadCategories, raw);
  if (birthday === null) throw notFound('해당 일정을 찾을 수 없습니다.');
  if (birthday) return reply(birthday);
  const found = await scheduleDetail(s.db, parseId(raw));
  if (!found) throw notFound('해당 일정을 찾을 수 없습니다.');
  return { ...reply(found.detail), version: found.version };
}

async function syncSearch(s: Services) {
  const synced = await rebuildSearchIndex(s.db, s.search);
  s.logger.info({ synced }, 'search index rebuilt');
  return reply({ success: true, synced });
}

export function scheduleRoutes(s: Services): Route[] {
  const searchBudget = queryBudget(s);
  const loadCategories = categoriesLoader(s.db, () => s.monthlyCache.version(0, 0)); // a category write moves the generation

  function monthly(year: number, month: number): Reply | Promise<Reply> {
    const cached = s.monthlyCache.get(year, month);
    if (cached) return { raw: cached.body, etag: cached.etag, variants: cached.variants, contentType: JSON_TYPE };
    return fillMonth(year, month);
  }

  // Requests that miss a month together wait for one build (one set of queries, one body in memory).
  const builds = new SingleFlight<CachedMonth>();

  async function fillMonth(year: number, month: number): Promise<Reply> {
    const version = s.monthlyCache.version(year, month);
    const { result } = builds.run(year * 100 + month, async () => {
      const body = Buffer.from(JSON.stringify({ year, month, schedules: await monthSchedules(s.db, loadCategories, year, month) }));
      const etag = strongEtag(body);
      const built = { body, etag, variants: await compressVariants(body, etag) };
      s.monthlyCache.set(year, month, built, version);
      return built;
    }, version);
    const entry = await result;
    return { raw: entry.body, etag: entry.etag, variants: entry.variants, contentType: JSON_TYPE };
  }

  async function search(ctx: Context, text: string): Promise<Reply> {
    if (text.trim() === '') throw badRequest('검색어를 입력해 주세요.');
    if (text.length > SEARCH_MAX_LENGTH) throw badRequest(`검색어는 ${SEARCH_MAX_LENGTH}자 이하여야 합니다.`);
    const offset = intQuery(ctx.query, 'offset', 0, 0, 10_000);
    const limit = intQuery(ctx.query, 'limit', 20, 1, 100);
    // A page the result cache holds costs nothing; any other is engine work, within the client's budget.
    if (!s.search.cached?.(text, { offset, limit })) searchBudget.take(clientKey(ctx.ip));
    const page = await s.search.search(text, { offset, limit });
    const schedules = await schedulesByIds(s.db, page.ids);
    return reply({ schedules, total: page.total, hasMore: page.hasMore ?? offset + page.ids.length < page.total, ...(page.ignoredWords ? { ignoredWords: page.ignoredWords } : {}) });
  }

  // Clients ask for few distinct months: the year and month of a query string seen before, without
  // parsing it again (only strings naming both, so the answer does not depend on today's date).
  const knownMonths = new Map<string, number>();

  function list(ctx: Context): Reply | Promise<Reply> {
    const known = knownMonths.get(ctx.queryString);
    if (known !== undefined) return monthly(Math.floor(known / 100), known % 100);
    const text = ctx.query.get('search');
    if (text !== null) return search(ctx, text);
    const query = ctx.query;
    // Intl formatting costs microseconds: only when the client leaves year or month out.
    const [nowYear, nowMonth] = query.has('year') && query.has('month') ? [0, 0] : (seoulYearMonth.format(s.clock.now()).split('-').map(Number) as [number, number]);
    const year = intQuery(query, 'year', nowYear, 1900, 2999);
    const month = intQuery(query, 'month', nowMonth, 1, 12);
    if (nowYear === 0) {
      if (knownMonths.size >= 4096) knownMonths.clear();
      knownMonths.set(ctx.queryString, year * 100 + month);
    }
    return monthly(year, month);
  }

  async function remove(ctx: Context) {
    if (!(await deleteSchedule(s, parseId(ctx.params.id), { precondition: ctx.precondition }))) throw notFound('해당 일정을 찾을 수 없습니다.');
    return reply({ success: true });
  }

  const tags = ['schedules'];
  return [
    {
      method: 'get', path: '/api/schedules', handler: list, cacheControl: PUBLIC_CACHE,
      doc: { summary: 'Monthly listing with birthdays, or search with ?search=', tags, query: ScheduleListQuery, description: 'Without `search`: {year, month, schedules} of the month (default: this month in Asia/Seoul), sorted by date, then time (timed first), then the day’s birthdays in display order, then untimed items. Birthdays of current members are items with isBirthday: true and id `birthday-<memberId>-<year>`; 29 February shows on 28 February in other years. With `search`: {schedules, total, hasMore}, best match first (title, then school or source, then event venue name/address, then members, then description), `limit` at most 100; `total` counts matches exactly up to 1,000: a search matching more reports 1000 and `hasMore: true` while pages follow (pages stay in exact rank order); when nothing matches well, the query is also read as fans type it (docs/search.md, "How fans type"): Latin letters typed on the Korean 2-set layout (`fnalsp` → 루미네), fan shorthand (synonyms, editable in the user dictionary as `뮤비 => MV`), words without trailing particles, a half-typed last syllable, letters and digits run together; those matches follow the exact ones, then words one keystroke off (a similar vowel, a doubled consonant, a missing or extra final consonant or key of a compound vowel; two for words of five syllables or more). When no schedule matches every word, a word naming a month (`5월`) is read as the schedules’ month (any year); failing that, words are left out and listed in `ignoredWords`. A search page not held by the 10-second result cache counts against the client\'s query budget (shared with suggestions): past it 429 with Retry-After. Strong ETag; If-None-Match → 304.', responses: { 200: Type.Union([MonthlyListing, SearchResults]), 400: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse } },
    },
    { method: 'post', path: '/api/schedules/sync-search', handler: () => syncSearch(s), auth: 'admin', doc: { summary: 'Rebuild the search index from the stored schedules', tags, responses: { 200: SyncSearchResponse } } },
    { method: 'get', path: '/api/schedules/:id', handler: (ctx) => detail(s, loadCategories, ctx), cacheControl: PUBLIC_CACHE, doc: { versioned: 'read', summary: 'A schedule with description, images and its platform record', tags, params: { id: ScheduleItemId }, responses: { 200: ScheduleDetail, 400: ErrorResponse, 404: ErrorResponse } } },
    { method: 'delete', path: '/api/schedules/:id', handler: remove, auth: 'admin', doc: { versioned: 'write', summary: 'Delete a schedule (event record, member and image links, images and files go with it; the index entry is removed)', tags, responses: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse } } },
    {
      method: 'get', path: '/api/schedule-categories', handler: async () => reply(await loadCategories()), cacheControl: PUBLIC_CACHE,
      doc: { summary: 'Schedule categories (11 = 행사 events, 10 = 생일 birthdays)', tags, responses: { 200: Type.Array(CategoryListItem) } },
    },
  ];
}
