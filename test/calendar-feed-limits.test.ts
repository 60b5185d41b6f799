// The calendar feed's limits on the real server (docs/security.md, "Calendar feeds"): spellings of
// one filter share one cached feed and one charge; builds past the client's query budget are 429
// with Retry-After; concurrent misses share one build; long texts are cut as documented; control
// characters never reach the feed, which still parses in ical.js; the cache is bounded in bytes
// (FEED_CACHE_MB), least recently used out first.
import test from 'ava';
import ICAL from 'ical.js';
import { request } from 'node:http';
import { FEED_LIMITS } from '../shared/schedules/calendar-feed-render.ts';
import { feedWindow, type FeedWindow } from '../shared/schedules/calendar-feed.ts';
import { insertMember } from './helpers/factory.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const MiB = 1024 * 1024;
let service: TestService;
let window: FeedWindow;
let members: Array<{ id: number; name: string }>;
const ids: Record<string, number> = {};

const pad2 = (n: number) => String(n).padStart(2, '0');
const dayOf = (index: number, day: number) => `${window.months[index]!.year}-${pad2(window.months[index]!.month)}-${pad2(day)}`;
const db = () => service.running.services.db;

// Hangul syllables from a fixed pseudo-random sequence: text that compresses about as little as
// collected descriptions do, and the same bytes on every run.
let seed = 7;
const hangul = (length: number) => {
  let text = '';
  for (let i = 0; i < length; i++) text += String.fromCharCode(0xac00 + ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 11172));
  return text;
};

async function insertSchedule(fields: { categoryId: number; title: string; date: string; description?: string; sourceName?: string; sourceUrl?: string; memberIds?: number[] }): Promise<number> {
  const { id } = await db().one<{ id: number }>(
    'INSERT INTO schedules (category_id, title, date, description, source_name, source_url) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
    [fields.categoryId, fields.title, fields.date, fields.description ?? null, fields.sourceName ?? null, fields.sourceUrl ?? null],
  );
  for (const memberId of fields.memberIds ?? []) await db().none('INSERT INTO schedule_members (schedule_id, member_id) VALUES ($1, $2)', [id, memberId]);
  return id;
}

/** Schedules whose feed, with its br and gzip, holds more than half of FEED_CACHE_MB=1 and less than all of it. */
const BIG_EVENTS = 130;
const HOSTILE_TITLE = 'A\x0bB\x1b[31mRED\x1b[0m\x01\x7f\u0085\u009bC';

test.before(async () => {
  // 30 a client, 10 a build: three builds, then one more every ten seconds.
  service = await startTestService({ GROUP_NAMES: '루미네,LUMINE', QUERY_BUDGET_BURST: '30', QUERY_BUDGET_PER_SECOND: '1', FEED_CACHE_MB: '1' });
  window = feedWindow(service.clock.now());
  members = [
    await insertMember(db(), { name: '한유리', nameEn: 'Yuri', birthDate: '2004-02-29' }),
    await insertMember(db(), { name: '정다은', nameEn: 'Daeun', birthDate: '2002-05-10' }),
    await insertMember(db(), { name: '최하늘', birthDate: '2003-08-01' }),
  ];
  await insertSchedule({ categoryId: 1, title: '음악방송 출연', date: dayOf(3, 2), memberIds: [members[0]!.id, members[1]!.id] });
  await insertSchedule({ categoryId: 2, title: '단독 콘서트', date: dayOf(4, 9), memberIds: [members[2]!.id] });
  // Written as a collection bot would, controls and all (PostgreSQL text holds no NUL).
  ids.hostile = await insertSchedule({ categoryId: 7, title: HOSTILE_TITLE, date: dayOf(5, 3), description: 'line1\r\nline2\ttab\x08\rline3', sourceName: '공식\x1b채널', sourceUrl: 'https://example.com/x\r\nX-INJECTED:1' });
  ids.longWithUrl = await insertSchedule({ categoryId: 6, title: '긴 설명 영상', date: dayOf(6, 4), description: '가'.repeat(3000), sourceName: '공식 채널', sourceUrl: 'https://video.example.com/watch?v=long1' });
  // The cut falls inside a surrogate pair (🎤 at characters 1000-1001): the pair is kept whole or left out.
  ids.longNoUrl = await insertSchedule({ categoryId: 6, title: '제'.repeat(400), date: dayOf(6, 5), description: `${'a'.repeat(FEED_LIMITS.descriptionChars - 1)}🎤${'b'.repeat(2000)}` });
  for (let i = 0; i < BIG_EVENTS; i++) await insertSchedule({ categoryId: 3, title: `팬사인회 ${i}`, date: dayOf(i % 16, 1 + (i % 28)), description: hangul(1200) });
  for (let i = 0; i < BIG_EVENTS; i++) await insertSchedule({ categoryId: 8, title: `화보 ${i}`, date: dayOf(i % 16, 1 + (i % 28)), description: hangul(1200) });
  service.running.services.monthlyCache.invalidateAll(); // written behind the service's back
});
test.after.always(async () => {
  await service?.stop();
});

