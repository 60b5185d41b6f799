// The public calendar (api-service.md 4.2, 4.4; decisions.md "Schedules", "Members", "Statistics"):
// monthly listing with birthdays, cache and ETags, detail, delete, categories, stats, members.
import test from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { insertMember } from './helpers/factory.ts';
import { pngImage } from './helpers/images.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let token: string;
let png: Buffer;

test.before(async () => {
  service = await startTestService();
  token = await adminToken(service.url);
  png = await pngImage(900, 900);
});
test.after.always(async () => {
  await service?.stop();
});

const db = () => service.running.services.db;
const get = (path: string, headers: Record<string, string> = {}) => call(service.url, 'GET', path, { headers });

async function insertSchedule(fields: { title: string; date: string; time?: string | null; categoryId?: number; memberIds?: number[]; sourceName?: string }) {
  const { id } = await db().one(
    'INSERT INTO schedules (category_id, title, date, time, source_name) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [fields.categoryId ?? 1, fields.title, fields.date, fields.time ?? null, fields.sourceName ?? null],
  );
  for (const memberId of fields.memberIds ?? []) await db().none('INSERT INTO schedule_members VALUES ($1, $2)', [id, memberId]);
  service.running.services.monthlyCache.invalidateAll();
  return id as number;
}

async function createEvent(payload: Record<string, unknown>, files: Array<{ fileName: string; bytes: Uint8Array }> = []) {
  const data = new FormData();
  data.append('payload', JSON.stringify({ title: '축제', date: '2030-05-10', schoolName: '고려대학교', venue: { name: '민주광장', address: '서울 성북구' }, ...payload }));
  for (const file of files) data.append('posters', new Blob([file.bytes]), file.fileName);
  const response = await call(service.url, 'POST', '/api/admin/events', { body: data, token });
  if (response.status !== 201) throw new Error(JSON.stringify(response.body));
  return response.body.id as number;
}

// ---- categories --------------------------------------------------------------------------------------

test('categories: [{id, name, color, sortOrder}] with 11 = 행사 and a birthday category', async (t) => {
  const response = await get('/api/schedule-categories');
  t.is(response.status, 200);
  t.true(response.body.every((c: object) => Object.keys(c).sort().join() === 'color,id,name,sortOrder'));
  t.is(response.body.find((c: { id: number }) => c.id === 11).name, '행사');
  t.truthy(response.body.find((c: { name: string }) => c.name === '생일'));
  const orders = response.body.map((c: { sortOrder: number }) => c.sortOrder);
  t.deepEqual(orders, [...orders].sort((a: number, b: number) => a - b));
});

// ---- monthly listing ----------------------------------------------------------------------------------

for (const query of ['month=13', 'month=0', 'year=abc', 'year=2026&month=1.5', 'month=-1', 'year=99999', 'limit=5&search=']) {
  test(`listing: ${query} gives 400`, async (t) => {
    const response = await get(`/api/schedules/?${query}`);
    t.is(response.status, 400);
    t.truthy(response.body.error);
  });
}

test('listing: without year and month it is this month in Asia/Seoul', async (t) => {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul', year: 'numeric', month: '2-digit' }).format(service.clock.now()).split('-').map(Number);
  const body = (await get('/api/schedules')).body;
  t.is(body.year, year);
  t.is(body.month, month);
  t.true(Array.isArray(body.schedules));
});

test('listing: sorted by date, then time (untimed last), birthdays in display order; items have the decided shape', async (t) => {
  const a = await insertMember(db(), { name: '정렬멤버가', birthDate: '2001-07-15', sortOrder: 2 });
  const b = await insertMember(db(), { name: '정렬멤버나', birthDate: '1999-07-15', sortOrder: 1 });
  const late = await insertSchedule({ title: '저녁 방송', date: '2031-07-15', time: '20:00', memberIds: [a.id, b.id], sourceName: 'KBS' });
  const untimed = await insertSchedule({ title: '하루 종일', date: '2031-07-15' });
  const early = await insertSchedule({ title: '아침 라디오', date: '2031-07-15', time: '08:05' });
  const before = await insertSchedule({ title: '전날', date: '2031-07-14', time: '23:59' });
  const listing = (await get('/api/schedules/?year=2031&month=7')).body;
  t.is(listing.year, 2031);
  t.is(listing.month, 7);
  const ids = listing.schedules.map((s: { id: unknown }) => s.id);
  t.deepEqual(ids, [before, early, late, `birthday-${b.id}-2031`, `birthday-${a.id}-2031`, untimed]);
  const item = listing.schedules.find((s: { id: unknown }) => s.id === late);
  t.deepEqual(item, { id: late, title: '저녁 방송', date: '2031-07-15', time: '20:00', category: { id: 1, name: '방송', color: item.category.color }, source: { name: 'KBS', url: null }, members: [{ id: b.id, name: b.name }, { id: a.id, name: a.name }] });
  const birthday = listing.schedules.find((s: { id: unknown }) => s.id === `birthday-${b.id}-2031`);
  t.is(birthday.isBirthday, true);
  t.is(birthday.category.id, 10);
  t.is(birthday.time, null);
  t.deepEqual(birthday.members, [{ id: b.id, name: b.name }]);
});

