// The public calendar feed (issue 39, RFC 5545 with RFC 7986 properties): the schedules from the
// first day of the month three months before this month (Asia/Seoul) to the last day of the
// twelfth month after it, and the current members' birthdays as yearly all-day events
// (docs/decisions.md "Calendar feeds").
import { IcsWriter, icsDate, icsLocalDateTime, icsNextDate, icsUtc, SEOUL_VTIMEZONE } from '../calendar/ics.ts';
import type { FeedWindowMonths } from '../cache/feed-cache.ts';
import type { Queryable } from '../db/database.ts';
import { feedBirthdays, feedSchedules, membersNamed, type FeedScheduleRow } from '../db/repositories/calendar-feed.ts';
import { badRequest } from '../errors.ts';
import { BIRTHDAY_CATEGORY_ID } from './calendar.ts';

export const FEED_MONTHS_BEFORE = 3;
export const FEED_MONTHS_AFTER = 12;
/** How often subscribers should refetch (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
export const FEED_REFRESH = 'PT1H';
const MAX_FILTER_VALUES = 50;

export interface FeedWindow extends FeedWindowMonths {
  /** First day in the feed, YYYY-MM-DD. */
  from: string;
  /** First day after the feed, YYYY-MM-DD. */
  to: string;
}

export interface FeedFilter {
  memberIds: number[] | null;
  categoryIds: number[] | null;
  birthdays: boolean;
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

/** The query's filters checked against the data: a name or id that names nothing is 400 (a mistyped subscription would otherwise stay empty unnoticed). */
export async function parseFeedFilter(db: Queryable, query: URLSearchParams): Promise<FeedFilter> {
  const birthdaysRaw = query.get('birthdays');
  if (birthdaysRaw !== null && birthdaysRaw !== 'true' && birthdaysRaw !== 'false') throw badRequest("'birthdays' 값은 true 또는 false여야 합니다.");
  const members = listOf(query, 'members');
  const categories = listOf(query, 'categories');
  let memberIds: number[] | null = null;
  if (members) {
    const ids = members.filter((value) => /^[1-9][0-9]{0,9}$/.test(value)).map(Number);
    const found = await membersNamed(db, ids, members);
    const unknown = members.filter((value) => !found.some((m) => String(m.id) === value || m.name.toLowerCase() === value.toLowerCase() || m.name_en?.toLowerCase() === value.toLowerCase()));
    if (unknown.length > 0) throw badRequest(`알 수 없는 멤버입니다: ${unknown.join(', ')}`);
    memberIds = [...new Set(found.map((m) => m.id))];
  }
  let categoryIds: number[] | null = null;
  if (categories) {
    const notIds = categories.filter((value) => !/^[1-9][0-9]{0,9}$/.test(value));
    if (notIds.length > 0) throw badRequest(`'categories' 필터는 분류 ID(숫자)여야 합니다: ${notIds.join(', ')}`);
    categoryIds = categories.map(Number);
    const found = await db.any<{ id: number }>('SELECT id FROM schedule_categories WHERE id = ANY($1::int[])', [categoryIds]);
    const unknown = categoryIds.filter((id) => !found.some((row) => row.id === id));
    if (unknown.length > 0) throw badRequest(`존재하지 않는 분류 ID입니다: ${unknown.join(', ')}`);
  }
  return { memberIds, categoryIds, birthdays: birthdaysRaw !== 'false' };
}

export interface FeedIdentity {
  /** UID domain: the host of PUBLIC_BASE_URL. */
  host: string;
  /** NAME / X-WR-CALNAME. */
  name: string;
}

function descriptionOf(row: FeedScheduleRow): string {
  const parts: string[] = [];
  if (row.description) parts.push(row.description);
  const source = row.school_name ?? row.source_name;
  if (source) parts.push(`출처: ${source}`);
  if (row.member_names.length > 0) parts.push(`멤버: ${row.member_names.join(', ')}`);
  return parts.join('\n\n');
}

function scheduleEvent(ics: IcsWriter, row: FeedScheduleRow, identity: FeedIdentity): void {
  ics.raw('BEGIN', 'VEVENT');
  ics.text('UID', `schedule-${row.id}@${identity.host}`);
  ics.raw('DTSTAMP', icsUtc(row.updated_at));
  ics.raw('CREATED', icsUtc(row.created_at));
  ics.raw('LAST-MODIFIED', icsUtc(row.updated_at));
  ics.raw('SEQUENCE', String(row.revision));
  if (row.time) {
    ics.raw('DTSTART;TZID=Asia/Seoul', icsLocalDateTime(row.date, row.time));
  } else {
    ics.raw('DTSTART;VALUE=DATE', icsDate(row.date));
    ics.raw('DTEND;VALUE=DATE', icsNextDate(row.date));
  }
  ics.text('SUMMARY', row.title);
  const description = descriptionOf(row);
  if (description) ics.text('DESCRIPTION', description);
  const url = row.source_url ?? row.post_urls?.[0];
  if (url) ics.raw('URL;VALUE=URI', url);
  ics.text('CATEGORIES', row.category_name);
  if (row.venue_name) ics.text('LOCATION', row.venue_address ? `${row.venue_name}, ${row.venue_address}` : row.venue_name);
  if (row.lat !== null && row.lng !== null) ics.raw('GEO', `${row.lat};${row.lng}`);
  for (const image of row.image_urls) ics.raw('IMAGE;VALUE=URI;DISPLAY=FULLSIZE', image);
  ics.raw('TRANSP', 'TRANSPARENT');
  ics.raw('END', 'VEVENT');
}

/**
 * A member's birthday, every year from the birth date. 29 February recurs on the last day of
 * February (28 February in common years), as the month listing shows it.
 */
function birthdayEvent(ics: IcsWriter, member: { id: number; name: string; birthDate: string }, identity: FeedIdentity, category: string): void {
  const leapDay = member.birthDate.endsWith('-02-29');
  ics.raw('BEGIN', 'VEVENT');
  ics.text('UID', `birthday-${member.id}@${identity.host}`);
  // Members keep no modification time: the birth date stands in, so the bytes (and the ETag) stay the same on every replica.
  ics.raw('DTSTAMP', `${icsDate(member.birthDate)}T000000Z`);
  ics.raw('SEQUENCE', '0');
  ics.raw('DTSTART;VALUE=DATE', icsDate(member.birthDate));
  ics.raw('DTEND;VALUE=DATE', icsNextDate(member.birthDate));
  ics.raw('RRULE', leapDay ? 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1' : 'FREQ=YEARLY');
  ics.text('SUMMARY', `${member.name} 생일`);
  ics.text('CATEGORIES', category);
  ics.raw('TRANSP', 'TRANSPARENT');
  ics.raw('END', 'VEVENT');
}

/** The whole feed as iCalendar text. */
export async function buildFeed(db: Queryable, filter: FeedFilter, window: FeedWindow, identity: FeedIdentity): Promise<string> {
  const withBirthdays = filter.birthdays && (filter.categoryIds === null || filter.categoryIds.includes(BIRTHDAY_CATEGORY_ID));
  const [schedules, birthdays, birthdayCategory] = await Promise.all([
    feedSchedules(db, window.from, window.to, filter),
    withBirthdays ? feedBirthdays(db, filter.memberIds) : Promise.resolve([]),
    db.oneOrNone<{ name: string }>('SELECT name FROM schedule_categories WHERE id = $1', [BIRTHDAY_CATEGORY_ID]),
  ]);
  const ics = new IcsWriter();
  ics.raw('BEGIN', 'VCALENDAR');
  ics.raw('VERSION', '2.0');
  ics.text('PRODID', '-//schedule-backend//calendar feed//KO');
  ics.raw('CALSCALE', 'GREGORIAN');
  ics.raw('METHOD', 'PUBLISH');
  ics.text('NAME', identity.name);
  ics.text('X-WR-CALNAME', identity.name);
  ics.raw('X-WR-TIMEZONE', 'Asia/Seoul');
  ics.raw('REFRESH-INTERVAL;VALUE=DURATION', FEED_REFRESH);
  ics.raw('X-PUBLISHED-TTL', FEED_REFRESH);
  for (const line of SEOUL_VTIMEZONE) {
    const colon = line.indexOf(':');
    ics.raw(line.slice(0, colon), line.slice(colon + 1));
  }
  for (const member of birthdays) birthdayEvent(ics, member, identity, birthdayCategory?.name ?? '생일');
  for (const row of schedules) scheduleEvent(ics, row, identity);
  ics.raw('END', 'VCALENDAR');
  return ics.toString();
}
