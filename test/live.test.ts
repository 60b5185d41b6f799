// The live calendar on the real server (docs/live.md): real WebSocket and EventSource clients see
// every kind of schedule change of the months they watch, and no other; they resume from their
// last seq without losing or repeating a change; bad subscriptions, limits and slow readers are
// answered as documented.
import test from 'ava';
import { connect } from 'node:net';
import { insertMember } from './helpers/factory.ts';
import { LiveEventSource, LiveSocket, type LiveMessage } from './helpers/live-clients.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';
import { appendLiveChanges, pruneChangeLog } from '../shared/live/change-log.ts';
import { TOPICS } from '../shared/bus/bus.ts';

let service: TestService;
let token: string;
let member: { id: number; name: string };
const open: Array<{ close(): void }> = [];

test.before(async () => {
  service = await startTestService({ LIVE_MAX_CONNECTIONS_PER_CLIENT: '3', LIVE_MAX_BUFFERED_KB: '16', LIVE_HEARTBEAT_SECONDS: '1' });
  token = await adminToken(service.url);
  member = await insertMember(db(), { name: '김하늘' });
});
test.after.always(async () => {
  for (const client of open) client.close();
  await service?.stop();
});

const db = () => service.running.services.db;
const send = (method: string, path: string, json?: unknown) => call(service.url, method, path, { json, token });
let addresses = 0;
/** Each client from its own address (the test service trusts X-Forwarded-For): the per-client limit is 3. */
const from = () => ({ 'x-forwarded-for': `10.77.${(++addresses >> 8) & 255}.${addresses & 255}` });
const socket = async (headers: Record<string, string> = from()) => {
  const live = await LiveSocket.open(service.url, headers);
  open.push(live);
  return live;
};
const events = (query: string, headers: Record<string, string> = from()) => {
  const source = LiveEventSource.open(service.url, query, headers);
  open.push(source);
  return source;
};
let n = 0;
const general = (date: string, overrides: Record<string, unknown> = {}) => ({ categoryId: 2, title: `실시간 공연 ${++n}`, date, time: '18:00', memberIds: [member.id], ...overrides });
const listing = async (month: string) => (await call(service.url, 'GET', `/api/schedules?year=${Number(month.slice(0, 4))}&month=${Number(month.slice(5))}`)).body.schedules as Array<Record<string, any>>;
const changeOf = (id: number | string, type: string) => (m: LiveMessage) => m.type === type && m.id === id;

test('a general schedule created, moved to another month and deleted reaches each month\'s subscribers once, and the listing reads it', async (t) => {
  const [may, june, both, july] = await Promise.all([socket(), socket(), socket(), socket()]);
  const subscribed = await may.subscribe(['2031-05']);
  t.true(Number.isInteger(subscribed.seq));
  await june.subscribe(['2031-06']);
  await both.subscribe(['2031-05', '2031-06']);
  await july.subscribe(['2031-07']);
  const sse = events('months=2031-05');
  await sse.next((e) => e.type === 'subscribed');

  const created = await send('POST', '/api/schedules', general('2031-05-10'));
  t.is(created.status, 201);
  const id = created.body.id as number;
  const message = await may.next(changeOf(id, 'schedule.created'));
  t.deepEqual(message.months, ['2031-05']);
  t.true(message.seq! > subscribed.seq!);
  // The same item the month listing returns, and the listing already shows it.
  t.deepEqual(message.schedule, (await listing('2031-05')).find((item) => item.id === id));
  const event = await sse.next((e) => e.type === 'schedule.created' && e.data.id === id);
  t.is(event.lastEventId, String(message.seq));
  t.deepEqual(event.data, message);

  const moved = await send('PUT', `/api/schedules/${id}`, general('2031-06-02', { title: '옮긴 공연' }));
  t.is(moved.status, 200);
  const update = await june.next(changeOf(id, 'schedule.updated'));
  t.deepEqual(update.months, ['2031-05', '2031-06']);
  t.is(update.schedule!.date, '2031-06-02');
  t.deepEqual(update.schedule, (await listing('2031-06')).find((item) => item.id === id));
  await may.next(changeOf(id, 'schedule.updated'));

  t.is((await send('DELETE', `/api/schedules/${id}`)).status, 200);
  const deleted = await june.next(changeOf(id, 'schedule.deleted'));
  t.is(deleted.schedule, null);
  t.deepEqual(deleted.months, ['2031-06']);
  t.false((await listing('2031-06')).some((item) => item.id === id));

  await both.next(changeOf(id, 'schedule.deleted'));
  // Watching both months: each change once, in seq order.
  const seen = both.changes().filter((m) => m.id === id);
  t.deepEqual(seen.map((m) => m.type), ['schedule.created', 'schedule.updated', 'schedule.deleted']);
  t.deepEqual(seen.map((m) => m.seq), [...seen.map((m) => m.seq!)].sort((a, b) => a - b));
  // May did not hear of the delete in June; July heard nothing.
  t.false(may.changes().some(changeOf(id, 'schedule.deleted')));
  t.false(july.changes().some((m) => m.id === id));
});

