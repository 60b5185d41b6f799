// The SDK's live client against real processes, over both transports (SSE read through fetch, as
// in Node and browsers without WebSocket, and WebSocket with the `ws` class passed in): a network
// cut that only silence reveals, then a server restart with changes written elsewhere meanwhile;
// every change arrives once, in seq order, none missed. A client mistake stops the subscription
// instead of reconnecting forever.
import test from 'ava';
import WebSocket from 'ws';
import { ApiError, createClient, followMonth, type ChangeMessage, type MonthListing, type LiveOptions } from '../sdk/src/index.ts';
import { startCuttableProxy, type CuttableProxy } from './helpers/cuttable-proxy.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { ADMIN } from './helpers/process.ts';
import { adminToken, call } from './helpers/service.ts';
import { startProcess, type ServiceProcess } from './helpers/service-process.ts';
import { waitFor } from './helpers/wait.ts';

const until = (what: string, probe: () => boolean, timeoutMs: number) => waitFor(what, async () => probe(), timeoutMs);

let database: TestDatabase;
let a: ServiceProcess;
let b: ServiceProcess;
let proxy: CuttableProxy;
// Heartbeats every second so a silent stream is noticed within the client's idle timeout.
const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', LIVE_HEARTBEAT_SECONDS: '1', LIVE_MAX_MONTHS: '3' };
const tokens = new Map<ServiceProcess, string>();

test.before(async () => {
  database = await createTestDatabase();
  a = await startProcess(database, env);
  b = await startProcess(database, env);
  tokens.set(a, await adminToken(a.url));
  tokens.set(b, await adminToken(b.url));
  proxy = await startCuttableProxy(a.port);
});
test.after.always(async () => {
  await proxy?.close();
  await a?.stop();
  await b?.stop();
  await database?.drop();
});

let n = 0;
async function create(server: ServiceProcess, date: string): Promise<number> {
  const response = await call(server.url, 'POST', '/api/schedules', { token: tokens.get(server), json: { categoryId: 2, title: `SDK 실시간 ${++n}`, date } });
  if (response.status !== 201) throw new Error(`create: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as number;
}

const transports: Array<[string, LiveOptions]> = [
  ['SSE over fetch', { transport: 'sse' }],
  ['WebSocket (ws)', { transport: 'websocket', WebSocket }],
];

transports.forEach(([name, live], index) => {
  test.serial(`${name}: a cut network and a server restart lose and repeat nothing`, async (t) => {
    const month = `2036-0${index + 1}`;
    const client = createClient({ baseUrl: proxy.url, live: { ...live, idleTimeoutMs: 3000, minDelayMs: 200, maxDelayMs: 2000 } });
    const received: ChangeMessage[] = [];
    const subscription = client.live.subscribe({ months: [month] }, { onChange: (change) => void received.push(change) });
    t.teardown(() => subscription.close());
    await subscription.ready;
    const written = [await create(a, `${month}-01`), await create(a, `${month}-02`)];
    await until('the first two changes', () => received.length >= 2, 10_000);

    // Cut: the connection goes silent; changes are written meanwhile; the link comes back.
    proxy.cut();
    written.push(await create(a, `${month}-03`), await create(b, `${month}-04`));
    await new Promise((resolve) => setTimeout(resolve, 4000));
    proxy.restore();
    await until('the changes written during the cut', () => received.length >= 4, 20_000);
    t.true(subscription.reconnects >= 1, 'it noticed the silence and reconnected');

    // Restart: SIGTERM (close 1001 / end of stream), changes through the other process, start again.
    t.is(await a.stop(), 0);
    written.push(await create(b, `${month}-05`), await create(b, `${month}-06`));
    a = await startProcess(database, env, { port: a.port });
    tokens.set(a, await adminToken(a.url));
    await until('the changes written during the restart', () => received.length >= 6, 30_000);
    written.push(await create(a, `${month}-07`));
    await until('a change after the restart', () => received.length >= 7, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // anything repeated would arrive now

    t.deepEqual(received.map((change) => change.id), written, 'every change once, in the order written');
    const seqs = received.map((change) => change.seq);
    t.true(seqs.every((seq, i) => i === 0 || seq > seqs[i - 1]!), `seqs increase: ${seqs.join(',')}`);
    t.is(subscription.lastSeq, seqs.at(-1));
    t.true(received.every((change) => change.type === 'schedule.created' && change.months[0] === month && change.schedule !== null));
  });

  test.serial(`${name}: a client mistake (too many months) stops with ApiError instead of reconnecting`, async (t) => {
    const client = createClient({ baseUrl: a.url, live: { ...live, minDelayMs: 50 } });
    const errors: ApiError[] = [];
    const statuses: string[] = [];
    const subscription = client.live.subscribe({ months: ['2036-01', '2036-02', '2036-03', '2036-04'] }, {
      onChange: () => {},
      onError: (error) => void errors.push(error),
      onStatus: (status) => void statuses.push(status),
    });
    const error = await t.throwsAsync(subscription.ready);
    t.true(error instanceof ApiError);
    t.like(error, { code: 'too_many_months' });
    t.is(errors.length, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.deepEqual(statuses, ['connecting', 'closed'], 'one attempt, no reconnect');
    t.is(subscription.reconnects, 0);
  });
});

test.serial('followMonth keeps a listing current: changes applied in place, a reset (a category recoloured) refetched', async (t) => {
  const client = createClient({ baseUrl: a.url, live: { transport: 'sse', minDelayMs: 200 } });
  const first = await create(a, '2036-07-10');
  const updates: MonthListing[] = [];
  const followed = followMonth(client, 2036, 7, { onUpdate: (listing) => void updates.push(listing) });
  t.teardown(() => followed.close());
  await until('the first listing', () => updates.length >= 1, 15_000);
  t.deepEqual(followed.listing!.schedules.map((item) => item.id), [first]);

  const earlier = await create(a, '2036-07-02');
  await until('the new schedule in place', () => followed.listing!.schedules.length === 2, 10_000);
  t.deepEqual(followed.listing!.schedules.map((item) => item.id), [earlier, first], 'in date order');
  const moved = await call(a.url, 'PUT', `/api/schedules/${first}`, { token: tokens.get(a), json: { categoryId: 2, title: '8월로 이동', date: '2036-08-01' } });
  t.is(moved.status, 200);
  await until('the moved schedule gone from July', () => followed.listing!.schedules.length === 1, 10_000);

  // Every item embeds its category: a new colour is a reset, and the helper fetches the month again.
  const fetchesBefore = updates.length;
  const recolour = await call(a.url, 'PUT', '/api/schedule-categories/2', { token: tokens.get(a), json: { color: '#0a7d32' } });
  t.is(recolour.status, 200);
  await until('the refetched listing with the new colour', () => followed.listing!.schedules[0]?.category.color === '#0a7d32', 15_000);
  t.true(updates.length > fetchesBefore);
  t.deepEqual(followed.listing!.schedules.map((item) => item.id), [earlier]);
});