test('birthdays: 29 February shows on 28 February in a non-leap year and on 29 February in a leap year; former members are left out', async (t) => {
  const leap = await insertMember(db(), { name: '윤년생', birthDate: '2004-02-29' });
  const former = await insertMember(db(), { name: '전멤버', birthDate: '2000-02-10', isFormer: true });
  const feb2027 = (await get('/api/schedules/?year=2027&month=2')).body.schedules;
  t.is(feb2027.find((s: { id: string }) => s.id === `birthday-${leap.id}-2027`)?.date, '2027-02-28');
  t.is(feb2027.find((s: { id: string }) => s.id === `birthday-${former.id}-2027`), undefined);
  const feb2028 = (await get('/api/schedules/?year=2028&month=2')).body.schedules;
  t.is(feb2028.find((s: { id: string }) => s.id === `birthday-${leap.id}-2028`)?.date, '2028-02-29');
  const mar2027 = (await get('/api/schedules/?year=2027&month=3')).body.schedules;
  t.false(mar2027.some((s: { id: string }) => s.id === `birthday-${leap.id}-2027`));
});

test('listing: event items carry their event fields and source.name is the school name', async (t) => {
  const id = await createEvent({ date: '2032-10-03', schoolName: '연세대학교', postUrls: ['https://example.com/p'] }, [{ fileName: 'p.png', bytes: png }]);
  const item = (await get('/api/schedules/?year=2032&month=10')).body.schedules.find((s: { id: number }) => s.id === id);
  t.is(item.category.id, 11);
  t.deepEqual(item.source, { name: '연세대학교', url: null });
  t.is(item.schoolName, '연세대학교');
  t.is(item.subtype, 'university');
  t.is(item.venue.name, '민주광장');
  t.is(item.posters.length, 1);
  t.deepEqual(item.postUrls, ['https://example.com/p']);
});

test('cache: a strong ETag and a short Cache-Control; If-None-Match gives 304 with no body; a write changes the tag', async (t) => {
  await insertSchedule({ title: '캐시 확인', date: '2033-01-05' });
  const first = await get('/api/schedules/?year=2033&month=1');
  const etag = first.headers.get('etag')!;
  t.regex(etag, /^"[^"]+"$/, 'strong (not W/)');
  t.regex(first.headers.get('cache-control')!, /max-age=\d+/);
  const again = await fetch(`${service.url}/api/schedules/?year=2033&month=1`, { headers: { 'if-none-match': etag } });
  t.is(again.status, 304);
  t.is(await again.text(), '');
  // RFC 9110 13.1.2: If-None-Match compares weakly.
  t.is((await fetch(`${service.url}/api/schedules/?year=2033&month=1`, { headers: { 'if-none-match': `W/${etag}` } })).status, 304);
  await createEvent({ date: '2033-01-20', title: '새 행사' });
  const after = await fetch(`${service.url}/api/schedules/?year=2033&month=1`, { headers: { 'if-none-match': etag } });
  t.is(after.status, 200);
  t.not(after.headers.get('etag'), etag);
  t.true(((await after.json()) as { schedules: Array<{ title: string }> }).schedules.some((s: { title: string }) => s.title === '새 행사'));
});

test('cache: read, write, read sees the write — for create, update and delete', async (t) => {
  const month = () => get('/api/schedules/?year=2034&month=4').then((r) => r.body.schedules.map((s: { title: string }) => s.title));
  t.deepEqual(await month(), []);
  const id = await createEvent({ date: '2034-04-01', title: '첫 번째' });
  t.deepEqual(await month(), ['첫 번째']);
  const data = new FormData();
  data.append('payload', JSON.stringify({ title: '이름 바뀜' }));
  await call(service.url, 'PUT', `/api/admin/events/${id}`, { body: data, token });
  t.deepEqual(await month(), ['이름 바뀜']);
  await call(service.url, 'DELETE', `/api/schedules/${id}`, { token });
  t.deepEqual(await month(), []);
});