const form = (payload: unknown) => {
  const data = new FormData();
  data.append('payload', JSON.stringify(payload));
  return data;
};
const sendForm = (method: string, path: string, payload: unknown) => call(service.url, method, path, { body: form(payload), token });
const venue = (k: number) => ({ name: `실시간 무대 ${k}`, address: '서울 송파구 올림픽로 424', roadAddress: '올림픽로 424', lat: 37.52, lng: 127.12, map_id: `live-map-${k}-${Date.now()}` });

test('events, video schedules, a bot\'s collected video and a member\'s birthday reach their months; a category change is a reset', async (t) => {
  const watcher = await socket();
  await watcher.subscribe(['2031-09', '2031-10', '2031-03', '2031-04', '2030-03']);
  const elsewhere = await socket();
  await elsewhere.subscribe(['2031-11']);
  const sse = events('months=2031-09,2031-03');
  await sse.next((e) => e.type === 'subscribed');

  // An event: created, updated, deleted (multipart, as the admin console sends it).
  const created = await sendForm('POST', '/api/admin/events', { title: '축제 무대', date: '2031-09-20', time: '19:00', schoolName: '실시간대학교', memberIds: [member.id], venue: venue(1) });
  t.is(created.status, 201, JSON.stringify(created.body));
  const eventId = created.body.id as number;
  const event = await watcher.next(changeOf(eventId, 'schedule.created'));
  t.like(event.schedule, { id: eventId, subtype: 'university', schoolName: '실시간대학교', venue: { name: venue(1).name } });
  t.deepEqual(event.schedule, (await listing('2031-09')).find((item) => item.id === eventId));
  t.is((await sendForm('PUT', `/api/admin/events/${eventId}`, { title: '축제 무대 2부', date: '2031-10-01', time: '20:00', schoolName: '실시간대학교', memberIds: [member.id] })).status, 200);
  const moved = await watcher.next(changeOf(eventId, 'schedule.updated'));
  t.deepEqual(moved.months, ['2031-09', '2031-10']);
  t.is(moved.schedule!.title, '축제 무대 2부');
  t.is((await send('DELETE', `/api/admin/events/${eventId}`)).status, 200);
  t.is((await watcher.next(changeOf(eventId, 'schedule.deleted'))).schedule, null);
  t.is((await sse.next((e) => e.type === 'schedule.created' && e.data.id === eventId)).data.schedule!.title, '축제 무대');

  // A video saved by an administrator, then edited.
  const video = await send('POST', '/api/admin/video/schedule', { videoId: 'liveVideo01', title: '브이로그', date: '2031-09-03', time: '12:00', memberIds: [member.id] });
  t.is(video.status, 201, JSON.stringify(video.body));
  const videoId = video.body.id as number;
  const saved = await watcher.next(changeOf(videoId, 'schedule.created'));
  t.like(saved.schedule, { title: '브이로그', category: { id: 6 } });
  t.deepEqual(saved.schedule, (await listing('2031-09')).find((item) => item.id === videoId));
  t.is((await send('PUT', `/api/admin/video/schedule/${videoId}`, { title: '브이로그 (수정)' })).status, 200);
  t.is((await watcher.next(changeOf(videoId, 'schedule.updated'))).schedule!.title, '브이로그 (수정)');

  // What a bot collected: through the bus and the schedule writer actor.
  await service.running.services.bus.publish(TOPICS.videoCollected, 'liveVideo02', {
    videoId: 'liveVideo02', title: '봇이 찾은 영상', description: '', channelId: null, channelName: '공식 채널', publishedAt: '2031-09-05T03:00:00Z',
    date: '2031-09-05', time: '12:00', thumbnailUrl: null, videoType: 'video', memberIds: [member.id], botId: null,
  });
  const collected = await watcher.next((m) => m.type === 'schedule.created' && m.schedule?.title === '봇이 찾은 영상', 0, 30_000);
  t.deepEqual(collected.schedule, (await listing('2031-09')).find((item) => item.id === collected.id));

  // A birthday appears in every year it is listed: one message per watched year.
  const memberPath = `/api/members/${encodeURIComponent(member.name)}`;
  t.is((await sendForm('PUT', memberPath, { birthDate: '2001-03-15' })).status, 200);
  const birthday = await watcher.next(changeOf(`birthday-${member.id}-2031`, 'schedule.created'));
  t.deepEqual(birthday.months, ['2031-03']);
  t.deepEqual(birthday.schedule, (await listing('2031-03')).find((item) => item.id === `birthday-${member.id}-2031`));
  await watcher.next(changeOf(`birthday-${member.id}-2030`, 'schedule.created'));
  await sse.next((e) => e.type === 'schedule.created' && e.data.id === `birthday-${member.id}-2031`);
  t.is((await sendForm('PUT', memberPath, { birthDate: '2001-04-02' })).status, 200);
  const movedBirthday = await watcher.next(changeOf(`birthday-${member.id}-2031`, 'schedule.updated'));
  t.deepEqual(movedBirthday.months, ['2031-03', '2031-04']);
  t.is(movedBirthday.schedule!.date, '2031-04-02');
  // 2030 only watches March: the birthday left it.
  t.is((await watcher.next(changeOf(`birthday-${member.id}-2030`, 'schedule.updated'))).schedule!.date, '2030-04-02');

  // Categories are in every month's items: everyone refetches.
  const before = watcher.messages.length;
  t.is((await send('PUT', '/api/schedule-categories/2', { color: '#123456' })).status, 200);
  const reset = await watcher.next((m) => m.type === 'reset', before);
  await elsewhere.next((m) => m.type === 'reset' && m.seq === reset.seq);
  await sse.next((e) => e.type === 'reset' && e.data.seq === reset.seq);

  t.deepEqual(elsewhere.changes().filter((m) => m.type !== 'reset'), [], 'nothing of other months');
  t.true((await metric('live_messages_sent_total{transport="websocket"}')) > 0);
  t.true((await metric('live_messages_sent_total{transport="sse"}')) > 0);
  t.true((await metric('live_delivery_lag_seconds_count')) > 0);
  const seqs = watcher.changes().map((m) => m.seq!);
  t.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'in seq order');
});

