// The live calendar on the real server (docs/live.md): real WebSocket and EventSource clients see
// every kind of schedule change of the months they watch, and no other; they resume from their
// last seq without losing or repeating a change; bad subscriptions, limits and slow readers are
// answered as documented.
import test from 'ava';
import { connect } from 'node:net';
import { insertMember } from './helpers/factory.ts';
import { LiveEventSource, LiveSocket, type LiveMessage } from './helpers/live-clients.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';
import { pruneChangeLog } from '../shared/live/change-log.ts';
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
