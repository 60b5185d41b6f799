// Search and Korean suggestions over HTTP (api-service.md 4.4; decisions.md "Suggestions"): the
// analysis pool, saved searches, popular, the user dictionary, and search after event writes.
import test from 'ava';
import { insertMember } from './helpers/factory.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
/** A fresh administrator token: a serial test moves the clock past a day. */
const admin = () => adminToken(service.url);

const TITLES = [
  '프로미스나인 콘서트 서울',
  '프로미스나인 팬사인회',
  '이채영 라디오 출연',
  'fromis_9 Showcase',
  '뮤직뱅크 출연',
  '음악중심 컴백 무대',
];

test.before(async () => {
  service = await startTestService();
  const db = service.running.services.db;
  const member = await insertMember(db, { name: '이채영', nicknames: ['채영이', '쵸'], nameEn: 'Chaeyoung' });
  for (const [index, title] of TITLES.entries()) {
    const { id } = await db.one("INSERT INTO schedules (category_id, title, date) VALUES (1, $1, '2026-03-01'::date + $2::int) RETURNING id", [title, index]);
    if (title.includes('채영')) await db.none('INSERT INTO schedule_members VALUES ($1, $2)', [id, member.id]);
  }
  // A school event with its venue, as the event route stores it.
  const festival = await db.one<{ id: number }>("INSERT INTO schedules (category_id, title, date) VALUES (11, '건국대학교 봄 대동제 축하공연', '2026-05-08') RETURNING id");
  const venue = await db.one<{ id: number }>("INSERT INTO venues (name, address, road_address) VALUES ('건국대학교 서울캠퍼스 노천극장', '서울 광진구 화양동 1', '서울 광진구 능동로 120') RETURNING id");
  await db.none("INSERT INTO events (schedule_id, school_name, venue_id) VALUES ($1, '건국대학교', $2)", [festival.id, venue.id]);
  service.running.services.analysis.schedulesChanged();
  await call(service.url, 'POST', '/api/schedules/sync-search', { token: await admin() });
  for (let i = 0; i < 4; i++) await save('프로미스나인 콘서트 서울');
  // A saved search is suggested once three networks saved it (SUGGEST_MIN_NETWORKS).
  for (let i = 0; i < 3; i++) await save('프로미스나인 팬미팅');
});
test.after.always(async () => {
  await service?.stop();
});

const suggest = async (q: string, limit?: number) => {
  const response = await call(service.url, 'GET', `/api/schedules/suggestions/?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`);
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
  return response.body.suggestions as string[];
};
/** Each save from its own client address: saves count once per address, query and day. */
let saver = 0;
async function save(query: unknown) {
  saver++;
  return call(service.url, 'POST', '/api/schedules/suggestions/save', { json: { query }, headers: { 'x-forwarded-for': `10.${44 + (saver >> 8)}.${saver & 255}.1` } });
}

// The table: what a fan types, and a suggestion that must be among the first five.
for (const [typed, expected, why] of [
  ['프로미', '프로미스나인 콘서트 서울', 'prefix'],
  ['프롬', '프로미스나인 콘서트 서울', 'half-typed syllable'],
  ['ㅍㄹㅁ', '프로미스나인 콘서트 서울', 'initial consonants'],
  ['ㅍㄹㅁㅅㄴㅇ', '프로미스나인 팬사인회', 'all initial consonants'],
  ['콘서트', '프로미스나인 콘서트 서울', 'a later word'],
  ['스나', '프로미스나인 콘서트 서울', 'bigram inside a word'],
  ['프로미스나인콘서트', '프로미스나인 콘서트 서울', 'without spaces'],
  ['  프로미   ', '프로미스나인 콘서트 서울', 'surrounding and repeated spaces'],
  ['chaey', 'Chaeyoung', 'English member name, lower case'],
  ['CHAEYOUNG', 'Chaeyoung', 'English member name, upper case'],
  ['fromis', 'fromis_9 Showcase', 'Latin prefix'],
  ['채영', '채영이', 'nickname'],
  ['팬사', '프로미스나인 팬사인회', 'mixed: a word start'],
  ['프로미스나인 팬', '프로미스나인 팬미팅', 'saved search'],
] as const) {
  test(`suggestions: "${typed}" suggests "${expected}" (${why})`, async (t) => {
    const suggestions = await suggest(typed);
    t.true(suggestions.slice(0, 5).includes(expected), JSON.stringify(suggestions));
  });
}