const feed = (query: string, client: string) => fetch(`${service.url}/api/schedules/calendar.ics${query}`, { headers: { 'x-forwarded-for': client } });

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${service.metricsUrl}/metrics`)).text();
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  if (!match) throw new Error(`no metric ${name}`);
  return Number(match[1]);
}
const builds = () => metric('calendar_feed_builds_total');

/** Bytes of an answer as sent (node:http leaves a compressed body compressed). */
const sentBytes = (query: string, client: string, encoding: string) =>
  new Promise<number>((resolve, reject) => {
    request(`${service.url}/api/schedules/calendar.ics${query}`, { headers: { 'x-forwarded-for': client, 'accept-encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve(bytes));
    }).on('error', reject).end();
  });

function parse(text: string): ICAL.Event[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
}

test.serial('spellings of one filter (ids in any order, names, a repeat, every category named) share one cached feed, built and charged once', async (t) => {
  const client = '203.0.113.1';
  const [yuri, daeun, haneul] = members.map((m) => m.id) as [number, number, number];
  const allCategories = Array.from({ length: 11 }, (_, i) => 11 - i).join(',');
  const before = await builds();
  const spellings = [`?members=${yuri},${daeun}`, `?members=${daeun},${yuri}`, `?members=Daeun,${encodeURIComponent('한유리')}`, `?members=${yuri},yuri,${daeun}`, `?members=${daeun},${yuri}&categories=${allCategories}&birthdays=true&unknown=1`];
  const etags = new Set<string>();
  for (const query of spellings) {
    const response = await feed(query, client);
    t.is(response.status, 200, query);
    etags.add(response.headers.get('etag')!);
    await response.arrayBuffer();
  }
  t.is(etags.size, 1);
  t.is((await builds()) - before, 1);
  // Charged once: two more builds fit the budget of three, the one after does not.
  t.is((await feed(`?members=${yuri}`, client)).status, 200);
  t.is((await feed(`?members=${daeun}`, client)).status, 200);
  t.is((await feed(`?members=${haneul}`, client)).status, 429);
});

test.serial('uncached builds past the client budget are 429 with Retry-After and a Korean {error, code}; cached feeds and other clients still get theirs', async (t) => {
  const client = '203.0.113.2';
  for (const query of ['?categories=1', '?categories=2', '?categories=4']) t.is((await feed(query, client)).status, 200, query);
  const refused = await feed('?categories=5', client);
  t.is(refused.status, 429);
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.true(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 10, `Retry-After ${refused.headers.get('retry-after')}`);
  const body = (await refused.json()) as { error: string; code: string };
  t.is(body.code, 'rate_limited');
  t.regex(body.error, /캘린더 피드 요청이 너무 많습니다/);
  t.is((await feed('?categories=1', client)).status, 200); // cached: costs nothing
  t.is((await feed('?categories=5', '203.0.113.3')).status, 200);
});

test.serial('concurrent requests for one uncached feed share one build and one charge', async (t) => {
  const before = await builds();
  const answers = await Promise.all(Array.from({ length: 6 }, () => feed('?categories=8', '203.0.113.4')));
  t.deepEqual(answers.map((r) => r.status), [200, 200, 200, 200, 200, 200]);
  t.is(new Set(answers.map((r) => r.headers.get('etag'))).size, 1);
  await Promise.all(answers.map((r) => r.arrayBuffer()));
  t.is((await builds()) - before, 1);
});

test.serial(`a description over ${FEED_LIMITS.descriptionChars} characters is cut with "…" and a link to the whole (the schedule's URL, else its detail); a title over ${FEED_LIMITS.titleChars} with "…"`, async (t) => {
  const response = await feed('?categories=6', '203.0.113.5');
  t.is(response.status, 200);
  const events = parse(await response.text());
  const byId = (id: number) => events.find((event) => event.uid === `schedule-${id}@127.0.0.1`)!;
  t.is(byId(ids.longWithUrl!).description, `${'가'.repeat(FEED_LIMITS.descriptionChars)}…\n전체 내용: https://video.example.com/watch?v=long1\n\n출처: 공식 채널`);
  t.is(byId(ids.longNoUrl!).description, `${'a'.repeat(FEED_LIMITS.descriptionChars - 1)}…\n전체 내용: ${service.url}/api/schedules/${ids.longNoUrl}`);
  t.is(byId(ids.longNoUrl!).summary, `${'제'.repeat(FEED_LIMITS.titleChars)}…`);
});

