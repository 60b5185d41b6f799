// Schedules, /api/schedules (api-service.md 4.4): the monthly listing with birthdays served from the
// per-process cache, search, detail, delete and the index rebuild; categories.
import { Type } from '@sinclair/typebox';
import { ErrorResponse, SuccessResponse } from '../../schemas/common.ts';
import { CategoryListItem, MonthlyListing, ScheduleDetail, ScheduleListQuery, SearchResults, SyncSearchResponse } from '../../schemas/schedules.ts';
import { logActivity } from '../../shared/db/repositories/activity-log.ts';
import { birthdaysInMonth } from '../../shared/db/repositories/members.ts';
import { deleteSchedule, scheduleDetail, schedulesBetween, schedulesByIds, type Category, type ScheduleItem } from '../../shared/db/repositories/schedules.ts';
import { badRequest, notFound } from '../../shared/errors.ts';
import { afterScheduleCommit, recordScheduleChange } from '../../shared/schedule-changes.ts';
import { compressVariants } from '../../shared/compression.ts';
import { rebuildSearchIndex } from '../../shared/search/sync.ts';
import type { Services } from '../../shared/services.ts';
import { clientKey } from '../client-key.ts';
import { reply, type Context, type Reply } from '../context.ts';
import { intQuery, parseId } from '../params.ts';
import type { Route } from '../router.ts';
import { strongEtag } from '../server.ts';
import { queryBudget } from './suggestions.ts';

export const BIRTHDAY_CATEGORY_ID = 10;
const JSON_TYPE = 'application/json; charset=utf-8';
const PUBLIC_CACHE = 'public, max-age=10, s-maxage=30, stale-while-revalidate=30';
const SEARCH_MAX_LENGTH = 200;

const seoulYearMonth = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul', year: 'numeric', month: '2-digit' });
const pad2 = (n: number) => String(n).padStart(2, '0');
const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** A member's birthday in a given year; 29 February is shown on 28 February in other years. */
export function birthdayIn(year: number, birthDate: string): string {
  const monthDay = birthDate.slice(5);
  return `${year}-${monthDay === '02-29' && !isLeapYear(year) ? '02-28' : monthDay}`;
}

/** Timed items first by time, then the day's birthdays in display order, then other untimed items. */
function dayRank(item: ScheduleItem): number {
  if (item.time !== null) return 0;
  return item.isBirthday ? 1 : 2;
}