test.serial('a WebSocket resuming with since receives exactly what it missed, in order, then the live changes', async (t) => {
  const first = await socket();
  const { seq: start } = await first.subscribe(['2032-01']);
  const created = await send('POST', '/api/schedules', general('2032-01-05'));
  const seen = await first.next(changeOf(created.body.id, 'schedule.created'));
  first.close();
  await first.closed;
  const missed: number[] = [];
  for (const date of ['2032-01-06', '2032-02-01', '2032-01-07', '2032-01-08']) {
    const response = await send('POST', '/api/schedules', general(date));
    if (date.startsWith('2032-01')) missed.push(response.body.id);
  }
  t.is((await send('DELETE', `/api/schedules/${missed[0]}`)).status, 200);

  const again = await socket();
  const subscribed = await again.subscribe(['2032-01'], seen.seq);
  const replayed = again.messages.slice(0, again.messages.indexOf(subscribed));
  // The deleted schedule's creation is a tombstone now: what was deleted is not readable from the log.
  t.deepEqual(replayed.map((m) => [m.type, m.id]), [['schedule.deleted', missed[0]], ...missed.slice(1).map((id) => ['schedule.created', id]), ['schedule.deleted', missed[0]]]);
  t.true(replayed.every((m, i) => i === 0 || m.seq! > replayed[i - 1]!.seq!));
  t.true(replayed[0]!.seq! > seen.seq! && seen.seq! > start!);
  t.true(subscribed.seq! >= replayed.at(-1)!.seq!);
  t.is(replayed[0]!.schedule, null);
  t.deepEqual(replayed[1]!.schedule, { ...replayed[1]!.schedule, id: missed[1] });
  // Then live, once.
  const later = await send('POST', '/api/schedules', general('2032-01-09'));
  await again.next(changeOf(later.body.id, 'schedule.created'));
  t.is(again.changes().filter((m) => m.id === later.body.id).length, 1);
  // Resuming from the newest seq: nothing replayed.
  const current = await socket();
  const caughtUp = await current.subscribe(['2032-01'], (await again.next(changeOf(later.body.id, 'schedule.created'))).seq);
  t.is(current.messages.indexOf(caughtUp), 0);
});

