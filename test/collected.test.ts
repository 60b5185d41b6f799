// The schedule writer's upsert of collected items (shared/collected.ts), on real PostgreSQL:
// natural keys, duplicates inside a run, members, outbox entries, onlyNew for the admin routes.
import test from 'ava';
import { connectDatabase, type Database } from '../shared/db/database.ts';
import { migrate } from '../shared/db/migrate.ts';
import { writePostSchedules, writeVideoSchedule, writeVideoSchedules, type PostCollected, type VideoCollected } from '../shared/collected.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { insertMember } from './helpers/factory.ts';

let testDatabase: TestDatabase;
let database: Database;
test.before(async () => {
  testDatabase = await createTestDatabase();
  database = connectDatabase(testDatabase.url, createLogger('warn'), 4);
  await migrate(database.db, createLogger('warn'));
});
test.after.always(async () => {
  await database?.close();
  await testDatabase?.drop();
});

let n = 0;
const video = (overrides: Partial<VideoCollected> = {}): VideoCollected => ({
  videoId: `vid${String(++n).padStart(8, '0')}`, title: `영상 ${n}`, description: '', channelId: 'UC1', channelName: '공식 채널',
  publishedAt: '2026-03-01T10:00:00Z', date: '2026-03-01', time: '19:00', thumbnailUrl: null, videoType: 'video', memberIds: [], botId: null, ...overrides,
});

test('a run of new videos becomes schedules with their records, members and one outbox entry each, in input order', async (t) => {
  const member = await insertMember(database.db, { name: '수집멤버' });
  const videos = [video({ memberIds: [member.id, 999_999] }), video(), video({ videoType: 'shorts' })];
  const results = await writeVideoSchedules(database.db, videos);
  t.is(results.length, 3);
  t.true(results.every((r) => r?.created));
  const ids = results.map((r) => r!.scheduleId);
  t.is(new Set(ids).size, 3);
  const rows = await database.db.any("SELECT s.id, s.category_id, s.title, v.video_id, v.video_type FROM schedules s JOIN video_schedules v ON v.schedule_id = s.id WHERE s.id = ANY($1) ORDER BY s.id", [ids]);
  t.deepEqual(rows.map((r) => r.video_id), videos.map((v) => v.videoId));
  t.true(rows.every((r) => r.category_id === 6));
  t.is(rows[2].video_type, 'shorts');
  const members = await database.db.any('SELECT member_id FROM schedule_members WHERE schedule_id = $1', [ids[0]]);
  t.deepEqual(members.map((m) => m.member_id), [member.id], 'unknown member ids are skipped');
  const outbox = await database.db.any("SELECT key, payload FROM outbox WHERE key = ANY($1::text[]) ORDER BY id", [ids.map(String)]);
  t.deepEqual(outbox.map((o) => [o.key, o.payload.action]), ids.map((id) => [String(id), 'create']));
});

test('writing again updates in place; a video twice in one run is written once, as its last occurrence', async (t) => {
  const first = video({ title: '처음 제목' });
  const [created] = await writeVideoSchedules(database.db, [first]);
  const results = await writeVideoSchedules(database.db, [{ ...first, title: '중간 제목' }, { ...first, title: '마지막 제목', date: '2026-04-02' }]);
  t.is(results[0]!.scheduleId, created!.scheduleId);
  t.is(results[1]!.scheduleId, created!.scheduleId);
  t.false(results[1]!.created);
  t.deepEqual(results[1]!.change.dates, ['2026-03-01', '2026-04-02']);
  const row = await database.db.one("SELECT title, to_char(date, 'YYYY-MM-DD') AS date FROM schedules WHERE id = $1", [created!.scheduleId]);
  t.deepEqual(row, { title: '마지막 제목', date: '2026-04-02' });
  t.is((await database.db.one('SELECT count(*)::int AS n FROM video_schedules WHERE video_id = $1', [first.videoId])).n, 1);
});

test('onlyNew leaves an existing video alone and answers null', async (t) => {
  const item = video({ title: '원래 제목' });
  t.truthy(await writeVideoSchedule(database.db, item, { onlyNew: true }));
  t.is(await writeVideoSchedule(database.db, { ...item, title: '덮어쓰기' }, { onlyNew: true }), null);
  t.is((await database.db.one('SELECT s.title FROM schedules s JOIN video_schedules v ON v.schedule_id = s.id WHERE v.video_id = $1', [item.videoId])).title, '원래 제목');
});

test('concurrent runs with the same videos store each once', async (t) => {
  const videos = Array.from({ length: 20 }, () => video());
  await Promise.all([writeVideoSchedules(database.db, videos), writeVideoSchedules(database.db, [...videos].reverse()), writeVideoSchedules(database.db, videos.slice(5))]);
  const count = await database.db.one('SELECT count(*)::int AS n FROM video_schedules WHERE video_id = ANY($1::text[])', [videos.map((v) => v.videoId)]);
  t.is(count.n, 20);
});

test('posts: the title is the first line of the text; the source is the display name', async (t) => {
  const post: PostCollected = { postId: '1850000000000000001', username: 'official', displayName: '공식 계정', text: '\n  오늘의 무대 🎤\n둘째 줄', createdAt: '2026-05-05T03:00:00Z', date: '2026-05-05', time: '12:00', imageUrls: ['https://pbs.twimg.com/media/A?format=jpg&name=orig'], memberIds: [], botId: null };
  const [result] = await writePostSchedules(database.db, [post]);
  const row = await database.db.one('SELECT s.category_id, s.title, s.source_name, s.source_url, p.image_urls FROM schedules s JOIN post_schedules p ON p.schedule_id = s.id WHERE s.id = $1', [result!.scheduleId]);
  t.deepEqual(row, { category_id: 7, title: '오늘의 무대 🎤', source_name: '공식 계정', source_url: 'https://x.com/official/status/1850000000000000001', image_urls: post.imageUrls });
});
