// The public calendar feed, GET /api/schedules/calendar.ics: served from a per-filter
// cache bounded in bytes (shared/schedules/calendar-feeds.ts) with a strong ETag and br/gzip
// variants, like the month listing. A request that starts a build pays for it from the client's
// query budget (the one search and suggestions use); the build runs in the feed pool.
import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../../schemas/common.ts';
import { badRequest } from '../../shared/errors.ts';
import type { FeedEntry } from '../../shared/cache/feed-cache.ts';
import { FEED_MONTHS_AFTER, FEED_MONTHS_BEFORE, feedWindow, parseFeedFilter, type FeedFilter, type FeedWindow } from '../../shared/schedules/calendar-feed.ts';
import { FEED_LIMITS } from '../../shared/schedules/calendar-feed-render.ts';
import type { Services } from '../../shared/services.ts';
import { clientKey } from '../client-key.ts';
import type { Context, Reply } from '../context.ts';
import type { Route } from '../router.ts';
import { queryBudget } from './suggestions.ts';

const CALENDAR_TYPE = 'text/calendar; charset=utf-8';
const FEED_CACHE = 'public, max-age=10, s-maxage=30, stale-while-revalidate=30';
/** Longest query string kept as a cache key; longer ones are refused. */
const MAX_QUERY_LENGTH = 2000;
/** Query budget a feed build takes: a build reads and writes thousands of events, a search one page. */
export const FEED_BUILD_COST = 10;
const TOO_MANY_BUILDS = '캘린더 피드 요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.';

const FeedQuery = Type.Object({
  members: Type.Optional(Type.String({ description: 'member names (Korean or English) or ids, comma-separated: their schedules and birthdays' })),
  categories: Type.Optional(Type.String({ description: 'category ids, comma-separated (10 = birthdays)' })),
  birthdays: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'default true' })),
});

const toReply = (entry: FeedEntry): Reply => ({ raw: entry.body, etag: entry.etag, variants: entry.variants, contentType: CALENDAR_TYPE });

export function calendarFeedRoutes(s: Services): Route[] {
  const feeds = s.feeds;
  const budget = queryBudget(s);
  // The window moves once a month: computed again at most once a minute.
  let window: { minute: number; value: FeedWindow } = { minute: -1, value: feedWindow(s.clock.now()) };
  const currentWindow = () => {
    const minute = Math.floor(s.clock.now() / 60_000);
    if (minute !== window.minute) window = { minute, value: feedWindow(s.clock.now()) };
    return window.value;
  };

  // Query strings seen before → their filter, so that a hit parses nothing. Dropped when members or
  // categories change (the generation moves): a name may then mean someone else.
  const filters = new Map<string, FeedFilter>();
  let filtersGeneration = feeds.generation();
  const knownFilter = (queryString: string) => {
    if (feeds.generation() !== filtersGeneration) {
      filters.clear();
      filtersGeneration = feeds.generation();
    }
    return filters.get(queryString);
  };

  async function build(query: URLSearchParams, queryString: string, client: string, current: FeedWindow): Promise<Reply> {
    const names = await feeds.names();
    const filter = parseFeedFilter(names, query);
    if (filters.size >= 4096) filters.clear();
    filters.set(queryString, filter);
    const cached = feeds.cached(filter, current);
    if (cached) return toReply(cached);
    return toReply(await feeds.build(names, filter, current, () => budget.take(client, FEED_BUILD_COST, TOO_MANY_BUILDS)));
  }

  function feed(ctx: Context): Reply | Promise<Reply> {
    if (ctx.queryString.length > MAX_QUERY_LENGTH) throw badRequest(`조회 조건이 너무 깁니다 (${MAX_QUERY_LENGTH}자 이하).`);
    const current = currentWindow();
    const filter = knownFilter(ctx.queryString);
    const cached = filter === undefined ? null : feeds.cached(filter, current);
    // The request's address and query are read before the first await (uWS frees the request then).
    return cached ? toReply(cached) : build(ctx.query, ctx.queryString, clientKey(ctx.ip), current);
  }

  return [{
    method: 'get', path: '/api/schedules/calendar.ics', handler: feed, cacheControl: FEED_CACHE,
    doc: {
      summary: 'Calendar feed (iCalendar) to subscribe to', tags: ['schedules'], query: FeedQuery,
      description: `RFC 5545 with RFC 7986 NAME, REFRESH-INTERVAL, IMAGE. Schedules dated from the first day of the month ${FEED_MONTHS_BEFORE} months before this month (Asia/Seoul) to the last day of the ${FEED_MONTHS_AFTER}th month after it, one VEVENT each (UID schedule-<id>@<host>, SEQUENCE grows with every change; timed ones in TZID=Asia/Seoul, untimed ones all-day), and the current members' birthdays as yearly all-day events (29 February: the last day of February). Filters: members (their schedules and birthdays), categories (ids; birthdays only when 10 is among them), birthdays=false leaves birthdays out. A member or category that names nothing → 400. Bounded: at most ${FEED_LIMITS.schedules} schedules (the earliest), a description cut at ${FEED_LIMITS.descriptionChars} characters ending in "…" and "전체 내용: <the schedule's URL>", a title at ${FEED_LIMITS.titleChars}, ${FEED_LIMITS.imagesPerEvent} images an event; control characters left out. A feed not in the cache costs the client ${FEED_BUILD_COST} of its query budget (QUERY_BUDGET_BURST, shared with search): past it 429 with Retry-After. Strong ETag; If-None-Match → 304; br/gzip.`,
      responses: { 200: 'text/calendar', 400: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse },
    },
  }];
}
