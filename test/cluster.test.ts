// Two replicas on one database: a write on one reaches the other's monthly cache through
// the schedule.changed stream, and the other's search sees it through the indexer.
import test from 'ava';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let database: TestDatabase;
let writer: TestService;
let reader: TestService;

test.before(async () => {
  database = await createTestDatabase();
  writer = await startTestService({}, { database }); // all roles: edge, actors (relay, indexer), bots
  reader = await startTestService({ ROLE: 'edge' }, { database }); // a second edge replica
});
test.after.always(async () => {
  await reader?.stop();
  await writer?.stop();
  await database?.drop();
});

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

test('a write on one replica invalidates the cached month on the other', async (t) => {
  const month = () => call(reader.url, 'GET', '/api/schedules/?year=2040&month=3').then((r) => r.body.schedules.map((s: { title: string }) => s.title) as string[]);
  t.deepEqual(await month(), []); // cached on the reader now
  const form = new FormData();
  form.append('payload', JSON.stringify({ title: '다른 복제본에서 쓴 행사', date: '2040-03-03', schoolName: '중앙대학교', venue: { name: '청룡광장', address: '서울 동작구' } }));
  const created = await call(writer.url, 'POST', '/api/admin/events', { body: form, token: await adminToken(writer.url) });
  t.is(created.status, 201);
  t.deepEqual(await eventually(month, (titles) => titles.length > 0), ['다른 복제본에서 쓴 행사']);
  const search = () => call(reader.url, 'GET', `/api/schedules/?search=${encodeURIComponent('중대')}`).then((r) => r.body.total as number);
  t.is(await eventually(search, (total) => total > 0), 1);
});
