// Two writes of one item at the same moment, on the real server and database: each race is forced
// through a barrier (a row lock held by another connection until every request waits for it), so
// both writes have begun before either commits. Each test checks what a user sees afterwards: the
// answers (never a 500), the stored result, the months the live changes name, what live subscribers
// end with against the listing, the cached months, and the files left on disk.
import test from 'ava';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeVideoSchedules } from '../shared/schedules/schedule-writes.ts';
import { holdLock, race } from './helpers/barrier.ts';
import { insertMember } from './helpers/factory.ts';
import { jpegImage, pngImage } from './helpers/images.ts';
import { LiveSocket, type LiveMessage } from './helpers/live-clients.ts';
import { validatedMessages } from './helpers/live-contract.ts';
import { adminToken, call, startTestService, type JsonResponse, type TestService } from './helpers/service.ts';

let service: TestService;
let token: string;

test.before(async () => {
  service = await startTestService();
  token = await adminToken(service.url);
});
test.after.always(async () => {
  await service?.stop();
});

const db = () => service.running.services.db;
const send = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) => call(service.url, method, path, { json, token, headers });
const sendForm = (method: string, path: string, payload: unknown, files: Array<{ name: string; fileName: string; bytes: Uint8Array }>, headers: Record<string, string> = {}) => {
  const data = new FormData();
  data.append('payload', JSON.stringify(payload));
  for (const file of files) data.append(file.name, new Blob([file.bytes]), file.fileName);
  return call(service.url, method, path, { body: data, token, headers });
};
const lockSchedule = (id: number) => holdLock(db(), 'SELECT 1 FROM schedules WHERE id = $1 FOR UPDATE', [id]);
const statuses = (answers: JsonResponse[]) => answers.map((answer) => answer.status);

let n = 0;
const general = (overrides: Record<string, unknown> = {}) => ({ categoryId: 2, title: `동시 수정 공연 ${++n}`, date: '2026-04-15', time: '18:00', ...overrides });
const event = (overrides: Record<string, unknown> = {}) => ({
  title: `동시 수정 축제 ${++n}`, date: '2026-04-20', schoolName: '한빛대학교', venue: { name: `한빛대 대운동장 ${n}`, address: '서울 어딘가' }, ...overrides,
});

interface LiveRow { seq: number; kind: string; months: string[]; item: Record<string, unknown> | null }
const liveRows = (targetId: number) =>
  db().any<LiveRow>("SELECT seq, kind, months, item FROM live_changes WHERE target_id = $1 AND kind <> 'birthday' ORDER BY seq", [targetId]);

/** Files under a storage folder, relative to the bucket. */
async function filesUnder(folder: string): Promise<string[]> {
  const root = join(service.dataDir, 'storage', 'media');
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(join(root, dir), { withFileTypes: true }).catch(() => [])) {
      if (entry.isDirectory()) await walk(join(dir, entry.name));
      else found.push(join(dir, entry.name));
    }
  };
  await walk(folder);
  return found.sort();
}
/** The files the image records under a folder name: exactly what must be on disk. */
async function referencedUnder(folder: string): Promise<string[]> {
  const rows = await db().any<{ key: string }>(
    `SELECT unnest(ARRAY[original_key, medium_key, thumb_key]) AS key FROM images WHERE starts_with(original_key, $1)`,
    [`${folder}/`],
  );
  return rows.map((row) => row.key).sort();
}

/** A subscriber's view of its months after applying every change it received, in order. */
function applied(messages: LiveMessage[], month: string): Map<string, string> {
  const state = new Map<string, string>();
  for (const message of messages) {
    if (!message.type.startsWith('schedule.')) continue;
    const id = String(message.id);
    if (message.type === 'schedule.deleted' || !message.schedule || !String(message.schedule.date).startsWith(month)) state.delete(id);
    else state.set(id, String(message.schedule.title));
  }
  return state;
}
async function listing(month: string): Promise<Map<string, string>> {
  const [year, m] = month.split('-').map(Number);
  const answer = await call(service.url, 'GET', `/api/schedules?year=${year}&month=${m}`);
  return new Map((answer.body.schedules as Array<{ id: number | string; title: string; isBirthday?: true }>).filter((item) => !item.isBirthday).map((item) => [String(item.id), item.title]));
}

