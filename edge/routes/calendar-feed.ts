// The public calendar feed, GET /api/schedules/calendar.ics (issue 39): served from a per-filter
// cache (shared/cache/feed-cache.ts) with a strong ETag and br/gzip variants, like the month listing.
import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../../schemas/common.ts';
import { compressVariants } from '../../shared/cache/compression.ts';
import { badRequest } from '../../shared/errors.ts';
import { FeedCache, type FeedEntry } from '../../shared/cache/feed-cache.ts';
import { buildFeed, FEED_MONTHS_AFTER, FEED_MONTHS_BEFORE, feedWindow, parseFeedFilter, type FeedFilter, type FeedIdentity, type FeedWindow } from '../../shared/schedules/calendar-feed.ts';
import type { Services } from '../../shared/services.ts';
import type { Context, Reply } from '../context.ts';
import type { Route } from '../router.ts';
import { strongEtag } from '../server.ts';

const CALENDAR_TYPE = 'text/calendar; charset=utf-8';
const FEED_CACHE = 'public, max-age=10, s-maxage=30, stale-while-revalidate=30';
/** Longest query string kept as a cache key; longer ones are refused. */
const MAX_QUERY_LENGTH = 2000;

const FeedQuery = Type.Object({
  members: Type.Optional(Type.String({ description: 'member names (Korean or English) or ids, comma-separated: their schedules and birthdays' })),
  categories: Type.Optional(Type.String({ description: 'category ids, comma-separated (10 = birthdays)' })),
  birthdays: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'default true' })),
});

/** One key per filter, however the query spelled it. */
const filterKey = (filter: FeedFilter) =>
  `m=${filter.memberIds?.slice().sort((a, b) => a - b).join(',') ?? '*'}|c=${filter.categoryIds?.slice().sort((a, b) => a - b).join(',') ?? '*'}|b=${filter.birthdays}`;

const toReply = (entry: FeedEntry): Reply => ({ raw: entry.body, etag: entry.etag, variants: entry.variants, contentType: CALENDAR_TYPE });

export function calendarFeedRoutes(s: Services): Route[] {
  const cache = new FeedCache(s.monthlyCache);
  const identity: FeedIdentity = { host: new URL(s.config.publicBaseUrl).hostname, name: `${s.config.groupNames[0] ?? ''} 일정`.trim() };
  // The window moves once a month: computed again at most once a minute.
  let window: { minute: number; value: FeedWindow } = { minute: -1, value: feedWindow(s.clock.now()) };
  const currentWindow = () => {
    const minute = Math.floor(s.clock.now() / 60_000);
    if (minute !== window.minute) window = { minute, value: feedWindow(s.clock.now()) };
    return window.value;
  };

  // Query strings seen before → their filter's key, so that spellings of one filter (names or ids,
  // any order, extra parameters) share one feed, and a hit parses nothing. Dropped when members or
  // categories change (the month cache's generation moves): a name may then mean someone else.
  const keys = new Map<string, string>();
  let keysGeneration = s.monthlyCache.version(0, 0);
  const knownKey = (queryString: string) => {
    const generation = s.monthlyCache.version(0, 0);
    if (generation !== keysGeneration) {
      keys.clear();
      keysGeneration = generation;
    }
    return keys.get(queryString);
  };

  async function build(ctx: Context, feedWindowNow: FeedWindow): Promise<Reply> {
    const filter = await parseFeedFilter(s.db, ctx.query);
    const key = filterKey(filter);
    if (keys.size >= 4096) keys.clear();
    keys.set(ctx.queryString, key);
    const cached = cache.get(key, feedWindowNow);
    if (cached) return toReply(cached);
    const entry = await cache.fill(key, feedWindowNow, async () => {
      const body = Buffer.from(await buildFeed(s.db, filter, feedWindowNow, identity));
      const etag = strongEtag(body);
      return { body, etag, variants: await compressVariants(body, etag) };
    });
    return toReply(entry);
  }

  function feed(ctx: Context): Reply | Promise<Reply> {
    if (ctx.queryString.length > MAX_QUERY_LENGTH) throw badRequest(`조회 조건이 너무 깁니다 (${MAX_QUERY_LENGTH}자 이하).`);
    const current = currentWindow();
    const key = knownKey(ctx.queryString);
    const cached = key === undefined ? null : cache.get(key, current);
    return cached ? toReply(cached) : build(ctx, current);
  }

  return [{
    method: 'get', path: '/api/schedules/calendar.ics', handler: feed, cacheControl: FEED_CACHE,
    doc: {
      summary: 'Calendar feed (iCalendar) to subscribe to', tags: ['schedules'], query: FeedQuery,
      description: `RFC 5545 with RFC 7986 NAME, REFRESH-INTERVAL, IMAGE. Schedules dated from the first day of the month ${FEED_MONTHS_BEFORE} months before this month (Asia/Seoul) to the last day of the ${FEED_MONTHS_AFTER}th month after it, one VEVENT each (UID schedule-<id>@<host>, SEQUENCE grows with every change; timed ones in TZID=Asia/Seoul, untimed ones all-day), and the current members' birthdays as yearly all-day events (29 February: the last day of February). Filters: members (their schedules and birthdays), categories (ids; birthdays only when 10 is among them), birthdays=false leaves birthdays out. A member or category that names nothing → 400. Strong ETag; If-None-Match → 304; br/gzip.`,
      responses: { 200: 'text/calendar', 400: ErrorResponse, 503: ErrorResponse },
    },
  }];
}
