// The live stream against hostile clients, on the real process (docs/live.md, "Bounded"): a socket
// flooding messages, resume loops, many addresses of one network, a large feed read by clients that
// do not read, an oversized message. Each attack is bounded in the test (messages, sockets,
// networks); what is checked is what the operator and the other visitors see: the database's work,
// the process's memory, `/healthz`, and the answers. What an administrator deleted is not readable
// from a resume, on the replica that wrote it nor on another.
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { connectDatabase, type Database } from '../shared/db/database.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { LiveSocket, type LiveMessage } from './helpers/live-clients.ts';
import { ADMIN } from './helpers/process.ts';
import { adminToken, call } from './helpers/service.ts';
import { startProcess, type ServiceProcess } from './helpers/service-process.ts';
import { testLogger } from './helpers/test-log.ts';

let database: TestDatabase;
let stats: Database;
let a: ServiceProcess;
let b: ServiceProcess;
let token: string;
// 10 % of 400 connections: 40 per network.
const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', TRUST_PROXY: '1', LIVE_MAX_CONNECTIONS: '400', LIVE_MAX_NETWORK_SHARE_PERCENT: '10' };

test.before(async () => {
  database = await createTestDatabase();
  a = await startProcess(database, env);
  b = await startProcess(database, env);
  token = await adminToken(a.url);
  stats = connectDatabase(database.url, testLogger('warn'), 1);
});
test.after.always(async () => {
  await stats?.close();
  await a?.stop();
  await b?.stop();
  await database?.drop();
});