test('cache: many readers of a cold month during a write never keep the stale month', async (t) => {
  await Promise.all([1, 2, 3, 4, 5].map(() => get('/api/schedules/?year=2035&month=6')));
  const reads = Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => get('/api/schedules/?year=2035&month=6')));
  await createEvent({ date: '2035-06-06', title: '동시 쓰기' });
  await reads;
  t.true((await get('/api/schedules/?year=2035&month=6')).body.schedules.some((s: { title: string }) => s.title === '동시 쓰기'));
});

// ---- search ---------------------------------------------------------------------------------------------

test('search: {schedules, total, hasMore}, paginated, limit at most 100', async (t) => {
  for (let i = 0; i < 3; i++) await createEvent({ date: `2036-0${i + 1}-01`, schoolName: '이화여자대학교', title: `이화 축제 ${i}` });
  const page = (await get(`/api/schedules/?search=${encodeURIComponent('이대')}&limit=2`)).body;
  t.is(page.total, 3);
  t.is(page.schedules.length, 2);
  t.true(page.hasMore);
  t.is(page.schedules[0].date, '2036-03-01', 'recency breaks ties');
  const rest = (await get(`/api/schedules/?search=${encodeURIComponent('이대')}&limit=2&offset=2`)).body;
  t.is(rest.schedules.length, 1);
  t.false(rest.hasMore);
  t.is((await get('/api/schedules/?search=x&limit=101')).status, 400);
  t.is((await get('/api/schedules/?search=x&offset=-1')).status, 400);
});

// ---- detail and delete ---------------------------------------------------------------------------------

test('detail: 404 unknown, 400 malformed; description, images; birthday items have a detail too', async (t) => {
  t.is((await get('/api/schedules/999999')).status, 404);
  t.is((await get('/api/schedules/abc')).status, 400);
  t.is((await get('/api/schedules/1e3')).status, 400);
  const member = await insertMember(db(), { name: '상세멤버', birthDate: '2002-11-11' });
  const id = await insertSchedule({ title: '상세 확인', date: '2037-01-01', memberIds: [member.id] });
  await db().none('UPDATE schedules SET description = $2 WHERE id = $1', [id, '설명입니다']);
  const body = (await get(`/api/schedules/${id}`)).body;
  t.is(body.description, '설명입니다');
  t.deepEqual(body.images, []);
  t.deepEqual(body.members, [{ id: member.id, name: '상세멤버' }]);
  const birthday = await get(`/api/schedules/birthday-${member.id}-2037`);
  t.is(birthday.status, 200);
  t.is(birthday.body.date, '2037-11-11');
});

test('delete: 401 without an administrator token; 404 unknown; removes links, images, files and the index entry', async (t) => {
  const id = await createEvent({ date: '2038-02-02', schoolName: '서강대학교', title: '삭제될 행사' }, [{ fileName: 'p.png', bytes: png }]);
  t.is((await call(service.url, 'DELETE', `/api/schedules/${id}`)).status, 401);
  t.is((await call(service.url, 'DELETE', '/api/schedules/999999', { token })).status, 404);
  const keys = (await db().any('SELECT i.original_key, i.medium_key, i.thumb_key FROM events e, unnest(e.poster_image_ids) p JOIN images i ON i.id = p WHERE e.schedule_id = $1', [id])).flatMap((r) => Object.values(r) as string[]);
  t.true((await service.running.services.search.search('서강대', { offset: 0, limit: 50 })).ids.includes(id));
  t.is((await call(service.url, 'DELETE', `/api/schedules/${id}`, { token })).status, 200);
  t.is((await get(`/api/schedules/${id}`)).status, 404);
  for (const key of keys) t.false(existsSync(join(service.dataDir, 'storage', 'media', key)));
  t.false((await service.running.services.search.search('서강대', { offset: 0, limit: 50 })).ids.includes(id));
  t.is((await db().one("SELECT count(*)::int AS n FROM activity_log WHERE target_id = $1 AND action = 'delete'", [String(id)])).n, 1);
});

// ---- stats ---------------------------------------------------------------------------------------------

test('stats: the decided counts, and they move with the data', async (t) => {
  const before = (await get('/api/stats')).body;
  t.deepEqual(Object.keys(before).sort(), ['albums', 'bots', 'members', 'photos', 'schedules', 'schedulesByCategory', 'schedulesByYear', 'tracks']);
  t.deepEqual(Object.keys(before.bots).sort(), ['running', 'total']);
  await insertSchedule({ title: '통계', date: '2039-03-03', categoryId: 3 });
  const after = (await get('/api/stats')).body;
  t.true(after.schedules >= before.schedules + 1);
  t.is(after.schedulesByYear.find((y: { year: number }) => y.year === 2039).count, 1);
  const category3 = (stats: typeof before) => stats.schedulesByCategory.find((c: { categoryId: number }) => c.categoryId === 3).count;
  t.true(category3(after) >= category3(before) + 1);
});