for (const [typed, why] of [
  ['', 'empty'],
  ['   ', 'whitespace'],
  ['\t\n', 'tabs and newlines'],
] as const) {
  test(`suggestions: ${why} q gives []`, async (t) => {
    t.deepEqual(await suggest(typed), []);
  });
}

for (const [typed, why] of [
  ['🎤🎶', 'emoji'],
  ['가'.repeat(1000), '1,000 characters'],
  ["'; DROP TABLE schedules; --", 'SQL metacharacters'],
  ['%_%', 'LIKE wildcards'],
  ['.*(?<x>', 'regex metacharacters'],
  ['\u0000\u200b', 'control and zero-width characters'],
  ['프로미🎤', 'Hangul with emoji'],
] as const) {
  test(`suggestions: ${why} answer 200 with a list`, async (t) => {
    const suggestions = await suggest(typed);
    t.true(Array.isArray(suggestions));
    t.false(suggestions.some((s) => s.includes('DROP TABLE')));
  });
}

test('suggestions: ranked by popularity, then recency; deduplicated; limit honoured; 400 past 50', async (t) => {
  const suggestions = await suggest('프로미스나인');
  t.is(suggestions[0], '프로미스나인 콘서트 서울', 'saved from four addresses');
  t.is(new Set(suggestions).size, suggestions.length);
  t.is((await suggest('프로미스나인', 1)).length, 1);
  t.is((await call(service.url, 'GET', '/api/schedules/suggestions/?q=a&limit=51')).status, 400);
  t.is((await call(service.url, 'GET', '/api/schedules/suggestions/?q=a&limit=x')).status, 400);
});

test('suggestions: a suggested query saved from more addresses moves up past one saved from fewer', async (t) => {
  for (let i = 0; i < 3; i++) await save('순위 역전 가을');
  for (let i = 0; i < 4; i++) await save('순위 역전 겨울');
  // Asked in several spellings (each its own cached answer), so that both analysis threads hold both queries.
  for (const prefix of ['순위 역전', '순위 역', '순위역전', '순위 역전 ']) t.deepEqual((await suggest(prefix)).slice(0, 2), ['순위 역전 겨울', '순위 역전 가을'], prefix);
  for (let i = 0; i < 2; i++) await save('순위 역전 가을');
  for (const prefix of ['순위 역전 ㄱ', '순위', '순위 ㅇ', 'ㅅㅇ ㅇㅈ']) t.deepEqual((await suggest(prefix)).slice(0, 2), ['순위 역전 가을', '순위 역전 겨울'], prefix);
});

test('save: empty, whitespace, over 100 characters, a non-string give 400; counting is per normalised query', async (t) => {
  for (const bad of ['', '   ', 'ㄱ'.repeat(101), 42, null]) t.is((await save(bad)).status, 400, JSON.stringify(bad));
  t.is((await call(service.url, 'POST', '/api/schedules/suggestions/save', { body: 'not json', headers: { 'content-type': 'application/json' } })).status, 400);
  t.deepEqual((await save('  정규화   확인 ')).body, { success: true });
  await save('정규화 확인');
  await save('정규화\t확인');
  const popular = (await call(service.url, 'GET', '/api/schedules/suggestions/popular?limit=50')).body.queries;
  t.deepEqual(popular.find((q: { query: string }) => q.query === '정규화 확인'), { query: '정규화 확인', count: 3 });
});

test.serial('popular: counts over the last 7 days only, most saved first', async (t) => {
  for (let i = 0; i < 4; i++) await save('오래된 검색어');
  service.clock.advance(8 * 24 * 3600_000);
  for (let i = 0; i < 3; i++) await save('새 검색어');
  const popular = (await call(service.url, 'GET', '/api/schedules/suggestions/popular')).body.queries;
  t.deepEqual(popular[0], { query: '새 검색어', count: 3 });
  t.false(popular.some((q: { query: string }) => q.query === '오래된 검색어'));
});