test.serial('control characters (C0 but tab and line feed, DEL, C1) never appear in a feed, line breaks in a URL start no property, and the feed parses in ical.js', async (t) => {
  const response = await feed('?categories=7', '203.0.113.6');
  t.is(response.status, 200);
  const bytes = Buffer.from(await response.arrayBuffer());
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x0d) t.is(bytes[i + 1], 0x0a, `CR at ${i} not followed by LF`);
    else if (byte === 0x0a) t.is(bytes[i - 1], 0x0d, `LF at ${i} without CR`);
    else if ((byte < 0x20 && byte !== 0x09) || byte === 0x7f) t.fail(`control byte 0x${byte.toString(16)} at ${i}`);
  }
  const text = bytes.toString('utf8');
  t.false(/[\u0080-\u009f]/.test(text), 'a C1 control');
  t.false(/\r\nX-INJECTED/.test(text.replace(/\r\n /g, '')));
  const event = parse(text).find((e) => e.uid === `schedule-${ids.hostile}@127.0.0.1`)!;
  t.is(event.summary, 'AB[31mRED[0mC');
  t.is(event.description, 'line1\nline2\ttab\nline3\n\n출처: 공식채널');
  t.is(event.component.getFirstPropertyValue('url'), 'https://example.com/xX-INJECTED:1');
});

test.serial('the feed cache is bounded in bytes (FEED_CACHE_MB): the least recently used feed is evicted and built again; a feed larger than the whole budget is served, never kept', async (t) => {
  const client = '203.0.113.7';
  const first = await feed('?categories=3', client);
  t.is(first.status, 200);
  await first.arrayBuffer();
  let entry = 0;
  for (const encoding of ['identity', 'br', 'gzip']) entry += await sentBytes('?categories=3', client, encoding);
  t.true(entry > MiB / 2 && entry < MiB, `precondition: the feed and its variants take ${entry} bytes: more than half the cache, less than all`);
  const evictionsBefore = await metric('calendar_feed_cache_evictions_total');
  const before = await builds();
  await (await feed('?categories=3', client)).arrayBuffer(); // cached
  t.is((await builds()) - before, 0);
  await (await feed('?categories=3,4', client)).arrayBuffer(); // another big feed: the first makes room
  t.is((await builds()) - before, 1);
  t.true((await metric('calendar_feed_cache_evictions_total')) > evictionsBefore);
  t.true((await metric('calendar_feed_cache_bytes')) <= MiB);
  const again = await feed('?categories=3', client);
  t.is(again.status, 200);
  await again.arrayBuffer();
  t.is((await builds()) - before, 2, 'the evicted feed was built again');

  // Both big categories in one feed: over 1 MiB with its variants.
  const entries = await metric('calendar_feed_cache_entries');
  const huge = await feed('?categories=3,8', '203.0.113.8');
  t.is(huge.status, 200);
  t.true((await huge.arrayBuffer()).byteLength > MiB / 2);
  t.true((await metric('calendar_feed_cache_bytes')) <= MiB);
  t.is(await metric('calendar_feed_cache_entries'), entries);
  await (await feed('?categories=3,8', '203.0.113.8')).arrayBuffer();
  t.is((await builds()) - before, 4, 'not kept: built again');
});