test.serial('an EventSource resumes with Last-Event-ID, or with since in the address', async (t) => {
  const first = events('months=2032-03');
  await first.next((e) => e.type === 'subscribed');
  const a = await send('POST', '/api/schedules', general('2032-03-01'));
  const seen = await first.next((e) => e.data.id === a.body.id);
  first.close();
  const missed = [];
  for (let i = 2; i <= 4; i++) missed.push((await send('POST', '/api/schedules', general(`2032-03-0${i}`))).body.id);

  const byHeader = events('months=2032-03', { ...from(), 'last-event-id': seen.lastEventId });
  const subscribed = await byHeader.next((e) => e.type === 'subscribed');
  t.deepEqual(byHeader.changes().map((e) => e.data.id), missed);
  t.deepEqual(byHeader.changes().map((e) => e.lastEventId), byHeader.changes().map((e) => String(e.data.seq)));
  t.is(subscribed.lastEventId, String(subscribed.data.seq));

  const bySince = events(`months=2032-03&since=${seen.lastEventId}`);
  await bySince.next((e) => e.type === 'subscribed');
  t.deepEqual(bySince.changes().map((e) => e.data.id), missed);
});

test.serial('resuming from before the retention window gets one reset, then the live changes', async (t) => {
  const old = await socket();
  const { seq } = await old.subscribe(['2032-05']);
  await send('POST', '/api/schedules', general('2032-05-01'));
  await send('POST', '/api/schedules', general('2032-05-02'));
  // A change is kept while it is younger than the window or among the newest changes.
  t.is(await pruneChangeLog(db(), { hours: 24, changes: 1 }), 0, 'younger than the window');
  t.is(await pruneChangeLog(db(), { hours: 0, changes: 1_000_000 }), 0, 'among the newest');
  // What the actors role does after 24 hours and 10,000 newer changes, here at once.
  t.true((await pruneChangeLog(db(), { hours: 0, changes: 1 })) > 0);
  old.close();

  const back = await socket();
  const subscribed = await back.subscribe(['2032-05'], seq);
  t.deepEqual(back.messages.map((m) => m.type), ['reset', 'subscribed']);
  t.is(back.messages[0]!.seq, subscribed.seq);
  const sse = events(`months=2032-05&since=${seq}`);
  const reset = await sse.next((e) => e.type === 'reset');
  t.is(reset.lastEventId, String(reset.data.seq));
  const later = await send('POST', '/api/schedules', general('2032-05-03'));
  await back.next(changeOf(later.body.id, 'schedule.created'));
  await sse.next((e) => e.data.id === later.body.id);
  // A seq this log never reached (another database, a restore) is a reset too.
  const stranger = await socket();
  await stranger.subscribe(['2032-05'], 10_000_000);
  t.is(stranger.messages[0]!.type, 'reset');
});