test.serial('searching records nothing: only save counts', async (t) => {
  const before = (await service.running.services.db.one('SELECT count(*)::int AS n FROM saved_searches')).n;
  await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent('콘서트')}`);
  await suggest('콘서트');
  t.is((await service.running.services.db.one('SELECT count(*)::int AS n FROM saved_searches')).n, before);
});

test('dict: GET and PUT need an administrator token', async (t) => {
  t.is((await call(service.url, 'GET', '/api/schedules/suggestions/dict')).status, 401);
  t.is((await call(service.url, 'PUT', '/api/schedules/suggestions/dict', { json: { content: '' } })).status, 401);
  const dict = await call(service.url, 'GET', '/api/schedules/suggestions/dict', { token: await admin() });
  t.is(dict.status, 200);
  t.is(typeof dict.body.content, 'string');
});

test('dict: a bad line gives 400 naming the line; nothing is saved', async (t) => {
  const before = (await call(service.url, 'GET', '/api/schedules/suggestions/dict', { token: await admin() })).body.content;
  const response = await call(service.url, 'PUT', '/api/schedules/suggestions/dict', { json: { content: '# 주석\n좋은단어\tNNG\n탭없는단어 NNG\n' }, token: await admin() });
  t.is(response.status, 400);
  t.regex(response.body.error, /3번째 줄/);
  t.is((await call(service.url, 'PUT', '/api/schedules/suggestions/dict', { json: { content: '단어\tXYZ' }, token: await admin() })).status, 400);
  t.is((await call(service.url, 'PUT', '/api/schedules/suggestions/dict', { json: { content: 42 }, token: await admin() })).status, 400);
  t.is((await call(service.url, 'GET', '/api/schedules/suggestions/dict', { token: await admin() })).body.content, before);
});

test.serial('dict: a synonym line (`word => alternative | …`) applies to searches within a second, without a rebuild; a bad one is refused', async (t) => {
  const titles = async (q: string) => (await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent(q)}`)).body.schedules.map((s: { title: string }) => s.title);
  const before = (await call(service.url, 'GET', '/api/schedules/suggestions/dict', { token: await admin() })).body.content;
  const bad = await call(service.url, 'PUT', '/api/schedules/suggestions/dict', { json: { content: '콘 서트 => 콘서트\n' }, token: await admin() });
  t.is(bad.status, 400);
  t.regex(bad.body.error, /1번째 줄/);
  const put = await call(service.url, 'PUT', '/api/schedules/suggestions/dict', { json: { content: `${before}\n# 줄임말\n프콘 => 프로미스나인 콘서트 | 콘서트\n` }, token: await admin() });
  t.is(put.status, 200);
  // The search looks at the dictionary's version at most once a second.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  t.deepEqual(await titles('프콘'), ['프로미스나인 콘서트 서울']);
  await call(service.url, 'PUT', '/api/schedules/suggestions/dict', { json: { content: before }, token: await admin() });
});

test.serial('dict: a PUT takes effect for the next query without a restart', async (t) => {
  t.false((await suggest('루미네')).includes('루미네스타'));
  const put = await call(service.url, 'PUT', '/api/schedules/suggestions/dict', { json: { content: '# 팬덤\n루미네스타\tNNP\n' }, token: await admin() });
  t.is(put.status, 200);
  t.true((await suggest('루미네')).includes('루미네스타'));
  t.true((await suggest('ㄹㅁㄴㅅㅌ')).includes('루미네스타'));
  t.is((await call(service.url, 'GET', '/api/schedules/suggestions/dict', { token: await admin() })).body.content, '# 팬덤\n루미네스타\tNNP\n');
});

test('search: a word matching nothing is left out and named in ignoredWords, as the OpenAPI document says', async (t) => {
  const page = (await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent('서울 콘서트 오사카')}`)).body;
  t.deepEqual(page.schedules.map((s: { title: string }) => s.title), ['프로미스나인 콘서트 서울']);
  t.deepEqual(page.ignoredWords, ['오사카']);
  // Every word matched: no ignoredWords at all.
  t.false('ignoredWords' in (await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent('서울 콘서트')}`)).body);
  const openapi = (await call(service.url, 'GET', '/api/openapi.json')).body;
  t.true(JSON.stringify(openapi).includes('"ignoredWords"'), 'the search response schema names ignoredWords');
});

