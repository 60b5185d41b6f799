// The calendar feed's text (RFC 5545 with RFC 7986 properties) from rows already read: pure work,
// run in the feed pool's thread (workers/feed.worker.ts), never on the edge's event loop. Every
// event is bounded (FEED_LIMITS), so a feed is at most a known size however long what was collected.
import { IcsWriter, icsDate, icsLocalDateTime, icsNextDate, icsUtc, SEOUL_VTIMEZONE } from '../icalendar/ics.ts';
import type { FeedBirthdayRow, FeedScheduleRow } from '../db/repositories/calendar-feed.ts';

/** docs/security.md "Calendar feeds": what a feed holds at most. */
export const FEED_LIMITS = {
  /** Schedules in one feed: the earliest by date, time and id; later ones are left out. */
  schedules: 5_000,
  /** Characters of a schedule's own description; a longer one is cut and ends in "…" and a link to the whole. */
  descriptionChars: 1_000,
  /** Characters of a title; a longer one is cut and ends in "…". */
  titleChars: 300,
  /** IMAGE properties of one event (posters and post images, in order). */
  imagesPerEvent: 10,
} as const;

/** How often subscribers should refetch (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
export const FEED_REFRESH = 'PT1H';

export interface FeedIdentity {
  /** UID domain: the host of PUBLIC_BASE_URL. */
  host: string;
  /** NAME / X-WR-CALNAME. */
  name: string;
  /** A schedule's detail on this service, without the id (`<PUBLIC_BASE_URL>/api/schedules/`): where a cut description points when the schedule has no URL of its own. */
  detailBase: string;
}

export interface FeedData {
  schedules: FeedScheduleRow[];
  birthdays: FeedBirthdayRow[];
  birthdayCategory: string;
}

/** `text` cut to `max` characters (never inside a surrogate pair) with "…", or as it is. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate: its pair would be split
  return `${text.slice(0, end)}…`;
}

const eventUrl = (row: FeedScheduleRow) => row.source_url ?? row.post_urls?.[0] ?? null;

function descriptionOf(row: FeedScheduleRow, identity: FeedIdentity): string {
  const parts: string[] = [];
  if (row.description) {
    const whole = row.description.length <= FEED_LIMITS.descriptionChars;
    parts.push(whole ? row.description : `${cut(row.description, FEED_LIMITS.descriptionChars)}\n전체 내용: ${eventUrl(row) ?? `${identity.detailBase}${row.id}`}`);
  }
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
  ics.text('SUMMARY', cut(row.title, FEED_LIMITS.titleChars));
  const description = descriptionOf(row, identity);
  if (description) ics.text('DESCRIPTION', description);
  const url = eventUrl(row);
  if (url) ics.raw('URL;VALUE=URI', url);
  ics.text('CATEGORIES', row.category_name);
  if (row.venue_name) ics.text('LOCATION', row.venue_address ? `${row.venue_name}, ${row.venue_address}` : row.venue_name);
  if (row.lat !== null && row.lng !== null) ics.raw('GEO', `${row.lat};${row.lng}`);
  for (const image of row.image_urls.slice(0, FEED_LIMITS.imagesPerEvent)) ics.raw('IMAGE;VALUE=URI;DISPLAY=FULLSIZE', image);
  ics.raw('TRANSP', 'TRANSPARENT');
  ics.raw('END', 'VEVENT');
}

/**
 * A member's birthday, every year from the birth date. 29 February recurs on the last day of
 * February (28 February in common years), as the month listing shows it.
 */
function birthdayEvent(ics: IcsWriter, member: FeedBirthdayRow, identity: FeedIdentity, category: string): void {
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

/** The whole feed as folded UTF-8 bytes. */
export function renderFeed(data: FeedData, identity: FeedIdentity): Buffer {
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
  for (const member of data.birthdays) birthdayEvent(ics, member, identity, data.birthdayCategory);
  for (const row of data.schedules) scheduleEvent(ics, row, identity);
  ics.raw('END', 'VCALENDAR');
  return ics.toBuffer();
}