test.serial('two moves of one schedule at once: the second change names the month the first moved it to; subscribers and cached months end as the listing', async (t) => {
  const { body: { id } } = await send('POST', '/api/schedules', general());
  const months = ['2026-01', '2026-03', '2026-04'];
  const socket = await LiveSocket.open(service.url);
  await socket.subscribe(months);
  for (const month of months) await listing(month); // every month cached before the race
  const before = (await liveRows(id)).length;

  const answers = await race(await lockSchedule(id), [
    () => send('PUT', `/api/schedules/${id}`, general({ title: '3월로 옮김', date: '2026-03-10' })),
    () => send('PUT', `/api/schedules/${id}`, general({ title: '1월로 옮김', date: '2026-01-10' })),
  ]);
  t.deepEqual(statuses(answers), [200, 200]);

  const [first, second] = (await liveRows(id)).slice(before);
  t.deepEqual(first!.months, ['2026-04', '2026-03']);
  t.deepEqual(second!.months, ['2026-03', '2026-01'], 'the second write read the date the first one wrote');
  await socket.next((m) => m.seq === second!.seq);
  for (const month of months) {
    const truth = await listing(month);
    t.deepEqual(applied(socket.changes(), month).get(String(id)), truth.get(String(id)), `subscriber of ${month}`);
  }
  t.is((await listing('2026-03')).has(String(id)), false, 'the cached March no longer lists it');
  t.is((await listing('2026-01')).get(String(id)), '1월로 옮김');
  socket.close();
});

test.serial('an event update racing its delete: applied then deleted, or 404 after the delete; never a 500, never an update without its item, no file left', async (t) => {
  const png = await pngImage();
  for (const order of ['update first', 'delete first'] as const) {
    const created = await sendForm('POST', '/api/admin/events', event(), [{ name: 'posters', fileName: 'a.png', bytes: png }]);
    const id = created.body.id as number;
    const update = () => sendForm('PUT', `/api/admin/events/${id}`, event({ title: '바뀐 축제' }), [{ name: 'posters', fileName: 'b.png', bytes: png }]);
    const remove = () => send('DELETE', `/api/admin/events/${id}`);
    const answers = await race(await lockSchedule(id), order === 'update first' ? [update, remove] : [remove, update]);
    t.deepEqual(statuses(answers), order === 'update first' ? [200, 200] : [200, 404], order);
    const rows = await liveRows(id);
    t.is(rows.at(-1)!.kind, 'deleted', `${order}: the delete is the last change`);
    t.true(rows.every((row) => row.kind !== 'updated' || row.item !== null), `${order}: every update carries its item`);
    t.deepEqual(await filesUnder(`event/${id}`), [], `${order}: no poster file outlives the event`);
    t.is((await send('GET', `/api/admin/events/${id}`)).status, 404);
  }
});

test.serial('a schedule update with images racing its delete: never a 500 (no foreign-key failure), no file left', async (t) => {
  const jpeg = await jpegImage();
  for (const order of ['update first', 'delete first'] as const) {
    const created = await sendForm('POST', '/api/schedules', general(), [{ name: 'images', fileName: 'a.jpg', bytes: jpeg }]);
    const id = created.body.id as number;
    const update = () => sendForm('PUT', `/api/schedules/${id}`, general({ title: '사진 바꿈' }), [{ name: 'images', fileName: 'b.jpg', bytes: jpeg }]);
    const remove = () => send('DELETE', `/api/schedules/${id}`);
    const answers = await race(await lockSchedule(id), order === 'update first' ? [update, remove] : [remove, update]);
    t.deepEqual(statuses(answers), order === 'update first' ? [200, 200] : [200, 404], order);
    t.deepEqual(await filesUnder(`schedule/${id}`), [], `${order}: no image file outlives the schedule`);
  }
});