test('search: Latin keys typed for Hangul and fan shorthand find the schedule', async (t) => {
  const titles = async (q: string) => (await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent(q)}`)).body.schedules.map((s: { title: string }) => s.title);
  // 프로미스나인 typed with the keyboard in English mode.
  t.true((await titles('vmfhaltmskdls')).includes('프로미스나인 팬사인회'));
  // 팬싸 is shipped shorthand for 팬사인회.
  t.deepEqual(await titles('프로미스나인 팬싸'), ['프로미스나인 팬사인회']);
});

test('suggestions: Latin keys typed for Hangul suggest the Hangul first; several words complete in any order', async (t) => {
  const layout = await suggest('vmfhal');
  t.is(layout[0], '프로미');
  t.true(layout.includes('프로미스나인 콘서트 서울'));
  t.true((await suggest('서울 콘서트')).includes('프로미스나인 콘서트 서울'));
  t.true((await suggest('음악중심 무대')).includes('음악중심 컴백 무대'));
});

test('search: particles are stripped and unspaced words split by the analyser', async (t) => {
  const hits = async (q: string) => (await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent(q)}`)).body.schedules.map((s: { title: string }) => s.title);
  t.true((await hits('이채영의')).includes('이채영 라디오 출연'));
  t.true((await hits('콘서트에서')).includes('프로미스나인 콘서트 서울'));
  t.true((await hits('프로미스나인콘서트')).includes('프로미스나인 콘서트 서울'));
  t.true((await hits('쵸')).includes('이채영 라디오 출연'), 'member nickname');
});

test('suggestions read a word with a particle as search does: the particle is dropped when the word as typed completes nothing', async (t) => {
  t.true((await suggest('이채영의')).includes('이채영 라디오 출연'));
  t.true((await suggest('콘서트에서')).includes('프로미스나인 콘서트 서울'));
  t.true((await suggest('음악중심에서 무대')).includes('음악중심 컴백 무대'), 'a particle on an earlier word');
  t.deepEqual(await suggest('이채영의 팬사인회'), [], 'words no title holds together still complete nothing');
});

test('search: a word one jamo off finds the schedule after the exact matches; a venue finds its event', async (t) => {
  const hits = async (q: string) => (await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent(q)}`)).body;
  const typo = await hits('대동재');
  t.deepEqual(typo.schedules.map((s: { title: string }) => s.title), ['건국대학교 봄 대동제 축하공연']);
  t.is(typo.total, 1);
  t.deepEqual(Object.keys(typo).sort(), ['hasMore', 'schedules', 'total'], 'the response shape is unchanged');
  for (const q of ['노천극장', '능동로 120', '화양동', '노천극자']) t.deepEqual((await hits(q)).schedules.map((s: { title: string }) => s.title), ['건국대학교 봄 대동제 축하공연'], q);
});

test('suggestions: a mistyped query comes back corrected as the first suggestion', async (t) => {
  t.is((await suggest('대동재'))[0], '대동제');
  t.is((await suggest('노천극자'))[0], '노천극장', 'venue names are suggestion words too');
  t.is((await suggest('프로미스나인 펜사인회'))[0], '프로미스나인 팬사인회');
  t.is((await suggest('프로미스나인 팬사인호'))[0], '프로미스나인 팬사인회', 'a compound vowel missing its second key (ㅚ typed ㅗ)');
  t.is((await suggest('대돵제'))[0], '대동제', 'a second key too many (ㅗ typed ㅘ)');
  t.not((await suggest('대동'))[0], '대동제', 'a prefix being typed is not a typo');
});

test.serial('search: rebuilding from an index emptied by hand (sync-search)', async (t) => {
  const search = service.running.services.search;
  await service.running.services.db.none('DELETE FROM search_documents');
  t.is((await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent('뮤직뱅크')}`)).body.total, 0);
  t.is((await call(service.url, 'POST', '/api/schedules/sync-search')).status, 401);
  const synced = await call(service.url, 'POST', '/api/schedules/sync-search', { token: await admin() });
  t.is(synced.status, 200);
  t.is(synced.body.success, true);
  t.is(synced.body.synced, await search.count());
  t.true(synced.body.synced >= TITLES.length);
  t.is((await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent('뮤직뱅크')}`)).body.total, 1);
});
