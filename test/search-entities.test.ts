// What the search knows beside the words (docs/search.md, "Entities and places"): the stored
// venues, members, albums and tracks with the aliases and translations administrators add, and the
// shipped gazetteer; and how it learns from misses ("Learning from misses"). The rules as functions,
// then every kind over HTTP on the real service with the demo data seeded.
import test from 'ava';
import { placesNamed, PLACES } from '../shared/korean/gazetteer.ts';
import { originalTitle } from '../shared/search/entities.ts';
import { seedDemo } from '../shared/db/demo-seed.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';
import { DEMO_YEAR } from './search-quality.ts';

test('gazetteer: a title or an address names a place and the places it lies in; short Latin names only in capitals', (t) => {
  t.deepEqual(placesNamed('루미네 팬미팅 in 도쿄'), ['도쿄', '일본']);
  t.deepEqual(placesNamed('World Tour in LA'), ['로스앤젤레스', '미국']);
  t.deepEqual(placesNamed('between us'), [], 'a lowercase `us` is a word, not a country');
  t.deepEqual(placesNamed('서울 광진구 화양동 1'), ['서울', '대한민국', '광진구']);
  t.deepEqual(placesNamed('잠실 팬사인회'), ['송파구', '서울', '대한민국'], 'a neighbourhood is its district');
  t.deepEqual(placesNamed('도쿄에서 만나요'), ['도쿄', '일본'], 'a particle after the name');
  t.deepEqual(placesNamed('new york city'), ['뉴욕', '미국'], 'a name of two words');
  for (const place of PLACES) {
    t.true(place.names.some((name) => /[가-힣]/.test(name)) && place.names.some((name) => /[a-z]/.test(name)), place.name);
    if (place.kind !== 'country') t.truthy(place.parent && PLACES.some((other) => other.name === place.parent), place.name);
  }
});

test('entities: a version\'s title names its original', (t) => {
  t.is(originalTitle('나침반 (Inst.)'), '나침반');
  t.is(originalTitle('Compass -Japanese ver.-'), 'Compass');
  t.is(originalTitle('별을 세는 밤'), undefined);
});

let service: TestService;
let token: string;
test.before(async () => {
  service = await startTestService();
  const outcome = await seedDemo(service.running.services, { year: DEMO_YEAR, imageWidth: 200 });
  if (!outcome.seeded) throw new Error(`demo seed: ${outcome.reason}`);
  token = await adminToken(service.url);
});
test.after.always(async () => {
  await service?.stop();
});

type Found = { schedules: { title: string; date: string; members: { name: string }[] }[]; total: number; ignoredWords?: string[] };
const search = async (query: string, limit = 5): Promise<Found> => {
  const response = await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent(query)}&limit=${limit}`);
  if (response.status !== 200) throw new Error(`search ${query}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Found;
};
const titles = async (query: string) => (await search(query)).schedules.map((schedule) => schedule.title);
/**
 * Polls a search until it finds everything: the entities are looked at once a second at most, and
 * a page is cached for ten seconds (dropped here between attempts, as another replica's expires).
 */
const eventually = async (query: string) => {
  let found = await search(query);
  for (let attempt = 0; attempt < 20 && (found.total === 0 || found.ignoredWords); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    service.running.services.search.forget?.();
    found = await search(query);
  }
  return found;
};

test.serial('places: a country, a city in three scripts, a region and a district find the schedules naming a place within them', async (t) => {
  for (const query of ['일본 팬미팅', 'japan fanmeeting', '도쿄 팬미팅', 'tokyo', '東京 팬미팅', 'トウキョウ']) {
    t.true((await titles(query)).includes('루미네 팬미팅 in 도쿄'), query);
  }
  t.true((await titles('태국 팬미팅')).includes('루미네 팬미팅 in 방콕'));
  t.true((await titles('bangkok')).includes('루미네 팬미팅 in 방콕'));
  // The festivals' venues are in Seoul's districts: the district's English name and the country find them.
  t.true((await titles('gwangjin 축하공연')).includes('건국대학교 봄 대동제 축하공연'));
  t.true((await titles('부산 축하공연')).includes('부산대학교 대동제 축하공연'));
  t.true((await titles('busan 대동제')).includes('부산대학교 대동제 축하공연'));
  t.true((await titles('korea 대동제')).some((title) => title.includes('대동제')));
});

test.serial('members: by position in Korean, English and Japanese, youngest and oldest, and a given name with a possessive', async (t) => {
  const membersOf = async (query: string) => (await search(query)).schedules.map((schedule) => schedule.members.map((member) => member.name));
  for (const [query, member] of [['메인댄서', '윤하린'], ['main dancer', '윤하린'], ['main rapper', '백다온'], ['メインボーカル', '강서아'], ['leader', '윤하린'], ['maknae', '류채이'], ['막내', '류채이'], ['맏언니', '윤하린']] as const) {
    const found = await membersOf(query);
    t.true(found.length > 0 && found.every((names) => names.includes(member)), `${query}: ${JSON.stringify(found)}`);
  }
  t.true((await titles("seoa's birthday")).some((title) => title.startsWith('강서아 생일')), "seoa's birthday");
  t.true((await titles('main rapper 생일')).some((title) => title.startsWith('백다온 생일')));
});