test('a bad subscribe message gets an error message, then close 1008', async (t) => {
  const cases: Array<[unknown, string]> = [
    ['not json', 'invalid_message'],
    [{ type: 'watch', months: ['2031-05'] }, 'unknown_type'],
    [{ type: 'subscribe', months: ['2031-13'] }, 'invalid_month'],
    [{ type: 'subscribe', months: [] }, 'invalid_months'],
    [{ type: 'subscribe', months: Array.from({ length: 25 }, (_, i) => `20${30 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`) }, 'too_many_months'],
    [{ type: 'subscribe', months: ['2031-05'], since: -1 }, 'invalid_since'],
    [{ type: 'subscribe', months: ['2031-05'], since: '12' }, 'invalid_since'],
  ];
  for (const [message, code] of cases) {
    const live = await socket();
    live.send(message);
    const { code: closeCode } = await live.closed;
    t.is(closeCode, 1008, code);
    t.like(live.messages[0], { type: 'error', code }, code);
    t.regex(String(live.messages[0]!.error), /[가-힣]/);
  }
  // A ping is answered; an unsubscribe stops the month.
  const live = await socket();
  live.send({ type: 'ping' });
  await live.next((m) => m.type === 'pong');
  await live.subscribe(['2031-12', '2030-12']);
  live.send({ type: 'unsubscribe', months: ['2031-12'] });
  await live.next((m) => m.type === 'unsubscribed');
  const created = await send('POST', '/api/schedules', general('2031-12-24'));
  const other = await send('POST', '/api/schedules', general('2030-12-24'));
  await live.next(changeOf(other.body.id, 'schedule.created'));
  t.false(live.messages.some((m) => m.id === created.body.id));
});

test('the event stream: 400 for bad months or since, 406 without Accept: text/event-stream, comment lines keep it open', async (t) => {
  const get = (query: string, headers: Record<string, string> = { accept: 'text/event-stream', ...from() }) => call(service.url, 'GET', `/api/schedules/live${query}`, { headers });
  for (const [query, code] of [['', 'invalid_months'], ['?months=2031-5', 'invalid_month'], ['?months=2031-05&since=x', 'invalid_since'], [`?months=${Array.from({ length: 25 }, (_, i) => `2030-${String((i % 12) + 1).padStart(2, '0')}`).map((m, i) => (i >= 12 ? m.replace('2030', '2031') : m)).slice(0, 24).join(',')},2032-01`, 'too_many_months']] as const) {
    const response = await get(query);
    t.is(response.status, 400, query);
    t.is(response.body.code, code, query);
  }
  const plain = await get('?months=2031-05', {});
  t.is(plain.status, 406);
  t.is(plain.body.code, 'not_acceptable');

  const controller = new AbortController();
  const response = await fetch(`${service.url}/api/schedules/live?months=2031-08`, { headers: { accept: 'text/event-stream', ...from() }, signal: controller.signal });
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type')!, /^text\/event-stream/);
  t.is(response.headers.get('x-accel-buffering'), 'no');
  t.is(response.headers.get('access-control-allow-origin'), '*');
  const reader = response.body!.getReader();
  let text = '';
  const deadline = Date.now() + 10_000;
  while (!text.includes(': keep-alive\n\n') && Date.now() < deadline) text += new TextDecoder().decode((await reader.read()).value);
  t.true(text.includes(': keep-alive\n\n'), text);
  controller.abort();
});

test('a forwarded client entry that is not an address is refused before the stream opens: SSE 400, WebSocket upgrade 400', async (t) => {
  const bad = { 'x-forwarded-for': 'not-an-address' };
  const sse = await call(service.url, 'GET', '/api/schedules/live?months=2031-05', { headers: { accept: 'text/event-stream', ...bad } });
  t.is(sse.status, 400);
  t.is(sse.body.code, 'invalid_client_address');
  const refused = await t.throwsAsync(LiveSocket.open(service.url, bad));
  t.regex(refused!.message, /400/);
  // The same address written with a port is the same client, and accepted.
  const live = await LiveSocket.open(service.url, { 'x-forwarded-for': '198.51.100.77:4433' });
  t.teardown(() => live.socket.close());
  t.is((await live.subscribe(['2031-05'])).type, 'subscribed');
});

