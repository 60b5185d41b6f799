// The public calendar feed (RFC 5545 with RFC 7986 properties): the schedules from the
// first day of the month three months before this month (Asia/Seoul) to the last day of the
// twelfth month after it, and the current members' birthdays as yearly all-day events
// (docs/decisions.md "Calendar feeds"). Here: the window, the filter (checked against the members
// and categories held in memory, and spelt one way), and the rows a feed is made of, read in the
// feed pool's thread (workers/feed.worker.ts) like its text (calendar-feed-render.ts).
import type { FeedWindowMonths } from '../cache/feed-cache.ts';
import type { Queryable } from '../db/database.ts';
import { feedBirthdays, feedSchedules } from '../db/repositories/calendar-feed.ts';
import { badRequest } from '../errors.ts';
import { BIRTHDAY_CATEGORY_ID, type CategoryRow } from './calendar.ts';
import { FEED_LIMITS, type FeedData } from './calendar-feed-render.ts';

export const FEED_MONTHS_BEFORE = 3;
export const FEED_MONTHS_AFTER = 12;
const MAX_FILTER_VALUES = 50;

export interface FeedWindow extends FeedWindowMonths {
  /** First day in the feed, YYYY-MM-DD. */
  from: string;
  /** First day after the feed, YYYY-MM-DD. */
  to: string;
}

export interface FeedFilter {
  /** Sorted, distinct; null: every schedule, with or without members. */
  memberIds: number[] | null;
  /** Sorted, distinct; null: every category (naming them all is the same filter). */
  categoryIds: number[] | null;
  /** Whether birthdays are in the feed: false also when the categories leave 10 out. */
  birthdays: boolean;
}

/** What a filter may name: every member and category, read once per generation of the month cache. */
export interface FeedNames {
  members: ReadonlyArray<{ id: number; name: string; name_en: string | null }>;
  categories: ReadonlyArray<CategoryRow>;
}

const pad2 = (n: number) => String(n).padStart(2, '0');
const seoulYearMonth = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul', year: 'numeric', month: '2-digit' });

/** The feed's months around the month of `now` in Asia/Seoul. */
export function feedWindow(now: number): FeedWindow {
  const [year, month] = seoulYearMonth.format(now).split('-').map(Number) as [number, number];
  const months: Array<{ year: number; month: number }> = [];
  for (let offset = -FEED_MONTHS_BEFORE; offset <= FEED_MONTHS_AFTER + 1; offset++) {
    const index = year * 12 + (month - 1) + offset;
    months.push({ year: Math.floor(index / 12), month: (index % 12) + 1 });
  }
  const after = months.pop()!; // the month after the window: its first day is `to`
  const first = months[0]!;
  return { key: first.year * 100 + first.month, months, from: `${first.year}-${pad2(first.month)}-01`, to: `${after.year}-${pad2(after.month)}-01` };
}

const listOf = (query: URLSearchParams, name: string): string[] | null => {
  const raw = query.get(name);
  if (raw === null) return null;
  const values = raw.split(',').map((value) => value.trim()).filter((value) => value !== '');
  if (values.length === 0) throw badRequest(`'${name}' 필터에 값이 없습니다.`);
  if (values.length > MAX_FILTER_VALUES) throw badRequest(`'${name}' 필터의 값은 ${MAX_FILTER_VALUES}개 이하여야 합니다.`);
  return [...new Set(values)];
};

const sortedIds = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
const isId = (value: string) => /^[1-9][0-9]{0,9}$/.test(value);

/**
 * The query's filters checked against the names held (no query to the database): a name or id that
 * names nothing is 400 (a mistyped subscription would otherwise stay empty unnoticed). Spellings of
 * one filter (names or ids, any order, every category named) give the same FeedFilter.
 */
export function parseFeedFilter(names: FeedNames, query: URLSearchParams): FeedFilter {
  const birthdaysRaw = query.get('birthdays');
  if (birthdaysRaw !== null && birthdaysRaw !== 'true' && birthdaysRaw !== 'false') throw badRequest("'birthdays' 값은 true 또는 false여야 합니다.");
  const members = listOf(query, 'members');
  const categories = listOf(query, 'categories');
  let memberIds: number[] | null = null;
  if (members) {
    const found: number[] = [];
    const unknown: string[] = [];
    for (const value of members) {
      const lower = value.toLowerCase();
      const matches = names.members.filter((m) => (isId(value) && m.id === Number(value)) || m.name.toLowerCase() === lower || m.name_en?.toLowerCase() === lower);
      if (matches.length === 0) unknown.push(value);
      for (const m of matches) found.push(m.id);
    }
    if (unknown.length > 0) throw badRequest(`알 수 없는 멤버입니다: ${unknown.join(', ')}`);
    memberIds = sortedIds(found);
  }
  let categoryIds: number[] | null = null;
  if (categories) {
    const notIds = categories.filter((value) => !isId(value));
    if (notIds.length > 0) throw badRequest(`'categories' 필터는 분류 ID(숫자)여야 합니다: ${notIds.join(', ')}`);
    const unknown = categories.filter((value) => !names.categories.some((c) => c.id === Number(value)));
    if (unknown.length > 0) throw badRequest(`존재하지 않는 분류 ID입니다: ${unknown.join(', ')}`);
    categoryIds = sortedIds(categories.map(Number));
    if (categoryIds.length === names.categories.length) categoryIds = null; // every category: no filter
  }
  const birthdays = birthdaysRaw !== 'false' && (categoryIds === null || categoryIds.includes(BIRTHDAY_CATEGORY_ID));
  return { memberIds, categoryIds, birthdays };
}

/** One key per filter: the cache key of its feed. */
export const feedFilterKey = (filter: FeedFilter) => `m=${filter.memberIds?.join(',') ?? '*'}|c=${filter.categoryIds?.join(',') ?? '*'}|b=${filter.birthdays ? 1 : 0}`;

/** The name of the birthdays' category (CATEGORIES of a birthday event). */
export const birthdayCategoryName = (names: FeedNames) => names.categories.find((c) => c.id === BIRTHDAY_CATEGORY_ID)?.name ?? '생일';

/** The rows of a feed (bounded by FEED_LIMITS); `truncated` when the window held more schedules. */
export async function loadFeedData(db: Queryable, filter: FeedFilter, window: Pick<FeedWindow, 'from' | 'to'>, birthdayCategory: string): Promise<{ data: FeedData; truncated: boolean }> {
  const [schedules, birthdays] = await Promise.all([
    feedSchedules(db, window.from, window.to, filter, { ...FEED_LIMITS, schedules: FEED_LIMITS.schedules + 1 }),
    filter.birthdays ? feedBirthdays(db, filter.memberIds) : Promise.resolve([]),
  ]);
  const truncated = schedules.length > FEED_LIMITS.schedules;
  if (truncated) schedules.length = FEED_LIMITS.schedules;
  return { data: { schedules, birthdays, birthdayCategory }, truncated };
}