test.serial('aliases and translations: an administrator adds one, and the next searches find it; unknown records are 404', async (t) => {
  const venue = (await service.running.services.db.one<{ id: number }>("SELECT id FROM venues WHERE name = '연세대학교 노천극장'")).id;
  const track = (await service.running.services.db.one<{ id: number }>("SELECT id FROM tracks WHERE title = '나침반'")).id;
  const before = await search('노극 대동제');
  t.true(before.total === 0 || before.ignoredWords !== undefined, 'a nickname nobody knows yet');
  const added = await call(service.url, 'POST', '/api/admin/search/aliases', { token, json: { kind: 'venue', id: venue, alias: '노극', lang: 'ko' } });
  t.is(added.status, 201);
  t.like(added.body, { created: true, alias: { kind: 'venue', targetId: venue, alias: '노극', lang: 'ko' } });
  t.is((await call(service.url, 'POST', '/api/admin/search/aliases', { token, json: { kind: 'venue', id: venue, alias: '노극' } })).status, 200, 'the same alias twice is one');
  t.true((await eventually('노극 대동제')).schedules.some((schedule) => schedule.title === '연세대학교 봄 대동제 축하공연'));

  t.is((await call(service.url, 'POST', '/api/admin/search/translations', { token, json: { kind: 'track', id: track, title: 'Compass', lang: 'en' } })).status, 201);
  t.is((await call(service.url, 'POST', '/api/admin/search/translations', { token, json: { kind: 'track', id: track, title: 'コンパス', lang: 'ja' } })).status, 201);
  t.true((await eventually('compass mv')).schedules.some((schedule) => schedule.title.includes('나침반') && schedule.title.includes('MV')));
  t.true((await eventually('コンパス')).schedules.some((schedule) => schedule.title.includes('나침반')));

  const missing = await call(service.url, 'POST', '/api/admin/search/aliases', { token, json: { kind: 'member', id: 999999, alias: '누구' } });
  t.is(missing.status, 404);
  t.is(typeof (missing.body as { error: string }).error, 'string');
  const bad = await call(service.url, 'POST', '/api/admin/search/aliases', { token, json: { kind: 'album', id: 1, alias: 'x' } });
  t.is(bad.status, 400);
  t.is((await call(service.url, 'POST', '/api/admin/search/aliases', { json: { kind: 'venue', id: venue, alias: 'x' } })).status, 401);
  const list = await call<{ aliases: { id: number; alias: string }[] }>(service.url, 'GET', '/api/admin/search/aliases', { token });
  t.deepEqual(list.body.aliases.map((alias) => alias.alias).sort(), ['Compass', 'コンパス', '노극'].sort());
});

test.serial('an alias on a member and a change of the member are read again, without a restart', async (t) => {
  const member = (await service.running.services.db.one<{ id: number }>("SELECT id FROM members WHERE name = '정유나'")).id;
  t.is((await call(service.url, 'POST', '/api/admin/search/aliases', { token, json: { kind: 'member', id: member, alias: 'ユナ', lang: 'ja' } })).status, 201);
  const found = await eventually('ユナ');
  t.true(found.total > 0 && found.schedules.every((schedule) => schedule.members.some((m) => m.name === '정유나')));
  // A position edited in the members table is read again too (its version moves by a trigger).
  await service.running.services.db.none("UPDATE members SET position = '리드보컬, 비주얼, 센터' WHERE id = $1", [member]);
  service.running.services.search.forget?.();
  const center = await eventually('center');
  t.true(center.total > 0 && center.schedules.every((schedule) => schedule.members.some((m) => m.name === '정유나')));
});

test.serial('spellings and slips: tense consonants with a slip inside, English seasons, and a slip of a word only a title spells, also of a title written after the start', async (t) => {
  t.true((await titles('쑈캐이스')).some((title) => title.includes('쇼케이스')), '쑈캐이스');
  t.true((await titles('깨스트 출연')).some((title) => title.includes('게스트 출연')), '깨스트 출연');
  t.true((await titles('까페 이벤트')).some((title) => title.includes('생일 기념 카페')), '까페 이벤트');
  const summer = await titles('summer fan meeting');
  t.true(summer.length > 0 && summer.every((title) => title.startsWith('루미네 팬미팅')), `summer fan meeting: ${JSON.stringify(summer)}`);
  t.true((await titles('dance practise')).some((title) => title.startsWith('[Dance Practice]')), 'dance practise');
  const leftOut = await search('usa fan meeting');
  t.deepEqual(leftOut.ignoredWords, ['usa']);
  t.true(leftOut.total > 0 && leftOut.schedules.every((schedule) => schedule.title.startsWith('루미네 팬미팅')), 'a word nothing holds is left out, the rest read');
  t.true((await titles('lumilgo')).some((title) => title.startsWith('[LUMI-LOG]')), 'lumilgo');
  // A title written now: the analysis threads take its words with the change.
  t.is((await search('serenaed')).total, 0);
  const created = await call(service.url, 'POST', '/api/schedules', { token, json: { categoryId: 1, title: 'Midnight Serenade 라이브', date: `${DEMO_YEAR}-11-20` } });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.true((await eventually('serenaed')).schedules.some((schedule) => schedule.title === 'Midnight Serenade 라이브'), 'a slip of the new title\'s word');
});