test.serial('two image updates of one schedule at once: the second keeps from what the first left (or is refused), and disk holds exactly the images recorded', async (t) => {
  const [png, jpeg] = await Promise.all([pngImage(), jpegImage()]);
  const created = await sendForm('POST', '/api/schedules', general(), [{ name: 'images', fileName: 'a.png', bytes: png }, { name: 'images', fileName: 'b.jpg', bytes: jpeg }]);
  const id = created.body.id as number;
  const [a, b] = (await call(service.url, 'GET', `/api/schedules/${id}`)).body.images as Array<{ id: number }>;
  const answers = await race(await lockSchedule(id), [
    () => sendForm('PUT', `/api/schedules/${id}`, general({ keepImageIds: [b!.id] }), [{ name: 'images', fileName: 'c.png', bytes: png }]),
    () => sendForm('PUT', `/api/schedules/${id}`, general({ keepImageIds: [a!.id] }), [{ name: 'images', fileName: 'd.png', bytes: png }]),
  ]);
  t.deepEqual(statuses(answers), [200, 400], 'the second named an image the first had dropped');
  const images = (await call(service.url, 'GET', `/api/schedules/${id}`)).body.images as Array<{ id: number }>;
  t.is(images.length, 2);
  t.is(images[0]!.id, b!.id);
  t.deepEqual(await filesUnder(`schedule/${id}`), await referencedUnder(`schedule/${id}`));
});

test.serial('two birthday changes of one member at once: the second change moves the birthday from where the first put it', async (t) => {
  const member = await insertMember(db(), { name: '동시생일', birthDate: '2001-04-05' });
  const before = await db().one<{ seq: number }>('SELECT COALESCE(max(seq), 0) AS seq FROM live_changes');
  const answers = await race(await holdLock(db(), 'SELECT 1 FROM members WHERE id = $1 FOR UPDATE', [member.id]), [
    () => send('PUT', `/api/members/${encodeURIComponent(member.name)}`, { birthDate: '2001-06-07' }),
    () => send('PUT', `/api/members/${encodeURIComponent(member.name)}`, { birthDate: '2001-09-10' }),
  ]);
  t.deepEqual(statuses(answers), [200, 200]);
  const rows = await db().any<{ item: { before: { birthDate: string }; after: { birthDate: string } } }>(
    "SELECT item FROM live_changes WHERE kind = 'birthday' AND target_id = $1 AND seq > $2 ORDER BY seq", [member.id, before.seq],
  );
  t.deepEqual(rows.map((row) => [row.item.before.birthDate, row.item.after.birthDate]), [['2001-04-05', '2001-06-07'], ['2001-06-07', '2001-09-10']]);
});

test.serial('two cover replacements of one album at once: one cover left, the other files removed', async (t) => {
  const [png, jpeg] = await Promise.all([pngImage(), jpegImage()]);
  const created = await sendForm('POST', '/api/albums', { title: `동시 앨범 ${++n}`, albumType: 'single' }, [{ name: 'cover', fileName: 'a.png', bytes: png }]);
  t.is(created.status, 201);
  const id = created.body.id as number;
  const answers = await race(await holdLock(db(), 'SELECT 1 FROM albums WHERE id = $1 FOR UPDATE', [id]), [
    () => sendForm('PUT', `/api/albums/${id}`, { description: '첫째' }, [{ name: 'cover', fileName: 'b.png', bytes: png }]),
    () => sendForm('PUT', `/api/albums/${id}`, { description: '둘째' }, [{ name: 'cover', fileName: 'c.jpg', bytes: jpeg }]),
  ]);
  t.deepEqual(statuses(answers), [200, 200]);
  const files = await filesUnder(`album/${id}/cover`);
  t.is(files.length, 3, 'one cover: its original, medium and thumb');
  t.deepEqual(files, await referencedUnder(`album/${id}/cover`));
});

