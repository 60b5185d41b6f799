// The calendar feed on the real server: every feed parsed with ical.js (Mozilla's
// parser, used by Thunderbird) and checked against the API's own month listing; the wire format
// (folding, escaping, time zone), caching (ETag, 304, compression, invalidation) and the filters.
import test from 'ava';
import ICAL from 'ical.js';
import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { feedWindow, type FeedWindow } from '../shared/schedules/calendar-feed.ts';
import { insertMember } from './helpers/factory.ts';
import { pngImage } from './helpers/images.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let token: string;
let window: FeedWindow;
let members: Array<{ id: number; name: string }>;
const ids: Record<string, number> = {};

const pad2 = (n: number) => String(n).padStart(2, '0');
const dayOf = (index: number, day: number) => `${window.months[index]!.year}-${pad2(window.months[index]!.month)}-${pad2(day)}`;
const LONG_TITLE = '루미네 단독 콘서트 〈빛의 정원〉 서울 공연 — 올림픽공원 KSPO DOME, 스탠딩·지정석; 티켓은 팬클럽 선예매 후 일반 예매';

test.before(async () => {
  service = await startTestService({ GROUP_NAMES: '루미네,LUMINE' });
  token = await adminToken(service.url);
  window = feedWindow(service.clock.now());
  members = [
    await insertMember(db(), { name: '한유리', nameEn: 'Yuri', birthDate: '2004-02-29' }),
    await insertMember(db(), { name: '정다은', birthDate: '2002-05-10' }),
    await insertMember(db(), { name: '최하늘', birthDate: '2003-08-01', isFormer: true }),
  ];
  const create = async (key: string, body: Record<string, unknown>) => {
    const response = await call(service.url, 'POST', '/api/schedules', { json: body, token });
    if (response.status !== 201) throw new Error(`${key}: ${response.status} ${JSON.stringify(response.body)}`);
    ids[key] = response.body.id;
  };
  await create('timed', { categoryId: 2, title: LONG_TITLE, date: dayOf(3, 14), time: '18:30', description: '첫째 줄, 쉼표; 세미콜론\\역슬래시\n둘째 줄', source: { name: '공식 카페', url: 'https://example.com/notice/7' }, memberIds: [members[0]!.id] });
  await create('untimed', { categoryId: 5, title: '디지털 싱글 발매', date: dayOf(0, 1), memberIds: [members[1]!.id] });
  await create('last', { categoryId: 1, title: '연말 시상식', date: dayOf(15, 28), time: '20:00' });
  await create('before', { categoryId: 1, title: '창 밖 (이전)', date: previousDay(window.from) });
  await create('after', { categoryId: 1, title: '창 밖 (이후)', date: window.to });
  const form = new FormData();
  form.append('payload', JSON.stringify({ title: '대학 축제', date: dayOf(4, 3), time: '19:00', schoolName: '한빛대학교', memberIds: [members[0]!.id, members[1]!.id],
    venue: { name: '대운동장', address: '서울 성북구 1', roadAddress: '서울 성북구 한빛로 1', lat: 37.5894, lng: 127.0327, map_id: 'feed-venue-1' } }));
  form.append('posters', new Blob([await pngImage(400, 300)]), 'poster.png');
  const event = await call(service.url, 'POST', '/api/admin/events', { body: form, token });
  if (event.status !== 201) throw new Error(`event: ${event.status}`);
  ids.event = event.body.id;
});
test.after.always(async () => {
  await service?.stop();
});

function previousDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

const db = () => service.running.services.db;