export function scheduleRoutes(s: Services): Route[] {
  const searchBudget = queryBudget(s);
  let categories: Promise<Array<Category & { sortOrder: number }>> | null = null;
  const loadCategories = () =>
    (categories ??= s.db.any('SELECT id, name, color, sort_order AS "sortOrder" FROM schedule_categories ORDER BY sort_order, id').catch((error: unknown) => {
      categories = null;
      throw error;
    }));

  async function buildMonth(year: number, month: number): Promise<string> {
    const from = `${year}-${pad2(month)}-01`;
    const to = month === 12 ? `${year + 1}-01-01` : `${year}-${pad2(month + 1)}-01`;
    const [items, birthdays, allCategories] = await Promise.all([schedulesBetween(s.db, from, to), birthdaysInMonth(s.db, month), loadCategories()]);
    const birthdayCategory = allCategories.find((category) => category.id === BIRTHDAY_CATEGORY_ID);
    const category = { id: BIRTHDAY_CATEGORY_ID, name: birthdayCategory?.name ?? '생일', color: birthdayCategory?.color ?? '#ec4899' };
    const birthdayItems: ScheduleItem[] = birthdays.map((member) => ({
      id: `birthday-${member.id}-${year}`,
      title: `${member.name} 생일`,
      date: birthdayIn(year, member.birthDate),
      time: null,
      category,
      source: null,
      members: [{ id: member.id, name: member.name }],
      isBirthday: true,
    }));
    // Stable sort keeps the SQL order (time, id) and the birthdays' display order within each rank.
    const schedules = [...items, ...birthdayItems].sort((a, b) => a.date.localeCompare(b.date) || dayRank(a) - dayRank(b) || (a.time ?? '').localeCompare(b.time ?? ''));
    return JSON.stringify({ year, month, schedules });
  }

  function monthly(year: number, month: number): Reply | Promise<Reply> {
    const cached = s.monthlyCache.get(year, month);
    if (cached) return { raw: cached.body, etag: cached.etag, variants: cached.variants, contentType: JSON_TYPE };
    return fillMonth(year, month);
  }

  async function fillMonth(year: number, month: number): Promise<Reply> {
    const version = s.monthlyCache.version(year, month);
    const body = Buffer.from(await buildMonth(year, month));
    const etag = strongEtag(body);
    const entry = { body, etag, variants: await compressVariants(body, etag) };
    s.monthlyCache.set(year, month, entry, version);
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

  async function detail(ctx: Context) {
    const raw = ctx.params.id!;
    const birthday = /^birthday-(\d{1,10})-(\d{4})$/.exec(raw);
    if (birthday) {
      const memberId = Number(birthday[1]);
      const year = Number(birthday[2]);
      const member = await s.db.oneOrNone<{ id: number; name: string; birth_date: string }>(
        "SELECT id, name, to_char(birth_date, 'YYYY-MM-DD') AS birth_date FROM members WHERE id = $1 AND birth_date IS NOT NULL",
        [memberId],
      );
      if (!member) throw notFound('해당 일정을 찾을 수 없습니다.');
      const category = (await loadCategories()).find((c) => c.id === BIRTHDAY_CATEGORY_ID);
      return reply({
        id: raw, title: `${member.name} 생일`, date: birthdayIn(year, member.birth_date), time: null,
        category: { id: BIRTHDAY_CATEGORY_ID, name: category?.name ?? '생일', color: category?.color ?? '#ec4899' },
        source: null, members: [{ id: member.id, name: member.name }], isBirthday: true, description: null, images: [],
      });
    }
    const found = await scheduleDetail(s.db, parseId(raw));
    if (!found) throw notFound('해당 일정을 찾을 수 없습니다.');
    return reply(found);
  }

  async function remove(ctx: Context) {
    const id = parseId(ctx.params.id);
    const deleted = await s.db.tx('schedule-delete', async (tx) => {
      const result = await deleteSchedule(tx, id);
      if (!result) return null;
      await logActivity(tx, { actor: 'admin', action: 'delete', category: 'schedule', targetType: 'schedule', targetId: id, summary: `일정 '${result.title}' 삭제` });
      await recordScheduleChange(tx, { scheduleId: id, action: 'delete', dates: [result.date] });
      return result;
    });
    if (!deleted) throw notFound('해당 일정을 찾을 수 없습니다.');
    await s.storage.delete(deleted.imageKeys).catch((error: unknown) => s.logger.error({ err: error }, 'could not delete files after commit'));
    await afterScheduleCommit(s, { scheduleId: id, action: 'delete', dates: [deleted.date] }, { syncIndex: true });
    return reply({ success: true });
  }

  async function syncSearch() {
    const synced = await rebuildSearchIndex(s.db, s.search);
    s.logger.info({ synced }, 'search index rebuilt');
    return reply({ success: true, synced });
  }

  const tags = ['schedules'];
  return [
    {
      method: 'get', path: '/api/schedules', handler: list, cacheControl: PUBLIC_CACHE,
      doc: { summary: 'Monthly listing with birthdays, or search with ?search=', tags, query: ScheduleListQuery, description: 'Without `search`: {year, month, schedules} of the month (default: this month in Asia/Seoul), sorted by date, then time (timed first), then the day’s birthdays in display order, then untimed items. Birthdays of current members are items with isBirthday: true and id `birthday-<memberId>-<year>`; 29 February shows on 28 February in other years. With `search`: {schedules, total, hasMore}, best match first (title, then school or source, then event venue name/address, then members, then description), `limit` at most 100; `total` counts matches exactly up to 1,000: a search matching more reports 1000 and `hasMore: true` while pages follow (pages stay in exact rank order); when nothing matches well, the query is also read as fans type it (docs/search-typing.md): Latin letters typed on the Korean 2-set layout (`fnalsp` → 루미네), fan shorthand (synonyms, editable in the user dictionary as `뮤비 => MV`), words without trailing particles, a half-typed last syllable, letters and digits run together; those matches follow the exact ones, then words one keystroke off (a similar vowel, a doubled consonant, a missing or extra final consonant or key of a compound vowel; two for words of five syllables or more). When no schedule matches every word, words are left out and listed in `ignoredWords`. A search page not held by the 10-second result cache counts against the client\'s query budget (shared with suggestions): past it 429 with Retry-After. Strong ETag; If-None-Match → 304.', responses: { 200: Type.Union([MonthlyListing, SearchResults]), 400: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse } },
    },
    { method: 'post', path: '/api/schedules/sync-search', handler: syncSearch, auth: 'admin', doc: { summary: 'Rebuild the search index from the stored schedules', tags, responses: { 200: SyncSearchResponse } } },
    { method: 'get', path: '/api/schedules/:id', handler: detail, cacheControl: PUBLIC_CACHE, doc: { summary: 'A schedule with description, images and its platform record', tags, responses: { 200: ScheduleDetail, 400: ErrorResponse, 404: ErrorResponse } } },
    { method: 'delete', path: '/api/schedules/:id', handler: remove, auth: 'admin', doc: { summary: 'Delete a schedule (event record, member and image links, images and files go with it; the index entry is removed)', tags, responses: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse } } },
    {
      method: 'get', path: '/api/schedule-categories', handler: async () => reply(await loadCategories()), cacheControl: 'public, max-age=300',
      doc: { summary: 'Schedule categories (11 = 행사 events, 10 = 생일 birthdays)', tags, responses: { 200: Type.Array(CategoryListItem) } },
    },
  ];
}