// ---- members -------------------------------------------------------------------------------------------

test('members: list in display order with the decided shape; detail by a Hangul name with a space', async (t) => {
  const member = await insertMember(db(), { name: '김 하늘', nicknames: ['하늘이', 'sky'], birthDate: '2003-03-03', sortOrder: 0, nameEn: 'Kim Haneul' });
  const list = (await get('/api/members/')).body;
  t.deepEqual(Object.keys(list[0]).sort(), ['birthDate', 'id', 'imageUrl', 'instagram', 'isFormer', 'name', 'nameEn', 'nicknames', 'position']);
  const detail = await get(`/api/members/${encodeURIComponent('김 하늘')}`);
  t.is(detail.status, 200);
  t.deepEqual(detail.body, { id: member.id, name: '김 하늘', nameEn: 'Kim Haneul', birthDate: '2003-03-03', position: null, imageUrl: null, instagram: null, isFormer: false, nicknames: ['하늘이', 'sky'] });
  t.is((await get(`/api/members/${encodeURIComponent('없는 멤버')}`)).status, 404);
  t.is((await get('/api/members/%E0%A4%A')).status, 400, 'broken percent-encoding');
});

test('members: PUT needs an administrator token; updates fields; an image becomes three sizes and replaces the old files', async (t) => {
  await insertMember(db(), { name: '수정 멤버' });
  const path = `/api/members/${encodeURIComponent('수정 멤버')}`;
  const data = (payload?: unknown, image?: Uint8Array, name = 'face.png') => {
    const form = new FormData();
    if (payload !== undefined) form.append('payload', JSON.stringify(payload));
    if (image) form.append('image', new Blob([image]), name);
    return form;
  };
  t.is((await call(service.url, 'PUT', path, { body: data({ position: '보컬' }) })).status, 401);
  const updated = await call(service.url, 'PUT', path, { body: data({ position: '보컬', nicknames: ['별명'] }, png), token });
  t.is(updated.status, 200);
  t.is(updated.body.position, '보컬');
  t.deepEqual(updated.body.nicknames, ['별명']);
  t.regex(updated.body.imageUrl, /\/storage\/media\/member\/\d+\/\d+\.png$/);
  const firstKeys = await db().one('SELECT i.original_key, i.medium_key, i.thumb_key FROM members m JOIN images i ON i.id = m.image_id WHERE m.name = $1', ['수정 멤버']);
  const second = await call(service.url, 'PUT', path, { body: data(undefined, await pngImage(500, 300, 9)), token });
  t.is(second.status, 200);
  for (const key of Object.values(firstKeys)) t.false(existsSync(join(service.dataDir, 'storage', 'media', key as string)), 'old file removed');
  t.is((await call(service.url, 'PUT', path, { body: data(undefined, Buffer.from('not an image'), 'x.png'), token })).status, 400);
  t.is((await call(service.url, 'PUT', path, { body: data({ isFormer: 'yes' }), token })).status, 400);
  t.is((await call(service.url, 'PUT', path, { body: data({ unknownField: 1 }), token })).status, 400);
  t.is((await call(service.url, 'PUT', `/api/members/${encodeURIComponent('없는 멤버')}`, { body: data({ position: 'x' }), token })).status, 404);
});

test('members: renaming to an existing name gives 409; renaming moves the address', async (t) => {
  await insertMember(db(), { name: '이름A' });
  await insertMember(db(), { name: '이름B' });
  const form = (payload: unknown) => {
    const data = new FormData();
    data.append('payload', JSON.stringify(payload));
    return data;
  };
  t.is((await call(service.url, 'PUT', `/api/members/${encodeURIComponent('이름A')}`, { body: form({ name: '이름B' }), token })).status, 409);
  t.is((await call(service.url, 'PUT', `/api/members/${encodeURIComponent('이름A')}`, { body: form({ name: '이름C' }), token })).status, 200);
  t.is((await get(`/api/members/${encodeURIComponent('이름C')}`)).status, 200);
  t.is((await get(`/api/members/${encodeURIComponent('이름A')}`)).status, 404);
});

test('every public GET carries an ETag; OpenAPI lists the routes', async (t) => {
  for (const path of ['/api/members', '/api/schedule-categories', '/api/stats', '/api/schedules/?year=2030&month=1']) {
    const response = await get(path);
    t.truthy(response.headers.get('etag'), path);
  }
  const openapi = (await get('/api/openapi.json')).body;
  t.is(openapi.openapi, '3.1.0');
  for (const path of ['/api/schedules', '/api/schedules/{id}', '/api/members/{name}', '/api/admin/events/{id}', '/auth/register']) t.truthy(openapi.paths[path], path);
});