test.serial('misses: counted by normalised form with no address or user, decayed daily, admin only, fixed by an alias', async (t) => {
  const read = async () => {
    const response = await call<{ misses: { query: string; score: number; count: number; partial: boolean }[] }>(service.url, 'GET', '/api/admin/search/misses', { token });
    t.is(response.status, 200, JSON.stringify(response.body));
    return response.body.misses;
  };
  t.is((await call(service.url, 'GET', '/api/admin/search/misses')).status, 401, 'no token');
  // Three spellings of one query, each its own search (not the results cache's repeat).
  for (const query of ['꿈나무홀 공연', '꿈나무홀  공연', '꿈나무홀 공연\u200b']) {
    await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent(query)}&limit=5`, { headers: { 'x-forwarded-for': '10.9.9.9' } });
    service.running.services.search.forget?.();
  }
  let miss;
  for (let attempt = 0; attempt < 20 && (miss?.count ?? 0) < 3; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    miss = (await read()).find((row) => row.query === '꿈나무홀 공연');
  }
  t.like(miss, { query: '꿈나무홀 공연', count: 3 });
  t.true(Math.abs(miss!.score - 3) < 0.01);
  const stored = await service.running.services.db.one<Record<string, unknown>>("SELECT * FROM search_misses WHERE query = '꿈나무홀 공연'");
  t.deepEqual(Object.keys(stored).sort(), ['first_seen', 'partial', 'query', 'score', 'seen_at', 'total'], 'nothing about who asked');
  t.false(JSON.stringify(stored).includes('10.9.9.9'));
  // A day later the score is half; a miss then adds one to the half.
  service.clock.advance(86_400_000);
  token = await adminToken(service.url);
  t.true(Math.abs((await read()).find((row) => row.query === '꿈나무홀 공연')!.score - 1.5) < 0.01);
  // A query found by leaving a word out is a partial miss.
  await search('나침반 꿈나무홀');
  let partial;
  for (let attempt = 0; attempt < 20 && !partial; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    partial = (await read()).find((row) => row.query === '나침반 꿈나무홀');
  }
  t.like(partial, { partial: true, count: 1 });
  // The administrator fixes the top miss with an alias: the venue's schedules are found, and not counted again.
  const venue = (await service.running.services.db.one<{ id: number }>("SELECT id FROM venues WHERE name = '한양대학교 서울캠퍼스 노천극장'")).id;
  t.is((await call(service.url, 'POST', '/api/admin/search/aliases', { token, json: { kind: 'venue', id: venue, alias: '꿈나무홀' } })).status, 201);
  const fixed = await eventually('꿈나무홀 공연');
  t.true(fixed.schedules.some((schedule) => schedule.title === '한양대학교 가을 대동제 축하공연'));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const counted = (await read()).find((row) => row.query === '꿈나무홀 공연')!.count;
  service.running.services.search.forget?.();
  t.true((await search('꿈나무홀 공연')).total > 0);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is((await read()).find((row) => row.query === '꿈나무홀 공연')!.count, counted, 'a search that finds is no miss');
});

test.serial('misses: the table is trimmed to its highest decayed scores; a flood of distinct misses pushes out only the oldest single ones', async (t) => {
  const { recordMiss, trimMisses } = await import('../shared/search/search-misses.ts');
  const db = service.running.services.db;
  await db.none('DELETE FROM search_misses');
  const start = service.clock.now();
  for (let i = 0; i < 4; i++) await recordMiss(db, '반복되는 미스', false, new Date(start));
  // Forty distinct misses, each once, a second apart: a flood from one client, or many fans once.
  for (let i = 0; i < 40; i++) await recordMiss(db, `한 번뿐인 미스 ${i}`, false, new Date(start + (i + 1) * 1000));
  t.is(await trimMisses(db, new Date(start + 60_000), 10), 31);
  const kept = (await db.any<{ query: string }>('SELECT query FROM search_misses')).map((row) => row.query).sort();
  t.is(kept.length, 10);
  t.true(kept.includes('반복되는 미스'), 'the repeated miss stays');
  t.deepEqual(kept.filter((query) => query !== '반복되는 미스'), Array.from({ length: 9 }, (_, i) => `한 번뿐인 미스 ${31 + i}`).sort(), 'the newest single misses stay');
});