/** node:http, which (unlike fetch) leaves the body compressed. */
const rawGet = (path: string, headers: Record<string, string>) =>
  new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    request(`${service.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
const feed = (query = '', headers: Record<string, string> = {}) => fetch(`${service.url}/api/schedules/calendar.ics${query}`, { headers });

interface ParsedFeed {
  calendar: ICAL.Component;
  events: ICAL.Event[];
}

function parse(text: string): ParsedFeed {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return { calendar, events: calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent)) };
}

/** Occurrences of every event inside the window as listing-like rows: `id|date|time|title`. */
function occurrences(parsed: ParsedFeed): string[] {
  const rows: string[] = [];
  for (const event of parsed.events) {
    const uid = event.uid.split('@')[0]!;
    const row = (start: ICAL.Time) => {
      const date = `${start.year}-${pad2(start.month)}-${pad2(start.day)}`;
      const time = start.isDate ? '' : `${pad2(start.hour)}:${pad2(start.minute)}`;
      const id = uid.startsWith('birthday-') ? `${uid}-${start.year}` : uid.replace('schedule-', '');
      return `${id}|${date}|${time}|${event.summary}`;
    };
    if (event.isRecurring()) {
      const iterator = event.iterator();
      for (let next = iterator.next(); next && next.year <= window.months.at(-1)!.year; next = iterator.next()) {
        const date = `${next.year}-${pad2(next.month)}-${pad2(next.day)}`;
        if (date >= window.from && date < window.to) rows.push(row(next));
      }
    } else rows.push(row(event.startDate));
  }
  return rows.sort();
}

/** The month listing over the whole window, in the same row format. */
async function listingRows(keep: (item: any) => boolean = () => true): Promise<string[]> {
  const rows: string[] = [];
  for (const { year, month } of window.months) {
    const { body } = await call(service.url, 'GET', `/api/schedules?year=${year}&month=${month}`);
    for (const item of body.schedules.filter(keep)) rows.push(`${item.id}|${item.date}|${item.time ?? ''}|${item.title}`);
  }
  return rows.sort();
}

test.serial('the feed parses in ical.js and holds exactly the schedules and birthdays the month listing shows in its window', async (t) => {
  const response = await feed();
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'text/calendar; charset=utf-8');
  const parsed = parse(await response.text());
  const rows = occurrences(parsed);
  t.deepEqual(rows, await listingRows());
  t.true(rows.some((row) => row.startsWith(`${ids.timed}|`)));
  t.false(rows.some((row) => row.startsWith(`${ids.before}|`) || row.startsWith(`${ids.after}|`)));
  // Birthdays: current members only; 29 February on the last day of February.
  t.true(rows.some((row) => row.startsWith(`birthday-${members[0]!.id}-`)));
  t.false(rows.some((row) => row.startsWith(`birthday-${members[2]!.id}-`)));
  const leap = parsed.events.find((event) => event.uid.startsWith(`birthday-${members[0]!.id}@`))!;
  t.is(leap.component.getFirstPropertyValue('rrule')!.toString(), 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1');
});

test.serial('calendar and event properties: names, refresh, time zone, all-day dates, UID, sequence, URL, categories, location, geo, image', async (t) => {
  const parsed = parse(await (await feed()).text());
  const cal = parsed.calendar;
  t.is(cal.getFirstPropertyValue('name'), '루미네 일정');
  t.is(cal.getFirstPropertyValue('x-wr-calname'), '루미네 일정');
  t.is(cal.getFirstPropertyValue('refresh-interval')!.toString(), 'PT1H');
  t.is(cal.getFirstPropertyValue('x-published-ttl'), 'PT1H');
  t.is(cal.getFirstSubcomponent('vtimezone')!.getFirstPropertyValue('tzid'), 'Asia/Seoul');
  const byId = (id: number) => parsed.events.find((event) => event.uid === `schedule-${id}@127.0.0.1`)!;
  const timed = byId(ids.timed!);
  t.is(timed.summary, LONG_TITLE);
  t.is(timed.description, '첫째 줄, 쉼표; 세미콜론\\역슬래시\n둘째 줄\n\n출처: 공식 카페\n\n멤버: 한유리');
  t.is(timed.startDate.zone?.tzid, 'Asia/Seoul');
  t.is(timed.startDate.toUnixTime(), Date.parse(`${dayOf(3, 14)}T18:30:00+09:00`) / 1000);
  t.is(timed.component.getFirstPropertyValue('url'), 'https://example.com/notice/7');
  t.is(timed.component.getFirstPropertyValue('categories'), '공연');
  t.truthy(timed.component.getFirstPropertyValue('dtstamp'));
  t.truthy(timed.component.getFirstPropertyValue('last-modified'));
  const untimed = byId(ids.untimed!);
  t.true(untimed.startDate.isDate);
  t.true(untimed.endDate.isDate);
  const event = byId(ids.event!);
  t.is(event.location, '대운동장, 서울 성북구 한빛로 1');
  t.deepEqual(event.component.getFirstPropertyValue('geo'), [37.5894, 127.0327]);
  t.regex(String(event.component.getFirstPropertyValue('image')), new RegExp(`/event/${ids.event}/poster/01\\.png$`));
});

test.serial('wire format: CRLF lines of at most 75 octets, no UTF-8 character split by folding', async (t) => {
  const bytes = Buffer.from(await (await feed()).arrayBuffer());
  const text = bytes.toString('utf8');
  t.true(text.endsWith('END:VCALENDAR\r\n'));
  t.false(/[^\r]\n/.test(text));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  let folded = 0;
  for (let i = 0; i < bytes.length - 1; i++) {
    if (bytes[i] !== 0x0d || bytes[i + 1] !== 0x0a) continue;
    const line = bytes.subarray(start, i);
    t.true(line.length <= 75, `line of ${line.length} octets`);
    t.notThrows(() => decoder.decode(line)); // each physical line is whole UTF-8
    if (bytes[i + 2] === 0x20) folded++;
    start = i + 2;
  }
  t.true(folded > 0); // the long title was folded
});

test.serial('strong ETag, 304, br; a write inside the window shows at once, a SEQUENCE grows and the UID stays', async (t) => {
  const first = await feed();
  const etag = first.headers.get('etag')!;
  t.regex(etag, /^"[^"]+"$/);
  t.is((await feed('', { 'if-none-match': etag })).status, 304);
  const br = await rawGet('/api/schedules/calendar.ics', { 'accept-encoding': 'br' });
  t.is(br.headers['content-encoding'], 'br');
  t.is(brotliDecompressSync(br.body).toString(), await (await feed()).text());

  const before = parse(await first.text()).events.find((event) => event.uid === `schedule-${ids.untimed}@127.0.0.1`)!;
  const put = await call(service.url, 'PUT', `/api/schedules/${ids.untimed}`, { json: { categoryId: 5, title: '디지털 싱글 발매 (변경)', date: dayOf(0, 2) }, token });
  t.is(put.status, 200);
  const second = await feed();
  t.not(second.headers.get('etag'), etag);
  const after = parse(await second.text()).events.find((event) => event.uid === `schedule-${ids.untimed}@127.0.0.1`)!;
  t.is(after.summary, '디지털 싱글 발매 (변경)');
  t.true(after.sequence > before.sequence);

  // A write outside the window leaves the cached feed as it was.
  const unchanged = second.headers.get('etag')!;
  const outside = await call(service.url, 'POST', '/api/schedules', { json: { categoryId: 1, title: '먼 미래', date: `${window.months.at(-1)!.year + 2}-01-01` }, token });
  t.is(outside.status, 201);
  t.is((await feed('', { 'if-none-match': unchanged })).status, 304);
});

test('filters: members by name, English name or id; categories; birthdays=false', async (t) => {
  const yuri = occurrences(parse(await (await feed(`?members=${encodeURIComponent('한유리')}`)).text()));
  t.deepEqual(yuri, await listingRows((item) => item.members.some((m: { id: number }) => m.id === members[0]!.id)));
  t.deepEqual(occurrences(parse(await (await feed('?members=yuri')).text())), yuri);
  t.deepEqual(occurrences(parse(await (await feed(`?members=${members[0]!.id}`)).text())), yuri);

  const concerts = occurrences(parse(await (await feed('?categories=2')).text()));
  t.deepEqual(concerts, await listingRows((item) => item.category.id === 2));
  const birthdaysOnly = occurrences(parse(await (await feed('?categories=10')).text()));
  t.deepEqual(birthdaysOnly, await listingRows((item) => item.isBirthday === true));
  const noBirthdays = occurrences(parse(await (await feed('?birthdays=false')).text()));
  t.deepEqual(noBirthdays, await listingRows((item) => item.isBirthday !== true));
});

test('filters naming nothing are 400 with a Korean message', async (t) => {
  for (const [query, message] of [
    ['?members=없는사람', /알 수 없는 멤버/],
    ['?members=999999', /알 수 없는 멤버/],
    ['?categories=9999', /존재하지 않는 분류/],
    ['?categories=concert', /분류 ID/],
    ['?birthdays=maybe', /true 또는 false/],
    ['?members=', /값이 없습니다/],
    [`?members=${'a,'.repeat(1100)}`, /너무 깁니다/],
  ] as const) {
    const response = await call(service.url, 'GET', `/api/schedules/calendar.ics${query}`);
    t.is(response.status, 400, query.slice(0, 40));
    t.regex(response.body.error, message);
  }
});