test.serial('a category rename racing its delete: renamed then deleted, or 404 after the delete; never a 500', async (t) => {
  for (const order of ['rename first', 'delete first'] as const) {
    const { body: { id } } = await send('POST', '/api/schedule-categories', { name: `동시 분류 ${++n}`, color: '#123456' });
    const rename = () => send('PUT', `/api/schedule-categories/${id}`, { name: `바뀐 분류 ${++n}` });
    const remove = () => send('DELETE', `/api/schedule-categories/${id}`);
    const answers = await race(await holdLock(db(), 'SELECT 1 FROM schedule_categories WHERE id = $1 FOR UPDATE', [id]), order === 'rename first' ? [rename, remove] : [remove, rename]);
    t.deepEqual(statuses(answers), order === 'rename first' ? [200, 200] : [200, 404], order);
  }
});

test.serial("a bot's collected video racing an administrator's delete of its schedule: updated then deleted, or created anew after the delete", async (t) => {
  const video = (title: string) => ({
    videoId: `race${++n}`.padEnd(11, 'x'), title, description: '', date: '2026-05-02', time: '19:00', channelId: 'UCrace', channelName: '공식 채널',
    videoType: 'video' as const, thumbnailUrl: null, memberIds: [], publishedAt: '2026-05-02T10:00:00Z', botId: null,
  });
  for (const order of ['collect first', 'delete first'] as const) {
    const collected = video('영상 일정');
    const [written] = await writeVideoSchedules(db(), [collected]);
    const id = written!.scheduleId;
    const collect = () => writeVideoSchedules(db(), [{ ...collected, title: '다시 수집한 영상', date: '2026-05-09' }]).then((results) => ({ status: 200, body: results[0] }) as JsonResponse);
    const remove = () => send('DELETE', `/api/schedules/${id}`);
    const answers = await race(await lockSchedule(id), order === 'collect first' ? [collect, remove] : [remove, collect]);
    t.deepEqual(statuses(answers), [200, 200], order);
    const rows = await liveRows(id);
    t.is(rows.at(-1)!.kind, 'deleted', `${order}: nothing follows the delete of that id`);
    const again = answers[order === 'collect first' ? 0 : 1]!.body as { scheduleId: number; created: boolean };
    if (order === 'collect first') t.false(again.created);
    else {
      t.true(again.created, 'collected after the delete: a new schedule');
      t.not(again.scheduleId, id);
      t.deepEqual((await liveRows(again.scheduleId)).map((row) => row.kind), ['created']);
    }
  }
});

// ---- If-Match ----------------------------------------------------------------------------------

