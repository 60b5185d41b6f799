// General schedules written by an administrator on the real server: JSON and multipart
// bodies, real images through the image pool, the listing, detail, search and activity log
// reading the write at once.
import test from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { countRows, insertMember } from './helpers/factory.ts';
import { jpegImage, pngImage } from './helpers/images.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let token: string;
let members: Array<{ id: number; name: string }>;

test.before(async () => {
  service = await startTestService();
  token = await adminToken(service.url);
  members = [await insertMember(db(), { name: '김서연' }), await insertMember(db(), { name: '박지우' })];
});
test.after.always(async () => {
  await service?.stop();
});

const db = () => service.running.services.db;
const send = (method: string, path: string, json?: unknown, auth = true) => call(service.url, method, path, { json, token: auth ? token : undefined });
const sendForm = (method: string, path: string, payload: unknown, files: Array<{ fileName: string; bytes: Uint8Array }>) => {
  const data = new FormData();
  data.append('payload', JSON.stringify(payload));
  for (const file of files) data.append('images', new Blob([file.bytes]), file.fileName);
  return call(service.url, method, path, { body: data, token });
};
let n = 0;
const payload = (overrides: Record<string, unknown> = {}) => ({
  categoryId: 2,
  title: `단독 콘서트 ${++n}회차`,
  date: '2026-06-13',
  time: '18:00',
  description: '올림픽홀 공연',
  source: { name: '공식 카페', url: 'https://example.com/notice/1' },
  memberIds: [members[0]!.id],
  ...overrides,
});
const month = async (year: number, m: number) => (await call(service.url, 'GET', `/api/schedules?year=${year}&month=${m}`)).body.schedules as Array<Record<string, any>>;

test('POST (JSON) → 201 {id}; the cached month, the detail, the search and the activity log read it at once', async (t) => {
  await month(2026, 6); // cached before the write
  const body = payload({ title: `팬미팅 무지개 ${++n}` });
  const created = await send('POST', '/api/schedules', body);
  t.is(created.status, 201);
  const id = created.body.id as number;
  const item = (await month(2026, 6)).find((schedule) => schedule.id === id);
  t.like(item, { title: body.title, date: '2026-06-13', time: '18:00', category: { id: 2, name: '공연' }, source: { name: '공식 카페', url: 'https://example.com/notice/1' } });
  t.deepEqual(item!.members, [{ id: members[0]!.id, name: '김서연' }]);
  const detail = await call(service.url, 'GET', `/api/schedules/${id}`);
  t.is(detail.body.description, '올림픽홀 공연');
  const found = await call(service.url, 'GET', `/api/schedules?search=${encodeURIComponent(body.title)}`);
  t.true(found.body.schedules.some((schedule: { id: number }) => schedule.id === id));
  const logged = await db().oneOrNone("SELECT summary FROM activity_log WHERE target_type = 'schedule' AND target_id = $1 AND action = 'create'", [String(id)]);
  t.truthy(logged);
  const outbox = await db().oneOrNone("SELECT 1 FROM outbox WHERE key = $1", [String(id)]);
  t.truthy(outbox);
});

test('POST (multipart) stores the images with their variants; PUT keeps by id, appends new ones, drops the rest', async (t) => {
  const [png, jpeg] = await Promise.all([pngImage(), jpegImage()]);
  const created = await sendForm('POST', '/api/schedules', payload(), [{ fileName: 'a.png', bytes: png }, { fileName: 'b.jpg', bytes: jpeg }]);
  t.is(created.status, 201);
  const id = created.body.id as number;
  const first = (await call(service.url, 'GET', `/api/schedules/${id}`)).body.images as Array<{ id: number; originalUrl: string }>;
  t.is(first.length, 2);
  t.regex(first[0]!.originalUrl, new RegExp(`/schedule/${id}/image/01\\.png$`));
  const droppedFile = join(service.dataDir, 'storage', 'media', 'schedule', String(id), 'image', '02.jpeg');
  t.true(existsSync(droppedFile));

  const updated = await sendForm('PUT', `/api/schedules/${id}`, payload({ title: '수정된 공연', date: '2026-07-01', keepImageIds: [first[0]!.id] }), [{ fileName: 'c.png', bytes: png }]);
  t.is(updated.status, 200);
  const after = (await call(service.url, 'GET', `/api/schedules/${id}`)).body;
  t.is(after.title, '수정된 공연');
  t.is(after.images.length, 2);
  t.is(after.images[0].id, first[0]!.id);
  t.false(after.images.some((image: { id: number }) => image.id === first[1]!.id));
  t.false(existsSync(droppedFile));
  // Moved months: gone from June, in July.
  t.false((await month(2026, 6)).some((schedule) => schedule.id === id));
  t.true((await month(2026, 7)).some((schedule) => schedule.id === id));
});

test('PUT replaces: fields not sent are cleared; members replaced', async (t) => {
  const { body } = await send('POST', '/api/schedules', payload());
  const put = await send('PUT', `/api/schedules/${body.id}`, { categoryId: 1, title: '방송 출연', date: '2026-06-20', memberIds: [members[1]!.id] });
  t.is(put.status, 200);
  const detail = (await call(service.url, 'GET', `/api/schedules/${body.id}`)).body;
  t.like(detail, { title: '방송 출연', time: null, description: null, source: null, category: { id: 1 } });
  t.deepEqual(detail.members.map((m: { id: number }) => m.id), [members[1]!.id]);
});

test.serial('bad input: unknown category, birthdays or events category, unknown members, missing title → 400 and nothing written', async (t) => {
  const before = await countRows(db(), 'schedules');
  const unknown = await send('POST', '/api/schedules', payload({ categoryId: 9999 }));
  t.is(unknown.status, 400);
  t.regex(unknown.body.error, /존재하지 않는 분류/);
  for (const categoryId of [10, 11]) t.is((await send('POST', '/api/schedules', payload({ categoryId }))).status, 400);
  t.regex((await send('POST', '/api/schedules', payload({ memberIds: [999999] }))).body.error, /존재하지 않는 멤버/);
  const { title: _title, ...untitled } = payload();
  t.is((await send('POST', '/api/schedules', untitled)).status, 400);
  t.is((await send('POST', '/api/schedules', payload({ date: '2026-02-30' }))).status, 400);
  t.is((await send('POST', '/api/schedules', payload({ source: { name: '링크', url: 'javascript:alert(1)' } }))).status, 400);
  t.is((await send('POST', '/api/schedules')).status, 400);
  t.is((await send('POST', '/api/schedules', payload(), false)).status, 401);
  t.is(await countRows(db(), 'schedules'), before);
});

test('PUT: unknown id 404; an event or a birthday id 400; an image of another schedule 400', async (t) => {
  t.is((await send('PUT', '/api/schedules/999999', payload())).status, 404);
  const event = await db().one<{ id: number }>("INSERT INTO schedules (category_id, title, date) VALUES (11, '행사', '2026-05-01') RETURNING id");
  await db().none('INSERT INTO events (schedule_id, school_name) VALUES ($1, $2)', [event.id, '학교']);
  const eventPut = await send('PUT', `/api/schedules/${event.id}`, payload());
  t.is(eventPut.status, 400);
  t.regex(eventPut.body.error, /행사/);
  t.is((await send('PUT', `/api/schedules/birthday-${members[0]!.id}-2026`, payload())).status, 400);
  const { body } = await send('POST', '/api/schedules', payload());
  t.is((await send('PUT', `/api/schedules/${body.id}`, payload({ keepImageIds: [123456] }))).status, 400);
});