test('per-client limit: the fourth connection of one address is refused (WebSocket close 1008, SSE 429)', async (t) => {
  const address = from();
  const held = [await socket(address), await socket(address), await socket(address)];
  const fourth = await socket(address);
  t.is((await fourth.closed).code, 1008);
  t.like(fourth.messages[0], { type: 'error', code: 'too_many_connections' });
  const sse = await call(service.url, 'GET', '/api/schedules/live?months=2031-05', { headers: { accept: 'text/event-stream', ...address } });
  t.is(sse.status, 429);
  t.is(sse.body.code, 'too_many_connections');
  t.truthy(sse.headers.get('retry-after'));
  t.true((await metric('live_connections_refused_total{limit="client"}')) >= 2);
  t.true((await metric('live_subscribers{transport="websocket"}')) >= 3);
  // A connection closed is a connection given back.
  held[0]!.close();
  await held[0]!.closed;
  const again = await socket(address);
  await again.subscribe(['2031-05']);
  t.pass();
});

/** Rows of about `bytes` each, written to the change log for `month` as a write would, without the schedules behind them. */
async function bigChanges(month: string, count: number, bytes: number): Promise<void> {
  const item = { id: 1, title: 'x'.repeat(bytes), date: `${month}-01`, time: null, category: { id: 2, name: '공연', color: '#000000' }, source_name: null, source_url: null, members: [], is_event: false };
  await db().none(`INSERT INTO live_changes (kind, target_id, months, item) SELECT 'updated', 1, ARRAY[$1], $2::jsonb FROM generate_series(1, $3)`, [month, JSON.stringify(item), count]);
  service.running.services.live?.wake();
}
const metric = async (name: string) => {
  const text = await (await fetch(`${service.metricsUrl}/metrics`)).text();
  return Number(new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? 'NaN');
};