test.serial('If-Match on a schedule: the current ETag writes, a stale one is 412 and changes nothing, none or * writes', async (t) => {
  const { body: { id } } = await send('POST', '/api/schedules', general());
  const read = await call(service.url, 'GET', `/api/schedules/${id}`);
  const etag = read.headers.get('etag')!;
  t.regex(etag, /^"v\d+-/);
  t.is((await send('PUT', `/api/schedules/${id}`, general({ title: '첫 수정' }), { 'if-match': etag })).status, 200);
  const stale = await send('PUT', `/api/schedules/${id}`, general({ title: '늦은 수정' }), { 'if-match': etag });
  t.is(stale.status, 412);
  t.is(stale.body.code, 'precondition_failed');
  t.is((await call(service.url, 'GET', `/api/schedules/${id}`)).body.title, '첫 수정');
  t.is((await send('DELETE', `/api/schedules/${id}`, undefined, { 'if-match': etag })).status, 412, 'a stale delete deletes nothing');
  t.is((await send('PUT', `/api/schedules/${id}`, general({ title: '태그 없이' }), { 'if-match': `W/${etag}` })).status, 412, 'a weak tag never matches');
  t.is((await send('PUT', `/api/schedules/${id}`, general({ title: '아무 버전' }), { 'if-match': '*' })).status, 200);
  t.is((await send('PUT', `/api/schedules/${id}`, general({ title: '태그 없이' }))).status, 200, 'without If-Match the write applies');
  const fresh = (await call(service.url, 'GET', `/api/schedules/${id}`)).headers.get('etag')!;
  t.not(fresh, etag);
  t.is((await send('DELETE', `/api/schedules/${id}`, undefined, { 'if-match': fresh })).status, 200);
});

test.serial('If-Match: of two administrators who read one version and write at once, the first writes and the second gets 412', async (t) => {
  const { body: { id } } = await send('POST', '/api/schedules', general());
  const etag = (await call(service.url, 'GET', `/api/schedules/${id}`)).headers.get('etag')!;
  const answers = await race(await lockSchedule(id), [
    () => send('PUT', `/api/schedules/${id}`, general({ title: '먼저 쓴 관리자' }), { 'if-match': etag }),
    () => send('PUT', `/api/schedules/${id}`, general({ title: '나중 쓴 관리자' }), { 'if-match': etag }),
  ]);
  t.deepEqual(statuses(answers), [200, 412]);
  t.is((await call(service.url, 'GET', `/api/schedules/${id}`)).body.title, '먼저 쓴 관리자');
});

test.serial('If-Match on events, albums, members and categories: their GET answers an ETag; a stale one is 412', async (t) => {
  const png = await pngImage();
  const eventId = (await sendForm('POST', '/api/admin/events', event(), [])).body.id as number;
  const albumId = (await sendForm('POST', '/api/albums', { title: `버전 앨범 ${++n}`, albumType: 'single' }, [{ name: 'cover', fileName: 'a.png', bytes: png }])).body.id as number;
  const member = await insertMember(db(), { name: `버전멤버${++n}` });
  const categoryId = (await send('POST', '/api/schedule-categories', { name: `버전 분류 ${++n}`, color: '#abcdef' })).body.id as number;
  const memberPath = `/api/members/${encodeURIComponent(member.name)}`;
  const cases = [
    { read: `/api/admin/events/${eventId}`, write: () => ['PUT', `/api/admin/events/${eventId}`, event({ title: '바뀐 행사' })] as const },
    { read: `/api/albums/${albumId}`, write: () => ['PUT', `/api/albums/${albumId}`, { description: '바뀐 설명' }] as const },
    { read: memberPath, write: () => ['PUT', memberPath, { position: '보컬' }] as const },
    { read: `/api/schedule-categories/${categoryId}`, write: () => ['PUT', `/api/schedule-categories/${categoryId}`, { color: '#000000' }] as const },
  ];
  for (const { read, write } of cases) {
    const etag = (await send('GET', read)).headers.get('etag');
    t.truthy(etag, `${read} answers an ETag`);
    const [method, path, body] = write();
    t.is((await send(method, path, body, { 'if-match': etag! })).status, 200, `${path}: the current tag writes`);
    const stale = await send(method, path, body, { 'if-match': etag! });
    t.is(stale.status, 412, `${path}: the same tag again is stale`);
    t.is(stale.body.code, 'precondition_failed');
  }
  const staleDelete = await send('DELETE', `/api/schedule-categories/${categoryId}`, undefined, { 'if-match': '"v1-x"' });
  t.is(staleDelete.status, 412);
  t.is((await send('GET', `/api/schedule-categories/${categoryId}`)).status, 200, 'still there');
});

test.serial('every live message the clients of this file received matched the AsyncAPI document', (t) => {
  // The clients throw on a message the document does not describe; this shows they judged some.
  t.true(validatedMessages > 0);
});
