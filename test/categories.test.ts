// Schedule category administration on the real server: create, rename, recolour,
// delete, reorder, and the cached category list and month listing following each write.
import test from 'ava';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let token: string;

test.before(async () => {
  service = await startTestService();
  token = await adminToken(service.url);
});
test.after.always(async () => {
  await service?.stop();
});

const send = (method: string, path: string, json?: unknown, auth = true) => call(service.url, method, path, { json, token: auth ? token : undefined });
const categories = async () => (await call(service.url, 'GET', '/api/schedule-categories')).body as Array<{ id: number; name: string; color: string; sortOrder: number }>;
let n = 0;

test.serial('POST creates a category, last in the order; the cached list shows it at once', async (t) => {
  const before = await categories(); // fills the route's cache
  const created = await send('POST', '/api/schedule-categories', { name: '예능', color: '#A0B1C2' });
  t.is(created.status, 201);
  t.true(Number.isInteger(created.body.id));
  const after = await categories();
  t.is(after.length, before.length + 1);
  const last = after[after.length - 1]!;
  t.deepEqual({ id: last.id, name: last.name, color: last.color }, { id: created.body.id, name: '예능', color: '#a0b1c2' });
});

test('POST: a duplicate name is 409, a bad colour or a missing name 400, no token 401', async (t) => {
  t.is((await send('POST', '/api/schedule-categories', { name: '방송', color: '#000000' })).status, 409);
  const badColour = await send('POST', '/api/schedule-categories', { name: `색 ${++n}`, color: 'red' });
  t.is(badColour.status, 400);
  t.regex(badColour.body.error, /color/);
  t.is((await send('POST', '/api/schedule-categories', { color: '#000000' })).status, 400);
  t.is((await send('POST', '/api/schedule-categories', { name: '   ', color: '#000000' })).status, 400);
  t.is((await send('POST', '/api/schedule-categories', { name: `무권한 ${++n}`, color: '#000000' }, false)).status, 401);
});

test.serial('PUT renames and recolours; the month listing embedding the category follows at once', async (t) => {
  const { body } = await send('POST', '/api/schedule-categories', { name: `임시 ${++n}`, color: '#111111' });
  const id = body.id as number;
  const schedule = await send('POST', '/api/schedules', { categoryId: id, title: '분류 이름 확인', date: '2026-03-05' });
  t.is(schedule.status, 201);
  const month = async () => (await call(service.url, 'GET', '/api/schedules?year=2026&month=3')).body.schedules.find((item: { id: number }) => item.id === schedule.body.id);
  t.is((await month()).category.name, `임시 ${n}`); // now cached
  t.is((await send('PUT', `/api/schedule-categories/${id}`, { name: '라이브', color: '#222222' })).status, 200);
  t.deepEqual((await month()).category, { id, name: '라이브', color: '#222222' });
  t.is((await categories()).find((c) => c.id === id)?.name, '라이브');
});

test('PUT: unknown id 404; renaming birthdays or events 400, recolouring them allowed; a taken name 409', async (t) => {
  t.is((await send('PUT', '/api/schedule-categories/9999', { name: '없음' })).status, 404);
  for (const id of [10, 11]) {
    const renamed = await send('PUT', `/api/schedule-categories/${id}`, { name: `새 이름 ${++n}` });
    t.is(renamed.status, 400);
    t.regex(renamed.body.error, /바꿀 수 없습니다/);
  }
  t.is((await send('PUT', '/api/schedule-categories/10', { color: '#ec4899' })).status, 200);
  t.is((await send('PUT', '/api/schedule-categories/2', { name: '방송' })).status, 409);
});

test('DELETE: an empty category goes; one in use is 409 with the count; built-ins 400; unknown 404', async (t) => {
  const { body: empty } = await send('POST', '/api/schedule-categories', { name: `빈 분류 ${++n}`, color: '#333333' });
  t.is((await send('DELETE', `/api/schedule-categories/${empty.id}`)).status, 200);
  t.false((await categories()).some((c) => c.id === empty.id));
  t.is((await send('DELETE', `/api/schedule-categories/${empty.id}`)).status, 404);

  const { body: used } = await send('POST', '/api/schedule-categories', { name: `쓰는 분류 ${++n}`, color: '#444444' });
  for (const date of ['2026-04-01', '2026-04-02']) t.is((await send('POST', '/api/schedules', { categoryId: used.id, title: '사용 중', date })).status, 201);
  const inUse = await send('DELETE', `/api/schedule-categories/${used.id}`);
  t.is(inUse.status, 409);
  t.is(inUse.body.count, 2);
  t.regex(inUse.body.error, /2개/);
  t.true((await categories()).some((c) => c.id === used.id));

  for (const id of [10, 11]) t.is((await send('DELETE', `/api/schedule-categories/${id}`)).status, 400);
});

test.serial('PUT order: every category exactly once sets the order; duplicates, unknown or missing ids 400', async (t) => {
  const current = await categories();
  const reversed = current.map((c) => c.id).reverse();
  t.is((await send('PUT', '/api/schedule-categories-order', { ids: reversed })).status, 200);
  t.deepEqual((await categories()).map((c) => c.id), reversed);

  const duplicate = await send('PUT', '/api/schedule-categories-order', { ids: [...reversed, reversed[0]] });
  t.is(duplicate.status, 400);
  t.regex(duplicate.body.error, /중복/);
  const missing = await send('PUT', '/api/schedule-categories-order', { ids: reversed.slice(1) });
  t.is(missing.status, 400);
  t.regex(missing.body.error, /빠진 분류 ID: /);
  const unknown = await send('PUT', '/api/schedule-categories-order', { ids: [...reversed, 9999] });
  t.is(unknown.status, 400);
  t.regex(unknown.body.error, /9999/);
  t.is((await send('PUT', '/api/schedule-categories-order', { ids: [] })).status, 400);
  t.deepEqual((await categories()).map((c) => c.id), reversed); // refused orders changed nothing
});
