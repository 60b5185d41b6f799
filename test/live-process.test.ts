// The live calendar across real processes (docs/live.md): two `npm start` processes on one
// database, both writing; subscribers of either see every change in one order; a process
// stopped with SIGTERM closes its sockets with 1001 and ends its streams; a subscriber resuming
// after the restart, from its last seq, loses and repeats nothing.
import test from 'ava';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { LiveEventSource, LiveSocket, type LiveMessage } from './helpers/live-clients.ts';
import { ADMIN } from './helpers/process.ts';
import { adminToken, call } from './helpers/service.ts';
import { startProcess, type ServiceProcess } from './helpers/service-process.ts';

let database: TestDatabase;
let a: ServiceProcess;
let b: ServiceProcess;
const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn' };
const tokens = new Map<string, string>();

test.before(async () => {
  database = await createTestDatabase();
  // One after the other: both migrate the same database at start.
  a = await startProcess(database, env);
  b = await startProcess(database, env);
  for (const server of [a, b]) tokens.set(server.url, await adminToken(server.url));
});
test.after.always(async () => {
  await a?.stop();
  await b?.stop();
  await database?.drop();
});

let n = 0;
async function create(server: ServiceProcess, date: string): Promise<number> {
  const token = tokens.get(server.url);
  const response = await call(server.url, 'POST', '/api/schedules', { token, json: { categoryId: 2, title: `두 프로세스 ${++n}`, date, time: '18:00' } });
  if (response.status !== 201) throw new Error(`create: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as number;
}
const created = (messages: LiveMessage[]) => messages.filter((m) => m.type === 'schedule.created');

test.serial('two processes writing at once: subscribers of each see every change, in the same order, once', async (t) => {
  const onA = await LiveSocket.open(a.url);
  await onA.subscribe(['2034-01']);
  const onB = LiveEventSource.open(b.url, 'months=2034-01');
  await onB.next((e) => e.type === 'subscribed');

  const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => create(i % 2 === 0 ? a : b, `2034-01-${String(i + 1).padStart(2, '0')}`)));
  await onA.next(() => created(onA.messages).length >= 12, 0, 30_000);
  await onB.next(() => onB.changes().length >= 12, 0, 30_000);
  const seqA = created(onA.messages).map((m) => m.seq!);
  const seqB = onB.changes().map((e) => e.data.seq!);
  t.deepEqual(seqA, seqB, 'one order on both replicas');
  t.deepEqual(seqA, [...seqA].sort((x, y) => x - y));
  t.is(new Set(seqA).size, 12);
  t.deepEqual(created(onA.messages).map((m) => m.id as number).sort((x, y) => x - y), [...ids].sort((x, y) => x - y));

  // Resuming on the other replica from the middle: exactly the rest.
  const resumed = await LiveSocket.open(b.url);
  const subscribed = await resumed.subscribe(['2034-01'], seqA[4]);
  t.deepEqual(created(resumed.messages).map((m) => m.seq), seqA.slice(5));
  t.true(subscribed.seq! >= seqA[11]!);
  onA.close();
  onB.close();
  resumed.close();
});

test.serial('SIGTERM closes sockets with 1001 and ends streams; after the restart a subscriber resumes from its last seq', async (t) => {
  const socket = await LiveSocket.open(a.url);
  await socket.subscribe(['2034-02']);
  const first = await create(a, '2034-02-01');
  const last = await socket.next((m) => m.type === 'schedule.created' && m.id === first);
  const stream = await fetch(`${a.url}/api/schedules/live?months=2034-02`, { headers: { accept: 'text/event-stream' } });
  const reader = stream.body!.getReader();
  await reader.read(); // the stream is open

  const exited = a.stop();
  t.is((await socket.closed).code, 1001);
  let ended = false;
  for (let i = 0; i < 100 && !ended; i++) ended = (await reader.read()).done;
  t.true(ended, 'the event stream ended');
  t.is(await exited, 0);

  // Written while the first process is away, through the other one.
  const missed = [await create(b, '2034-02-02'), await create(b, '2034-02-03'), await create(b, '2034-02-04')];
  a = await startProcess(database, env, { port: a.port });
  const back = await LiveSocket.open(a.url);
  const subscribed = await back.subscribe(['2034-02'], last.seq);
  const replayed = created(back.messages);
  t.deepEqual(replayed.map((m) => m.id), missed);
  t.true(replayed.every((m, i) => i === 0 || m.seq! > replayed[i - 1]!.seq!));
  t.true(subscribed.seq! >= replayed.at(-1)!.seq!);
  // And live again, from a write on either process.
  const after = await create(b, '2034-02-05');
  await back.next((m) => m.type === 'schedule.created' && m.id === after);
  back.close();
});
