// The demo data set (`npm run seed:demo`): loaded once into an empty database of a real service,
// with the real image pool, storage and search index; a second run refuses and changes nothing.
import test from 'ava';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { demoDataSet } from '../shared/db/demo-data.ts';
import { describeOutcome, isDatabaseEmpty, seedDemo, type SeedOutcome } from '../shared/db/demo-seed.ts';
import { countRows } from './helpers/factory.ts';
import { startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let emptyBefore: boolean;
let first: SeedOutcome;
let cachedMonthDropped: boolean;
const year = new Date(Date.now() + 9 * 3_600_000).getUTCFullYear(); // this year in Asia/Seoul

test.before(async () => {
  service = await startTestService();
  const s = service.running.services;
  emptyBefore = await isDatabaseEmpty(s.db);
  s.monthlyCache.set(year, 5, { body: '{"schedules":[]}', etag: '"empty"' }, s.monthlyCache.version(year, 5));
  first = await seedDemo(s, { imageWidth: 600 });
  cachedMonthDropped = s.monthlyCache.get(year, 5) === undefined;
});
test.after.always(async () => {
  await service?.stop();
});

const db = () => service.running.services.db;
const storageDir = () => join(service.dataDir, 'storage', 'media');

test('the seed runs on an empty database and reports what it stored', (t) => {
  t.true(emptyBefore);
  t.true(first.seeded, first.seeded ? '' : first.reason);
  if (!first.seeded) return;
  t.is(first.year, year);
  t.like(first.counts, { members: 5, albums: 3, events: 10, venues: 10 });
  t.true(first.counts.schedules >= 150);
  t.is(first.counts.indexed, first.counts.schedules);
  t.regex(describeOutcome(first), /^데모 데이터를 넣었습니다 \/ demo data seeded .*멤버 5, 앨범 3/);
});

test('members: five current members with English names, positions, 1–3 nicknames and birthdays over the year, one on 29 February', async (t) => {
  const members = await db().any<{ name: string; name_en: string; birth_date: string; position: string; nicknames: string[]; is_former: boolean }>(
    'SELECT name, name_en, birth_date, position, nicknames, is_former FROM members ORDER BY sort_order',
  );
  t.is(members.length, 5);
  for (const member of members) {
    t.truthy(member.name_en);
    t.truthy(member.position);
    t.false(member.is_former);
    t.true(member.nicknames.length >= 1 && member.nicknames.length <= 3, member.name);
  }
  t.is(new Set(members.map((m) => m.birth_date.slice(5, 7))).size, 5, 'five different birth months');
  t.true(members.some((m) => m.birth_date.endsWith('-02-29')));
  t.false(await isDatabaseEmpty(db()));
});

test('albums: three with Hangul titles, a cover image, 3–6 tracks with durations and exactly one title track', async (t) => {
  const albums = await db().any<{ title: string; cover_image_id: number | null; tracks: number; title_tracks: number; timed: number }>(
    `SELECT a.title, a.cover_image_id, count(t.id)::int AS tracks, count(*) FILTER (WHERE t.is_title_track)::int AS title_tracks,
            count(*) FILTER (WHERE t.duration ~ '^\\d+:\\d\\d$')::int AS timed
       FROM albums a JOIN tracks t ON t.album_id = a.id GROUP BY a.id ORDER BY a.release_date`,
  );
  t.is(albums.length, 3);
  for (const album of albums) {
    t.regex(album.title, /[가-힣]/);
    t.truthy(album.cover_image_id, album.title);
    t.true(album.tracks >= 3 && album.tracks <= 6, album.title);
    t.is(album.title_tracks, 1, album.title);
    t.is(album.timed, album.tracks, album.title);
  }
  t.true(albums.some((album) => album.title.includes(' ')));
});

test('schedules: at least 150 in this year, in every month, across categories 1–9 and 11, with sources, members and a few without time', async (t) => {
  const total = await countRows(db(), 'schedules');
  t.true(total >= 150, `${total}`);
  const months = await db().any<{ month: number; n: number }>('SELECT extract(month FROM date)::int AS month, count(*)::int AS n FROM schedules WHERE extract(year FROM date) = $1 GROUP BY 1 ORDER BY 1', [year]);
  t.deepEqual(months.map((m) => m.month), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  t.is(months.reduce((sum, m) => sum + m.n, 0), total, 'all in this year');
  const categories = await db().map<number>('SELECT DISTINCT category_id FROM schedules ORDER BY 1', [], (row: { category_id: number }) => row.category_id);
  t.deepEqual(categories, [1, 2, 3, 4, 5, 6, 7, 8, 9, 11]);
  const stats = await db().one<{ untimed: number; sourced: number; linked: number; videos: number; posts: number }>(
    `SELECT count(*) FILTER (WHERE time IS NULL)::int AS untimed, count(*) FILTER (WHERE source_name IS NOT NULL)::int AS sourced,
            (SELECT count(DISTINCT schedule_id)::int FROM schedule_members) AS linked,
            (SELECT count(*)::int FROM video_schedules) AS videos, (SELECT count(*)::int FROM post_schedules) AS posts
       FROM schedules`,
  );
  t.true(stats.untimed >= 3 && stats.untimed < total / 4, `${stats.untimed} without time`);
  t.true(stats.sourced > total / 3);
  t.true(stats.linked > total / 2);
  t.true(stats.videos > 0 && stats.posts > 0);
  t.is(await countRows(db(), 'outbox'), total, 'one schedule.changed entry per schedule');
});

test('events: 8–12 school events with a known school, a venue, post URLs and 1–2 posters whose three files exist', async (t) => {
  const events = await db().any<{ schedule_id: number; school_name: string; known: boolean; venue: { name: string; address: string; road_address: string; lat: number; lng: number; map_id: string }; post_urls: string[]; poster_image_ids: number[] }>(
    `SELECT e.schedule_id, e.school_name, EXISTS (SELECT 1 FROM school_names WHERE full_name = e.school_name) AS known,
            row_to_json(v) AS venue, e.post_urls, e.poster_image_ids
       FROM events e JOIN schedules s ON s.id = e.schedule_id JOIN venues v ON v.id = e.venue_id WHERE s.category_id = 11`,
  );
  t.true(events.length >= 8 && events.length <= 12);
  t.is(await countRows(db(), 'events'), events.length, 'every event has its venue');
  const files = new Set((await readdir(storageDir(), { recursive: true })).map(String));
  for (const event of events) {
    t.true(event.known, event.school_name);
    t.truthy(event.venue.name && event.venue.address && event.venue.road_address && event.venue.map_id);
    t.true(Number.isFinite(event.venue.lat) && Number.isFinite(event.venue.lng));
    t.true(event.post_urls.length >= 1 && event.post_urls.every((url) => url.startsWith('https://')));
    t.true(event.poster_image_ids.length >= 1 && event.poster_image_ids.length <= 2);
    const images = await db().any<{ original_key: string; medium_key: string; thumb_key: string; width: number; height: number }>(
      'SELECT original_key, medium_key, thumb_key, width, height FROM images WHERE id = ANY($1::int[])',
      [event.poster_image_ids],
    );
    t.is(images.length, event.poster_image_ids.length);
    for (const image of images) {
      t.true(image.original_key.startsWith(`event/${event.schedule_id}/poster/`));
      t.true(image.height > image.width, 'portrait poster');
      for (const key of [image.original_key, image.medium_key, image.thumb_key]) t.true(files.has(key) && existsSync(join(storageDir(), key)), key);
    }
  }
  const linked = await db().one<{ n: number }>('SELECT count(*)::int AS n FROM schedule_images');
  t.is(linked.n, events.reduce((sum, event) => sum + event.poster_image_ids.length, 0));
});

test('a second run refuses with a reason and changes nothing', async (t) => {
  const tables = ['members', 'albums', 'tracks', 'schedules', 'events', 'images', 'venues', 'schedule_members', 'schedule_images', 'outbox'] as const;
  const snapshot = async () => ({ rows: await Promise.all(tables.map((table) => countRows(db(), table))), files: (await readdir(storageDir(), { recursive: true })).length });
  const before = await snapshot();
  const again = await seedDemo(service.running.services, { imageWidth: 600 });
  t.false(again.seeded);
  if (!again.seeded) t.regex(again.reason, /비어 있지 않습니다/);
  t.regex(describeOutcome(again), /^데모 데이터를 넣지 않았습니다/);
  t.deepEqual(await snapshot(), before);
});

test('search: an event is found by its school short form, a member by her nickname', async (t) => {
  const { search, db: database } = service.running.services;
  const [hufs] = await database.map<number>("SELECT schedule_id FROM events WHERE school_name = '한국외국어대학교'", [], (row: { schedule_id: number }) => row.schedule_id);
  const byShortForm = await search.search('외대', { offset: 0, limit: 50 });
  t.true(byShortForm.ids.includes(hufs!));
  const byNickname = await search.search('윤달요정', { offset: 0, limit: 50 });
  t.true(byNickname.total > 0);
});

test('search: the seeded events are found by their venue, and by a word one jamo off', async (t) => {
  const { search, db: database } = service.running.services;
  const openAir = await database.map<number>("SELECT e.schedule_id FROM events e JOIN venues v ON v.id = e.venue_id WHERE v.name LIKE '%노천극장'", [], (row: { schedule_id: number }) => row.schedule_id);
  t.is(openAir.length, 4);
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
  t.deepEqual(sorted((await search.search('노천극장', { offset: 0, limit: 50 })).ids), sorted(openAir));
  const festivals = await database.map<number>("SELECT id FROM schedules WHERE title LIKE '%대동제%'", [], (row: { id: number }) => row.id);
  t.deepEqual(sorted((await search.search('대동재', { offset: 0, limit: 50 })).ids), sorted(festivals));
});

test('the monthly cache is dropped after the seed', (t) => {
  t.true(cachedMonthDropped);
});

test('the data set is deterministic for a year and stays inside it', (t) => {
  const a = demoDataSet(2027);
  t.deepEqual(demoDataSet(2027), a);
  t.true(a.schedules.every((schedule) => schedule.date.startsWith('2027-')));
  t.false(a.schedules.some((schedule) => schedule.categoryId === 10), 'birthdays come from the members');
});