test.serial('a subscriber that does not read is dropped past its buffer limit; one that reads gets everything', async (t) => {
  const reader = await socket();
  const { seq } = await reader.subscribe(['2033-01']);
  const stalled = await socket();
  await stalled.subscribe(['2033-01']);
  // An EventSource that reads: its stream is congested by the bursts and must catch up, not be dropped.
  const sseReader = events('months=2033-01');
  await sseReader.next((e) => e.type === 'subscribed');
  (stalled.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
  // An event stream whose client never reads: a bare TCP connection.
  const address = from()['x-forwarded-for'];
  const raw = connect(Number(new URL(service.url).port), '127.0.0.1');
  raw.on('error', () => undefined);
  raw.write(`GET /api/schedules/live?months=2033-01 HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nX-Forwarded-For: ${address}\r\n\r\n`);
  raw.pause();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const droppedBefore = { ws: await metric('live_subscribers_dropped_total{transport="websocket"}'), sse: await metric('live_subscribers_dropped_total{transport="sse"}') };

  // 24 MB in bursts of 2 MB, past what the loopback socket buffers hold for the stalled clients.
  for (let burst = 0; burst < 12; burst++) {
    await bigChanges('2033-01', 20, 100 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
  await reader.next(() => reader.changes().length >= 240, 0, 60_000);
  const got = reader.changes();
  t.is(got.length, 240);
  await sseReader.next(() => sseReader.changes().length >= 240, 0, 60_000);
  t.deepEqual(sseReader.changes().map((e) => e.data.seq), got.map((m) => m.seq));
  t.true(got.every((m, i) => m.seq === (i === 0 ? got[0]!.seq : got[i - 1]!.seq! + 1)) && got[0]!.seq! > seq!);
  const { ws, sse } = { ws: await metric('live_subscribers_dropped_total{transport="websocket"}'), sse: await metric('live_subscribers_dropped_total{transport="sse"}') };
  t.is(ws, droppedBefore.ws + 1);
  t.is(sse, droppedBefore.sse + 1);
  // The stalled socket, reading again, finds a gap-free prefix and then the close: it resumes with its last seq.
  (stalled.socket as unknown as { _socket: { resume(): void } })._socket.resume();
  await stalled.closed;
  const partial = stalled.changes();
  t.true(partial.length < 240);
  t.true(partial.every((m, i) => i === 0 || m.seq === partial[i - 1]!.seq! + 1));
  raw.destroy();
});

test('the AsyncAPI document is valid AsyncAPI 3.0, names both transports, and the API reference links it', async (t) => {
  const { Parser } = await import('@asyncapi/parser');
  const response = await call(service.url, 'GET', '/api/asyncapi.json');
  t.is(response.status, 200);
  const diagnostics = await new Parser().validate(JSON.stringify(response.body));
  t.deepEqual(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`), []);
  t.is(response.body.asyncapi, '3.0.0');
  t.deepEqual(Object.keys(response.body.channels).sort(), ['liveEventStream', 'liveWebSocket']);
  const openapi = (await call(service.url, 'GET', '/api/openapi.json')).body;
  const live = openapi.paths['/api/schedules/live'].get;
  t.truthy(live.responses['200'].content['text/event-stream']);
  t.deepEqual(live.parameters.map((p: { name: string }) => p.name).sort(), ['months', 'since']);
  t.regex(live.description, /\/api\/asyncapi\.json/);
});

test('a process-wide limit (503, close 1013) and an idle timeout for a WebSocket that answers no ping', async (t) => {
  const small = await startTestService({ LIVE_MAX_CONNECTIONS: '2', LIVE_MAX_NETWORK_SHARE_PERCENT: '100', LIVE_IDLE_TIMEOUT_SECONDS: '8' });
  try {
    const silent = new LiveSocket(new (await import('ws')).default(`${small.url.replace('http', 'ws')}/api/schedules/live`, { autoPong: false, headers: from() }));
    await silent.opened;
    const answering = await LiveSocket.open(small.url, from());
    await answering.subscribe(['2031-05']);
    const third = await LiveSocket.open(small.url, from());
    t.is((await third.closed).code, 1013);
    t.like(third.messages[0], { type: 'error', code: 'server_busy' });
    const sse = await call(small.url, 'GET', '/api/schedules/live?months=2031-05', { headers: { accept: 'text/event-stream', ...from() } });
    t.is(sse.status, 503);
    t.is(sse.body.code, 'server_busy');
    // uWS pings after the idle time and closes a socket that does not answer; the one that answers stays.
    const startedAt = Date.now();
    await silent.closed;
    t.true(Date.now() - startedAt >= 4_000, `closed after ${Date.now() - startedAt} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    t.is(answering.socket.readyState, answering.socket.OPEN);
    answering.close();
  } finally {
    await small.stop();
  }
});

test('seq order is commit order: a change that took its seq first commits before any later one is visible', async (t) => {
  const entry = (targetId: number) => [{ kind: 'deleted' as const, targetId, months: ['2035-01'] }];
  let releaseFirst!: () => void;
  const holding = new Promise<void>((resolve) => (releaseFirst = resolve));
  let firstCommitted = false;
  const first = db().tx(async (tx) => {
    await appendLiveChanges(tx, entry(900_001));
    await holding; // a slow writer: its seq is taken, its commit comes later
  }).then(() => (firstCommitted = true));
  await new Promise((resolve) => setTimeout(resolve, 200));
  let secondDone = false;
  const second = db().tx((tx) => appendLiveChanges(tx, entry(900_002))).then(() => (secondDone = true));
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.false(secondDone, 'the later writer waits for the earlier one to commit');
  releaseFirst();
  await Promise.all([first, second]);
  t.true(firstCommitted);
  const rows = await db().any<{ seq: number; target_id: number }>('SELECT seq, target_id FROM live_changes WHERE target_id IN (900001, 900002) ORDER BY seq');
  t.deepEqual(rows.map((row) => row.target_id), [900_001, 900_002]);
});