/** Transactions the database has run (every query outside a transaction is one): the work clients caused. */
const transactions = async () => (await stats.db.one<{ n: string }>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()')).n;
/** pg_stat_database is updated when a backend reports (at most every second or so): read it after a pause. */
const settledTransactions = async () => {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return Number(await transactions());
};
const rssMb = async (server: ServiceProcess) => Number(/^VmRSS:\s+(\d+) kB/m.exec(await readFile(`/proc/${server.child.pid}/status`, 'utf8'))![1]) / 1024;

/** `/healthz` latencies (ms) sampled every 20 ms while `during` runs. */
async function healthDuring(server: ServiceProcess, during: Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  let done = false;
  void during.finally(() => (done = true));
  while (!done) {
    const startedAt = performance.now();
    await fetch(`${server.url}/healthz`);
    samples.push(performance.now() - startedAt);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await during;
  return samples.sort((x, y) => x - y);
}
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

const openRaw = (server: ServiceProcess, address: string) =>
  new Promise<{ socket: WebSocket; messages: LiveMessage[]; closed: Promise<number> }>((resolve, reject) => {
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/schedules/live`, { headers: { 'x-forwarded-for': address } });
    const messages: LiveMessage[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as LiveMessage));
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    socket.once('open', () => resolve({ socket, messages, closed }));
    socket.once('error', reject);
  });

let n = 0;
const create = async (server: ServiceProcess, date: string, extra: Record<string, unknown> = {}) => {
  const response = await call(server.url, 'POST', '/api/schedules', { token, json: { categoryId: 2, title: `공격 중 일정 ${++n}`, date, time: '18:00', ...extra } });
  if (response.status !== 201) throw new Error(`create: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as number;
};

test.serial('a socket flooding subscribes is closed at its bound: 20 sockets × 2,000 messages cost a bounded number of queries and no memory', async (t) => {
  // Something to resume over, so that every subscribe with since would replay.
  for (let i = 1; i <= 5; i++) await create(a, `2036-01-0${i}`);
  const before = await settledTransactions();
  const rssBefore = await rssMb(a);
  const sockets = await Promise.all(Array.from({ length: 20 }, () => openRaw(a, '10.61.1.7')));
  const flood = JSON.stringify({ type: 'subscribe', months: ['2036-01'], since: 0 });
  const attack = (async () => {
    for (const { socket } of sockets) for (let i = 0; i < 2_000; i++) socket.send(flood);
    return Promise.all(sockets.map(({ closed }) => closed));
  })();
  const health = await healthDuring(a, attack);
  const codes = await attack;
  t.true(codes.every((code) => code === 1008), `close codes ${[...new Set(codes)]}`);
  // Whichever bound it met first: 4 messages waiting, or 20 at once.
  for (const { messages } of sockets) t.true(['too_many_messages', 'rate_limited'].includes(messages.find((m) => m.type === 'error')?.code ?? ''));
  const queries = (await settledTransactions()) - before;
  // 40,000 messages; a socket holds 4 waiting, and joins asking at once share one bounds query.
  t.log(`${queries} transactions for 40,000 messages; /healthz p99 ${percentile(health, 99).toFixed(1)} ms`);
  t.true(queries < 400, `${queries} transactions for 40,000 messages`);
  t.true((await rssMb(a)) - rssBefore < 64, `RSS ${rssBefore} → ${await rssMb(a)} MB`);
  t.true(percentile(health, 99) < 1_000, `/healthz p99 ${percentile(health, 99)} ms`);
  // The process serves others as before.
  const visitor = await LiveSocket.open(a.url, { 'x-forwarded-for': '10.62.1.1' });
  t.true(Number.isInteger((await visitor.subscribe(['2036-01'])).seq));
  visitor.close();
});

test.serial('resume loops are paid from the network budget and rate-limited per socket: past them a reset, then close 1008', async (t) => {
  for (let i = 1; i <= 5; i++) await create(a, `2036-02-0${i}`);
  // 20 sockets of one /24, each resubscribing from seq 0 as fast as it may: 240 resumes asked.
  const sockets = await Promise.all(Array.from({ length: 20 }, (_, i) => openRaw(a, `10.63.2.${i + 1}`)));
  const before = await settledTransactions();
  const startedAt = Date.now();
  const loop = Promise.all(sockets.map(async ({ socket, messages, closed }) => {
    for (let round = 0; round < 12 && socket.readyState === socket.OPEN; round++) {
      const answered = messages.filter((m) => m.type === 'subscribed').length;
      socket.send(JSON.stringify({ type: 'subscribe', months: ['2036-02'], since: 0 }));
      while (socket.readyState === socket.OPEN && messages.filter((m) => m.type === 'subscribed').length === answered) await new Promise((resolve) => setTimeout(resolve, 5));
      if (socket.readyState !== socket.OPEN) break;
      socket.send(JSON.stringify({ type: 'unsubscribe', months: ['2036-02'] }));
    }
    // Past the socket's rate (a bucket of 20 subscribes and unsubscribes): closed.
    for (let i = 0; i < 30 && socket.readyState === socket.OPEN; i++) socket.send(JSON.stringify({ type: 'unsubscribe', months: ['2036-02'] }));
    return closed;
  }));
  const health = await healthDuring(a, loop);
  const codes = await loop;
  t.true(codes.every((code) => code === 1008));
  const all = sockets.flatMap(({ messages }) => messages);
  t.like(all.find((m) => m.type === 'error'), { code: 'rate_limited' });
  const replayed = all.filter((m) => m.type === 'schedule.created').length;
  const resets = all.filter((m) => m.type === 'reset').length;
  // QUERY_BUDGET_BURST (120) resumes from memory were paid for; the rest were told to refetch.
  t.true(resets > 0, 'past the budget, resumes get a reset');
  const paid = 120 + 20 * Math.ceil((Date.now() - startedAt) / 1000);
  t.true(replayed <= 5 * paid, `${replayed} messages replayed, at most ${paid} resumes paid`);
  const queries = (await settledTransactions()) - before;
  t.log(`${queries} transactions, ${replayed} replayed, ${resets} resets; /healthz p99 ${percentile(health, 99).toFixed(1)} ms`);
  t.true(queries < 400, `${queries} transactions for 240 resumes`);
  t.true(percentile(health, 99) < 1_000, `/healthz p99 ${percentile(health, 99)} ms`);
  // Another network's resume is replayed in full.
  const other = await LiveSocket.open(a.url, { 'x-forwarded-for': '10.64.1.1' });
  await other.subscribe(['2036-02'], 0);
  t.is(other.changes().filter((m) => m.type === 'schedule.created').length, 5);
  other.close();
});

test.serial('connections are counted per network: one /24 or one /48 holds at most its share; other networks still connect', async (t) => {
  const attempt = async (address: string) => {
    const live = await openRaw(a, address);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return live;
  };
  // 60 addresses of one IPv4 /24, 60 /64s of one IPv6 /48: 40 each get in.
  const ipv4 = [];
  for (let i = 1; i <= 60; i++) ipv4.push(await attempt(`10.65.7.${i}`));
  const ipv6 = [];
  for (let i = 1; i <= 60; i++) ipv6.push(await attempt(`2001:db8:65:${i.toString(16)}::1`));
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const group of [ipv4, ipv6]) {
    const refused = group.filter(({ socket }) => socket.readyState !== socket.OPEN);
    t.is(refused.length, 20);
    for (const { messages, closed } of refused) {
      t.is(await closed, 1008);
      t.like(messages[0], { type: 'error', code: 'too_many_connections' });
    }
  }
  const sse = await call(a.url, 'GET', '/api/schedules/live?months=2036-03', { headers: { accept: 'text/event-stream', 'x-forwarded-for': '10.65.7.200' } });
  t.is(sse.status, 429);
  t.is(sse.body.code, 'too_many_connections');
  // Another network, and an address of a neighbouring /48, still get in.
  for (const address of ['10.66.1.1', '2001:db8:66::1']) {
    const visitor = await LiveSocket.open(a.url, { 'x-forwarded-for': address });
    t.true(Number.isInteger((await visitor.subscribe(['2036-03'])).seq));
    visitor.close();
  }
  for (const { socket } of [...ipv4, ...ipv6]) socket.close();
});

test.serial('what an administrator deleted is not readable from a resume, on the replica that wrote it nor on another; the resumed listing is the current one', async (t) => {
  // A subscriber on B holds the rows in B's memory as they were written.
  const watcher = await LiveSocket.open(b.url, { 'x-forwarded-for': '10.67.1.1' });
  const { seq: start } = await watcher.subscribe(['2036-04', '2036-05']);
  const secret = 'https://private.example.com/contract-draft';
  const kept = await create(a, '2036-04-10', { source: { name: '내부', url: secret }, title: '비공개 링크 일정' });
  const deleted = await create(a, '2036-04-11', { source: { name: '내부', url: `${secret}-2` } });
  await watcher.next((m) => m.type === 'schedule.created' && m.id === deleted);
  // Corrected (the link removed, moved to May), then the other one deleted.
  const corrected = await call(a.url, 'PUT', `/api/schedules/${kept}`, { token, json: { categoryId: 2, title: '공개 일정', date: '2036-05-02', time: '18:00', source: null } });
  t.is(corrected.status, 200);
  t.is((await call(a.url, 'DELETE', `/api/schedules/${deleted}`, { token })).status, 200);
  await watcher.next((m) => m.type === 'schedule.deleted' && m.id === deleted);
  watcher.close();

  for (const server of [a, b]) {
    const resumed = await LiveSocket.open(server.url, { 'x-forwarded-for': '10.68.1.1' });
    await resumed.subscribe(['2036-04', '2036-05'], start);
    const text = JSON.stringify(resumed.messages);
    t.false(text.includes('private.example.com'), `${server === a ? 'writer' : 'other replica'}: ${text}`);
    t.false(text.includes('비공개 링크 일정'));
    // Applying the messages in order gives the listing as it is now.
    const listing = new Map<number | string, Record<string, any>>();
    for (const message of resumed.changes()) {
      if (message.type === 'schedule.deleted' || !message.schedule) listing.delete(message.id!);
      else listing.set(message.id!, message.schedule);
    }
    const april = (await call(server.url, 'GET', '/api/schedules?year=2036&month=4')).body.schedules as Array<Record<string, any>>;
    const may = (await call(server.url, 'GET', '/api/schedules?year=2036&month=5')).body.schedules as Array<Record<string, any>>;
    t.deepEqual([...listing.values()].sort((x, y) => x.id - y.id), [...april, ...may].filter((item) => item.id === kept || item.id === deleted));
    t.deepEqual([...listing.keys()], [kept]);
    resumed.close();
  }
  // And in the log itself.
  const rows = await stats.db.any<{ item: unknown }>('SELECT item FROM live_changes WHERE target_id IN ($1, $2)', [kept, deleted]);
  t.false(JSON.stringify(rows).includes('private.example.com'));
});

test.serial('an oversized WebSocket message is answered with an error message and close 1009', async (t) => {
  const live = await openRaw(a, '10.69.1.1');
  live.socket.send(JSON.stringify({ type: 'subscribe', months: ['2036-06'], padding: 'x'.repeat(6 * 1024) }));
  t.is(await live.closed, 1009);
  t.like(live.messages[0], { type: 'error', code: 'message_too_large' });
});

test.serial('the event stream\'s retry is jittered per connection', async (t) => {
  const retries = [];
  for (let i = 0; i < 8; i++) {
    const response = await fetch(`${a.url}/api/schedules/live?months=2036-07`, { headers: { accept: 'text/event-stream', 'x-forwarded-for': `10.70.${i}.1` } });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    retries.push(Number(/^retry: (\d+)$/m.exec(first)![1]));
    await reader.cancel();
  }
  t.true(retries.every((ms) => ms >= 1_000 && ms <= 6_000), String(retries));
  t.true(new Set(retries).size > 1, String(retries));
});

test.serial('a large feed read by 100 clients that do not read is held once, not once per client', async (t) => {
  // About 4 MB: 1,400 schedules with 1,000-character descriptions.
  await stats.db.none(`INSERT INTO schedules (category_id, title, date, description)
    SELECT 3, '팬사인회 ' || i, (date_trunc('month', now()) + (i % 150) * interval '1 day')::date, repeat('가나다라마바사아자차', 100)
      FROM generate_series(1, 1400) AS i`);
  const path = '/api/schedules/calendar.ics?birthdays=false';
  const whole = await fetch(`${a.url}${path}`, { headers: { 'x-forwarded-for': '10.71.1.1', 'accept-encoding': 'identity' } });
  const size = (await whole.arrayBuffer()).byteLength;
  t.true(size > 3_000_000, `${size} bytes`);
  const rssBefore = await rssMb(a);
  const stalled = await Promise.all(Array.from({ length: 100 }, (_, i) => new Promise<ReturnType<typeof connect>>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: a.port }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\nX-Forwarded-For: 10.72.${i}.1\r\n\r\n`);
      socket.pause(); // never reads
      resolve(socket);
    });
  })));
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const rssDuring = await rssMb(a);
  for (const socket of stalled) socket.destroy();
  t.log(`RSS ${rssBefore.toFixed(0)} → ${rssDuring.toFixed(0)} MB with 100 stalled readers of ${size} bytes`);
  // Copies per client would be about 1 MB each past what the kernel buffers.
  t.true(rssDuring - rssBefore < 40, `RSS ${rssBefore.toFixed(0)} → ${rssDuring.toFixed(0)} MB with 100 stalled readers of ${size} bytes`);
  // A client that reads gets the whole feed.
  const again = await fetch(`${a.url}${path}`, { headers: { 'x-forwarded-for': '10.73.1.1', 'accept-encoding': 'identity' } });
  t.is((await again.arrayBuffer()).byteLength, size);
});

test.serial('a replica stopping closes its sockets with 1001 spread out, not in one burst', async (t) => {
  // 300 sockets over eight networks (40 a network here): at least 1,000 a second, so about 300 ms.
  const sockets = [];
  for (let i = 0; i < 300; i++) sockets.push(await openRaw(b, `10.${90 + (i % 8)}.1.${Math.floor(i / 8) + 1}`));
  const closedAt = sockets.map(({ closed }) => closed.then((code) => ({ code, at: performance.now() })));
  const exited = b.stop();
  const closes = await Promise.all(closedAt);
  t.is(await exited, 0);
  t.true(closes.every(({ code }) => code === 1001));
  const times = closes.map(({ at }) => at).sort((x, y) => x - y);
  t.log(`closes spread over ${(times.at(-1)! - times[0]!).toFixed(0)} ms`);
  t.true(times.at(-1)! - times[0]! >= 150, `closes spread over ${(times.at(-1)! - times[0]!).toFixed(0)} ms`);
});
