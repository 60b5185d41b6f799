// Search (api-service.md 2.7): the contract suite on the embedded engine, and on OpenSearch when
// OPENSEARCH_URL is set; then what can be checked of the OpenSearch engine without a server: the
// index definition, the query it sends, and the calls the client makes (against a recording stub).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { Client } from '@opensearch-project/opensearch';
import { connectDatabase, type Database } from '../shared/db/database.ts';
import { migrate } from '../shared/db/migrate.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { createSearchIndex } from '../shared/search/create-search-index.ts';
import { loadSearchDocuments } from '../shared/search/documents.ts';
import { scheduleDetail, schedulesBetween, schedulesByIds } from '../shared/db/repositories/schedules.ts';
import { DOCUMENT_FORMAT, EmbeddedSearchIndex, plainQueryWords, queryWords, sampledMatches } from '../shared/search/embedded.ts';
import { GramFrequencies, type GramStatistics } from '../shared/search/gram-frequencies.ts';
import { choseong } from '../shared/korean/jamo.ts';
import { LatinVocabulary, latinWordsOf } from '../shared/korean/latin-vocabulary.ts';
import { normalizeText } from '../shared/korean/normalize.ts';
import type { KoreanAnalyzer } from '../shared/korean/analyzer.ts';
import { MERGE_LIMIT } from '../shared/search/fan-typing.ts';
import { storedSynonyms } from '../shared/search/synonym-source.ts';
import { dictionaryRules, indexDefinition, indexedDocument, INDEX_FORMAT, OpenSearchSearchIndex, searchBody, typoKey, typoKeys, typoSearchBody } from '../shared/search/opensearch.ts';
import type { SearchDocument } from '../shared/search/search-index.ts';
import { dateFilter, dateSearchBody, RememberedWeights, weightsBody, weightsOf } from '../shared/search/opensearch-understanding.ts';
import { registerSearchContract, type SearchBackend } from './search-contract.ts';
import { QUALITY_TABLE, serviceAnalyzer, storeDemoSchedules } from './search-quality.ts';
import { createTestDatabase } from './helpers/database.ts';

const logger = createLogger(process.env.LOG_LEVEL ?? 'silent');

/** A fresh migrated database for one contract run, and the engine the factory picks on it. */
async function backendOn(opensearchUrl: string | null, alias?: string): Promise<SearchBackend> {
  const testDatabase = await createTestDatabase();
  const database = connectDatabase(testDatabase.url, logger, 10);
  await migrate(database.db, logger);
  // Plain words until the demo data is stored; then the analyser the service's threads build from
  // it, and the titles' Latin words as they hold them.
  let analyzer: KoreanAnalyzer | null = null;
  const titleWords = new LatinVocabulary();
  const index = await createSearchIndex({
    db: database.db,
    opensearchUrl,
    logger,
    analyze: (query) => (analyzer ? analyzer.tokens(query) : plainQueryWords(query)),
    nearWords: async (words) => words.map((word) => titleWords.lookup(word)),
    ...(alias ? { opensearchAlias: alias, userDictionary: async () => '프로미스나인\tNNP\n콘서트\tNNG\n쇼케이스\tNNG\n' } : {}),
  });
  let demo: Promise<SearchDocument[]> | null = null;
  return {
    index,
    demoDocuments: () =>
      (demo ??= storeDemoSchedules(database.db).then(async (documents) => {
        analyzer = await serviceAnalyzer(database.db);
        for (const document of documents) for (const word of latinWordsOf(normalizeText(document.title))) titleWords.add(word);
        return documents;
      })),
    teardown: async () => {
      await index.close();
      if (opensearchUrl && alias) {
        // By name: a wildcard delete is refused where action.destructive_requires_name is set.
        const client = new Client({ node: opensearchUrl });
        const left = await client.indices.get({ index: `${alias}-v*` }, { ignore: [404] });
        for (const name of Object.keys(left.statusCode === 200 ? left.body : {})) await client.indices.delete({ index: name }, { ignore: [404] });
        await client.close();
      }
      await database.close();
      await testDatabase.drop();
    },
  };
}

registerSearchContract('embedded', () => backendOn(null));

const opensearchUrl = process.env.OPENSEARCH_URL?.trim() || null;
if (opensearchUrl) {
  registerSearchContract('opensearch', () => backendOn(opensearchUrl, `contract-${randomBytes(4).toString('hex')}`));
} else {
  test.skip('opensearch: contract run (skipped: OPENSEARCH_URL is not set; it needs a server)', () => {});
}

/** A fresh migrated database of its own for one test, dropped when it ends. */
async function migratedDatabase(t: ExecutionContext, connections = 4): Promise<Database> {
  const testDatabase = await createTestDatabase();
  const database = connectDatabase(testDatabase.url, logger, connections);
  t.teardown(async () => {
    await database.close();
    await testDatabase.drop();
  });
  await migrate(database.db, logger);
  return database;
}

test('embedded: rows written before migration 013 are rebuilt at start, with the venue and typo keys', async (t) => {
  const database = await migratedDatabase(t);
  const { id } = await database.db.one<{ id: number }>("INSERT INTO schedules (category_id, title, date) VALUES (11, '연세대학교 봄 대동제 축하공연', '2026-05-28') RETURNING id");
  const venue = await database.db.one<{ id: number }>("INSERT INTO venues (name, address, road_address) VALUES ('연세대학교 노천극장', '서울 서대문구 신촌동 134', '서울 서대문구 연세로 50') RETURNING id");
  await database.db.none("INSERT INTO events (schedule_id, school_name, venue_id) VALUES ($1, '연세대학교', $2)", [id, venue.id]);
  // As the index was before: the old columns only (format 1 by the migration's default).
  await database.db.none(
    "INSERT INTO search_documents (schedule_id, category_id, date, title_key, source_key, members_key, description_key, choseong_key, grams) VALUES ($1, 11, '2026-05-28', '연세대학교봄대동제축하공연', '연세대학교', '', '', '', '{연세,대동}')",
    [id],
  );
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  t.deepEqual((await index.search('노천극장', { offset: 0, limit: 10 })).ids, [id]);
  t.deepEqual((await index.search('대동재', { offset: 0, limit: 10 })).ids, [id]);
  t.is((await database.db.one<{ format: number }>('SELECT format FROM search_documents WHERE schedule_id = $1', [id])).format, DOCUMENT_FORMAT);
});

test('embedded: an upsert and a remove sent during a rebuild wait for it and land in the rebuilt index', async (t) => {
  const database = await migratedDatabase(t);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  await index.upsert([document({ scheduleId: 1, title: '팬미팅 안내' })]);
  // Enough documents that the rebuild runs a while: the writes are sent once it holds the table.
  const filler = Array.from({ length: 3_000 }, (_, i) => document({ scheduleId: 100 + i, title: `공연 ${i}`, date: '2025-01-01' }));
  const rebuilding = index.rebuild([document({ scheduleId: 1, title: '팬미팅 안내' }), ...filler]);
  const holding = async () =>
    (await database.db.one<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'search_documents' AND l.granted AND l.mode = 'ShareRowExclusiveLock'")).n > 0;
  const until = async (check: () => Promise<boolean>) => {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 5))) if (await check()) return true;
    return false;
  };
  t.true(await until(holding), 'the rebuild holds the table');
  let settled = 0;
  const upserted = index.upsert([document({ scheduleId: 2, title: '팬미팅 후기' })]).finally(() => settled++);
  const removed = index.remove([1]).finally(() => settled++);
  const waiting = async () => (await database.db.one<{ n: number }>('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted')).n;
  t.true(await until(async () => (await waiting()) >= 2), 'both writes wait');
  t.is(settled, 0);
  // Readers go on meanwhile, on the old rows.
  t.deepEqual((await index.search('팬미팅', { offset: 0, limit: 10 })).ids, [1]);
  t.is(await rebuilding, 3_001);
  await Promise.all([upserted, removed]);
  t.deepEqual((await index.search('팬미팅', { offset: 0, limit: 10 })).ids, [2]);
  t.is(await index.count(), 3_001);
});

test('embedded: a rebuild leaves indexes the size of a fresh build, under their own names', async (t) => {
  const database = await migratedDatabase(t);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  const documents = Array.from({ length: 3_000 }, (_, i) => document({ scheduleId: i + 1, title: `팬미팅 ${i % 97} 콘서트 ${i}`, memberNames: ['송하영', '이채영'].slice(i % 2), date: `2025-${String((i % 12) + 1).padStart(2, '0')}-01` }));
  const sizes = () =>
    database.db.map<[string, number]>(
      "SELECT c.relname AS name, pg_relation_size(c.oid)::int AS size FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'search_documents'::regclass ORDER BY 1",
      [],
      (row: { name: string; size: number }) => [row.name, row.size],
    );
  const before = new Map(await sizes());
  await index.rebuild(documents);
  const fresh = new Map(await sizes());
  await index.rebuild(documents);
  await index.rebuild(documents);
  const again = new Map(await sizes());
  t.deepEqual([...again.keys()], [...before.keys()], 'the migrations\' index names');
  for (const [name, size] of fresh) t.true(again.get(name)! <= size * 1.1, `${name}: ${again.get(name)} bytes after three rebuilds, ${size} after one`);
  t.is((await database.db.one<{ n: number }>("SELECT count(*)::int AS n FROM pg_constraint WHERE conrelid = 'search_documents'::regclass AND contype = 'p'")).n, 1);
  t.deepEqual((await index.search('팬미팅 96', { offset: 0, limit: 3 })).ids.length, 3);
  t.false((await database.db.one<{ left: boolean }>("SELECT to_regclass('search_documents_rebuilt') IS NOT NULL AS left")).left);
});

test('embedded: the GIN index keeps no pending list after a rebuild or writes, which every search would read', async (t) => {
  const database = await migratedDatabase(t);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  // gin_clean_pending_list answers how many pending pages it moved into the index: none is left
  // for a search to read. With the list on, the rebuild of these 2,000 documents left 302.
  const pending = () =>
    database.db.map(
      `SELECT c.relname AS name, c.reloptions::text AS options, gin_clean_pending_list(c.oid::regclass)::int AS pages
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
        WHERE i.indrelid = 'search_documents'::regclass AND a.amname = 'gin'`,
      [],
      (row: { name: string; options: string | null; pages: number }) => `${row.name} ${row.options} ${row.pages}`,
    );
  const documents = Array.from({ length: 2_000 }, (_, i) => document({ scheduleId: i + 1, title: `팬미팅 ${i % 97} 콘서트 ${i}`, memberNames: ['송하영', '이채영'].slice(i % 2), date: `2025-${String((i % 12) + 1).padStart(2, '0')}-01` }));
  await index.rebuild(documents);
  t.deepEqual(await pending(), ['search_documents_grams_by_date {fastupdate=off} 0'], 'after the rebuild');
  await index.upsert(documents.slice(0, 100).map((entry) => ({ ...entry, title: `쇼케이스 ${entry.scheduleId}` })));
  t.deepEqual(await pending(), ['search_documents_grams_by_date {fastupdate=off} 0'], 'after writes');
  const page = await index.search('쇼케이스', { offset: 0, limit: 100 });
  t.is(page.total, 100);
});

test('a written schedule\'s search document is read with the plan its connection made once, not planned on every write', async (t) => {
  // One connection: every read below runs on the session whose prepared statement is inspected.
  const database = await migratedDatabase(t, 1);
  const { id } = await database.db.one<{ id: number }>("INSERT INTO schedules (category_id, title, date) VALUES (11, '고려대학교 입실렌티', '2026-05-22') RETURNING id");
  await database.db.none("INSERT INTO events (schedule_id, school_name) VALUES ($1, '고려대학교')", [id]);
  const reads = 8;
  for (let i = 0; i < reads; i++) t.deepEqual((await loadSearchDocuments(database.db, [id])).map((document) => [document.scheduleId, document.sourceNames]), [[id, ['고려대학교', '고려대', '고대']]]);
  // Left to choose, PostgreSQL made a custom plan on every call (0.5 ms of planning for 0.04 ms of work).
  const plans = await database.db.one<{ generic_plans: number; custom_plans: number }>("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'search-documents-by-id'");
  t.deepEqual(plans, { generic_plans: reads, custom_plans: 0 });
});

test('a month, a detail and a search page\'s items are read with one generic plan per connection, not planned on every read', async (t) => {
  const database = await migratedDatabase(t, 1);
  const { id } = await database.db.one<{ id: number }>("INSERT INTO schedules (category_id, title, date) VALUES (1, '쇼케이스', '2026-05-22') RETURNING id");
  const reads = 8;
  for (let i = 0; i < reads; i++) {
    t.deepEqual((await schedulesBetween(database.db, '2026-05-01', '2026-06-01')).map((item) => item.title), ['쇼케이스']);
    t.is((await scheduleDetail(database.db, id))?.detail.title, '쇼케이스');
    t.deepEqual((await schedulesByIds(database.db, [id, id + 1])).map((item) => item.id), [id]);
  }
  // Planning these reads cost PostgreSQL several times running them (23 ms against 4 ms under load).
  const plans = await database.db.any<{ name: string; generic_plans: number; custom_plans: number }>(
    "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'schedule-%' ORDER BY name",
  );
  t.deepEqual(plans, ['schedule-detail', 'schedule-items-between', 'schedule-items-by-id'].map((name) => ({ name, generic_plans: reads, custom_plans: 0 })));
});

test('embedded: a search of a few words is planned once per connection, reads the new table after a rebuild, and at most 32 shapes are prepared', async (t) => {
  // One connection: every search below runs on the session whose prepared statements are inspected.
  const database = await migratedDatabase(t, 1);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  await index.rebuild([document({ scheduleId: 1, title: '가을축제 무대' }), document({ scheduleId: 2, title: '봄 축제' })]);
  const reads = 6;
  for (let i = 0; i < reads; i++) t.deepEqual((await index.search('가을축제 무대', { offset: 0, limit: 20 })).ids, [1]);
  const prepared = () => database.db.any<{ generic_plans: number; custom_plans: number }>("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'search\\_%'");
  t.true((await prepared()).some((plan) => plan.generic_plans === reads && plan.custom_plans === 0), 'the scoring statement ran its one plan on every search');
  // The rebuild puts a new table in the old one's place: the prepared statement reads it.
  await index.rebuild([document({ scheduleId: 3, title: '가을축제 무대 둘째 날' })]);
  t.deepEqual((await index.search('가을축제 무대', { offset: 0, limit: 20 })).ids, [3]);
  // Queries of one to three words of each kind (one character, two, initials) have more shapes
  // than are prepared: the rest are planned on each call, and still answered.
  const kinds = [['봄', '가', '날'], ['축제', '가을', '무대'], ['ㄱㅇ', 'ㅊㅈ', 'ㅁㄷ']];
  const patterns = [[0], [1], [2]].flatMap((first) => [first, ...[0, 1, 2].flatMap((second) => [[...first, second], ...[0, 1, 2].map((third) => [...first, second, third])])]);
  for (const pattern of patterns) await index.search(pattern.map((kind, i) => kinds[kind]![i]!).join(' '), { offset: 0, limit: 20 });
  t.is((await prepared()).length, 32);
  t.deepEqual((await index.search('가을축제 무대', { offset: 0, limit: 20 })).ids, [3]);
  // A session that lost its prepared statements behind the process's back prepares them again.
  await database.db.none('DEALLOCATE ALL');
  t.deepEqual((await index.search('가을축제 무대', { offset: 0, limit: 20 })).ids, [3]);
  t.true((await prepared()).length > 0);
});

test('embedded: a character outside the basic plane (a surrogate pair) is one character, alone or in a bigram; emoji are decorations', async (t) => {
  const database = await migratedDatabase(t);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  const heart = document({ scheduleId: 1, title: '💜 𠮷野 팬미팅' });
  const pair = document({ scheduleId: 2, title: '공지', memberNames: ['𠮷𠀋'] });
  await index.upsert([heart, pair, document({ scheduleId: 3, title: '팬미팅 안내' })]);
  t.deepEqual((await index.search('𠮷野', { offset: 0, limit: 10 })).ids, [1]);
  t.deepEqual((await index.search('𠮷𠀋', { offset: 0, limit: 10 })).ids, [2]);
  t.deepEqual((await index.search('𠀋', { offset: 0, limit: 10 })).ids, [2]);
  t.deepEqual((await index.search('𠀋𠮷', { offset: 0, limit: 10 })).ids, []);
  // Emoji around a word are dropped on both sides: the word alone is searched; an emoji alone is no word.
  t.deepEqual((await index.search('💜팬미팅💜', { offset: 0, limit: 10 })).ids.sort(), [1, 3]);
  t.deepEqual(await index.search('💜', { offset: 0, limit: 10 }), { ids: [], total: 0 });
});

test('embedded: a query no sampled document matches starts its later searches early, and answers as when they wait their turn', async (t) => {
  const database = await migratedDatabase(t);
  const documents = await storeDemoSchedules(database.db);
  const analyzer = await serviceAnalyzer(database.db);
  const analyze = (query: string) => analyzer.tokens(query);
  const early = new EmbeddedSearchIndex(database.db, analyze, storedSynonyms(database.db));
  const inTurn = new EmbeddedSearchIndex(database.db, analyze, storedSynonyms(database.db));
  inTurn.startEarly = false;
  await early.rebuild(documents);
  const statistics = await new GramFrequencies(database.db, 60_000).get();
  let expectedUnmatched = 0;
  for (const { query } of QUALITY_TABLE) {
    if (sampledMatches(await queryWords(analyze, query), statistics)?.count === 0) expectedUnmatched++;
    for (const page of [{ offset: 0, limit: 20 }, { offset: 5, limit: 3 }]) {
      t.deepEqual(await early.search(query, page), await inTurn.search(query, page), `${query} at offset ${page.offset}`);
    }
  }
  // The quality table's typos, shorthand and words matching nothing: the early start was taken.
  t.true(expectedUnmatched >= QUALITY_TABLE.length / 2, `${expectedUnmatched} of ${QUALITY_TABLE.length} queries started early`);
});

test('embedded: sampled matches count each document once, never across two documents, by the best field of each word', (t) => {
  const sampled = (title: string, members = '', description = '') => ({
    keys: [title, '', '', members, description, choseong(title)].join('\u0001'), typo: '', title, source: '', venue: '', members, description, choseong: choseong(title),
  });
  // 가을 twice in one title; one document's keys end with ㅊㅈ and the next begin with 봄.
  const sample = [sampled('가을가을축제'), sampled('봄축제'), sampled('가을밤', '축제'), sampled('겨울', '', '가을축제 안내')];
  const statistics: GramStatistics = { frequency: () => 0, rows: 400, newestFrom: () => undefined, sample };
  t.like(sampledMatches(['가을'], statistics), { count: 3, share: 0.75 });
  t.is(sampledMatches(['ㅊㅈ봄'], statistics)?.count, 0);
  t.is(sampledMatches(['ㅊㅈ'], statistics)?.count, 2);
  // Title and title 16, title and members 10, description twice 2.
  t.deepEqual([...sampledMatches(['가을', '축제'], statistics)!.levels].sort(([a], [b]) => a - b), [[2, 1], [10, 1], [16, 1]]);
  t.is(sampledMatches(['가을'], { ...statistics, sample: [] }), undefined);
});

test('embedded: a word in most documents is capped as sampled, not counted, and still paged in exact rank order', async (t) => {
  const database = await migratedDatabase(t);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  // 4,000 schedules, 9 in 10 holding 가을축제 (a tenth in the title, the school, the venue and the
  // members each, half in the description), on 1,500 dates; every title holds 일정. The rebuild
  // analyses them: the sampled documents say the word is in 90% of them, so its total is the cap
  // without counting, and each field's level is read newest first.
  const tiers = [8, 4, 3, 2, 1, 1, 1, 1, 1, 0];
  const documents = Array.from({ length: 4000 }, (_, i) => {
    const field = i % 10;
    return document({
      scheduleId: i + 1,
      title: field === 0 ? `가을축제 일정 ${i}` : `일정 ${i}`,
      sourceNames: field === 1 ? ['가을축제대학교'] : [],
      venueNames: field === 2 ? ['가을축제 광장'] : [],
      memberNames: field === 3 ? ['가을축제'] : [],
      description: field >= 4 && field <= 8 ? `올해 가을축제 안내 ${i}` : '',
      date: new Date(Date.UTC(2020, 0, 1) + ((i * 7919) % 1500) * 86_400_000).toISOString().slice(0, 10),
    });
  });
  await index.rebuild(documents);
  const expected = documents
    .map((entry, i) => ({ id: entry.scheduleId, tier: tiers[i % 10]!, date: entry.date }))
    .filter((entry) => entry.tier > 0)
    .sort((a, b) => b.tier - a.tier || (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || b.id - a.id)
    .map((entry) => entry.id);
  for (const query of ['가을축제', '가을축제 일정']) {
    for (const [offset, limit] of [[0, 20], [150, 30], [990, 20], [3000, 20], [3590, 20]] as const) {
      const page = await index.search(query, { offset, limit });
      t.deepEqual(page.ids, expected.slice(offset, offset + limit), `${query}: offset ${offset}, limit ${limit}`);
      t.is(page.total, 1000);
      t.is(page.hasMore, offset + limit < expected.length, `${query}: hasMore at offset ${offset}`);
    }
  }
});

test('embedded: words that go together are estimated as the sampled documents hold them, and still paged in exact rank order', async (t) => {
  const database = await migratedDatabase(t);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  // 6,000 schedules; every third has the member Baek Jiheon (both romanised words, always
  // together: 33%, not the 11% of independent words), every seventh a title ending in 백 before
  // a source starting with 지헌 (no document holds 백지헌 in one field of those); every fifth says
  // 곧 in its description alone (one character: searched for outside descriptions only).
  const documents = Array.from({ length: 6000 }, (_, i) => document({
    scheduleId: i + 1,
    title: i % 7 === 0 ? `공연 ${i} 백` : `공연 ${i}`,
    sourceNames: i % 7 === 0 ? ['지헌 채널'] : [],
    description: i % 5 === 0 ? '곧 공개' : '',
    memberNames: i % 3 === 0 ? ['백지헌', 'Baek Jiheon'] : [],
    date: new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
  }));
  await index.rebuild(documents);
  const statistics = await new GramFrequencies(database.db, 60_000).get();
  const share = (...words: string[]) => sampledMatches(words, statistics)?.share;
  const together = share('jiheon', 'baek');
  t.true(together !== undefined && Math.abs(together - 1 / 3) < 0.1, `sampled share of jiheon baek: ${together}`);
  t.deepEqual([...sampledMatches(['jiheon', 'baek'], statistics)!.levels.keys()], [4], 'both words score as members');
  t.is(share('백지헌'), share('baekjiheon'), 'a word across two fields (백, 지헌) matches neither');
  t.is(share('곧'), 0, 'one character is not looked for in the description');
  t.true(share('곧공개')! > 0.1, 'a longer word is');
  const expected = documents.filter((_, i) => i % 3 === 0).map((entry) => entry.scheduleId).reverse();
  for (const [offset, limit] of [[0, 20], [990, 20], [1980, 20]] as const) {
    const page = await index.search('jiheon baek', { offset, limit });
    t.deepEqual(page.ids, expected.slice(offset, offset + limit), `offset ${offset}`);
    t.is(page.total, 1000);
    t.is(page.hasMore, offset + limit < expected.length);
  }
});

// ---- the OpenSearch engine without a server ---------------------------------------------------

test('embedded: a common word whose matches are all old is paged from the oldest documents', async (t) => {
  const database = await migratedDatabase(t);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  // 20,000 schedules on as many days; the oldest 6,000 hold 봄맞이 in the title. The sampled
  // documents say the word is in 30% of them: its total is the cap, and its one level (the title)
  // is walked from the newest documents, 14,000 of which hold none.
  const documents = Array.from({ length: 20_000 }, (_, i) => document({
    scheduleId: i + 1,
    title: i < 6000 ? `봄맞이 행사 ${i}` : `정기 일정 ${i}`,
    date: new Date(Date.UTC(1990, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
  }));
  await index.rebuild(documents);
  // All match in the title (one level): newest first, the highest ids of the oldest 6,000.
  const expected = Array.from({ length: 6000 }, (_, i) => 6000 - i);
  for (const [offset, limit] of [[0, 20], [985, 20]] as const) {
    const page = await index.search('봄맞이', { offset, limit });
    t.deepEqual(page.ids, expected.slice(offset, offset + limit), `offset ${offset}`);
    t.is(page.total, 1000);
    t.true(page.hasMore);
  }
});

test('embedded: a typo whose skeleton bigrams are common is walked on the newest documents, and the older candidates are still found', async (t) => {
  const database = await migratedDatabase(t);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  // 3,400 schedules: half hold 여의 and half 이도, so the statistics say the skeleton bigrams of
  // 여의됴 (어이, 이도) are each in more than half of the documents and its typo candidates are
  // walked along the date index. Only 425 hold 여의도 (of which 여의됴 is one jamo off): the walk
  // stops at three times the rows it expected, having found fewer than the 300 newest, and the
  // older candidates are read from the GIN index.
  const documents = Array.from({ length: 3400 }, (_, i) => document({
    scheduleId: i + 1,
    title: i % 8 === 0 ? `여의도 공연 ${i}` : i % 2 === 0 ? `여의 행사 ${i}` : `이도 행사 ${i}`,
    date: new Date(Date.UTC(2020, 0, 1) + ((i * 7919) % 2000) * 86_400_000).toISOString().slice(0, 10),
  }));
  const oldest = byDateDescending(documents.filter((entry) => !entry.title.startsWith('여의도'))).slice(-5);
  // 한강공원 on the 5 oldest of the others.
  for (const id of oldest) documents[id - 1]!.title = `한강공원 행사 ${id}`;
  await index.rebuild(documents);
  // The typo search reads at most the 300 newest candidates; all match in the title, so by date.
  const expected = byDateDescending(documents.filter((entry) => entry.title.startsWith('여의도'))).slice(0, 300);
  t.is(expected.length, 300);
  for (const [offset, limit] of [[0, 20], [280, 20]] as const) {
    const page = await index.search('여의됴', { offset, limit });
    t.deepEqual(page.ids, expected.slice(offset, offset + limit), `offset ${offset}`);
    t.is(page.total, 300);
  }
  // A rare skeleton (the 5 oldest hold 한강공원) is read from the GIN index, whatever its age.
  t.deepEqual((await index.search('한강굥원', { offset: 0, limit: 10 })).ids, oldest);
});

/** Schedule ids newest first (date, then id), as the engines rank one score level. */
const byDateDescending = (entries: SearchDocument[]) =>
  [...entries].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || b.scheduleId - a.scheduleId).map((entry) => entry.scheduleId);
/** 10,000 schedules on as many days, oldest first: the rebuild writes them in that order. */
const tenThousandDays = (fields: (i: number) => Partial<SearchDocument>) =>
  Array.from({ length: 10_000 }, (_, i) => document({
    scheduleId: i + 1,
    title: `정기 일정 ${i}`,
    date: new Date(Date.UTC(1990, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
    ...fields(i),
  }));

test('embedded: typo candidates read within a window of the newest documents are completed from the older ones when the window holds too few', async (t) => {
  const database = await migratedDatabase(t);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  // 광주 is in 10% of the titles: the typo search for 광쥬 expects its 300 newest candidates among
  // the newest 6,000 documents, and reads them from the GIN index within that date window. But 900
  // of the 1,000 are among the oldest 900 documents: the window holds 100, and the 200 after them
  // come from the older documents.
  const documents = tenThousandDays((i) => (i < 900 || (i >= 5000 && i % 50 === 0) ? { title: `광주 공연 ${i}` } : {}));
  await index.rebuild(documents);
  const expected = byDateDescending(documents.filter((entry) => entry.title.startsWith('광주'))).slice(0, 300);
  t.is(expected[99], 5001);
  t.is(expected[100], 900);
  for (const [offset, limit] of [[0, 20], [90, 20], [280, 20]] as const) {
    const page = await index.search('광쥬', { offset, limit });
    t.deepEqual(page.ids, expected.slice(offset, offset + limit), `offset ${offset}`);
    t.is(page.total, 300);
  }
});

test('embedded: a role that may not create btree_gin keeps the grams-only index, and windowed reads give the same pages', async (t) => {
  // Migration 019 as a role without CREATE on the database (a managed database's application user,
  // say): the extension is refused, the migration warns and goes on, and the search filters its
  // date windows row by row instead of in the index.
  const testDatabase = await createTestDatabase();
  const admin = connectDatabase(testDatabase.url, logger, 1);
  const role = `r_${randomBytes(6).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  await admin.db.none('CREATE ROLE $1:name LOGIN PASSWORD $2', [role, password]);
  await admin.db.none('GRANT USAGE, CREATE ON SCHEMA public TO $1:name', [role]);
  const url = new URL(testDatabase.url);
  url.username = role;
  url.password = password;
  const database = connectDatabase(url.href, logger, 2);
  t.teardown(async () => {
    await database.close();
    await admin.close();
    await testDatabase.drop();
    const again = connectDatabase(new URL('/postgres', testDatabase.url).href, logger, 1);
    await again.db.none('DROP ROLE IF EXISTS $1:name', [role]).catch(() => undefined);
    await again.close();
  });
  await migrate(database.db, logger);
  t.is((await admin.db.one<{ n: number }>("SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'btree_gin'")).n, 0);
  const indexes = (await admin.db.any<{ name: string }>("SELECT indexname AS name FROM pg_indexes WHERE tablename = 'search_documents' ORDER BY 1")).map((row) => row.name);
  t.true(indexes.includes('search_documents_gram_keys'), indexes.join(', '));
  t.false(indexes.includes('search_documents_grams_by_date'));
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  const documents = tenThousandDays((i) => (i < 900 || (i >= 5000 && i % 50 === 0) ? { title: `광주 공연 ${i}` } : {}));
  await index.rebuild(documents);
  const expected = byDateDescending(documents.filter((entry) => entry.title.startsWith('광주'))).slice(0, 300);
  for (const [offset, limit] of [[0, 20], [90, 20]] as const) {
    t.deepEqual((await index.search('광쥬', { offset, limit })).ids, expected.slice(offset, offset + limit), `offset ${offset}`);
  }
  t.deepEqual((await index.search('광주', { offset: 0, limit: 5 })).ids, byDateDescending(documents.filter((entry) => entry.title.startsWith('광주'))).slice(0, 5));
});

test('embedded: a score level read within a window of the newest documents is completed from the older ones when the window holds too few', async (t) => {
  const database = await migratedDatabase(t);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger });
  // 단풍 matches 2,501 documents: 101 in the title, the others in the description (sampled at about
  // 2,500: counted to 1,001, not all scored, and not surely past the cap). The count reads the
  // oldest matches first and finds about 90 title matches among its 1,001: it estimates the title
  // level at about 300 documents, so the page's 21 come from the newest 2,100 documents (the GIN
  // index within that date window). Only 10 of the title matches are that new; the other 11 come
  // from the older documents.
  const documents = tenThousandDays((i) => {
    if ((i < 3000 && i % 33 === 0) || (i >= 9000 && i % 100 === 0)) return { title: `단풍 행사 ${i}` };
    if ((i < 3000 && i % 3 === 1) || (i >= 3000 && i % 5 === 2)) return { description: `단풍 구경 안내 ${i}` };
    return {};
  });
  await index.rebuild(documents);
  const expected = [
    ...byDateDescending(documents.filter((entry) => entry.title.startsWith('단풍'))),
    ...byDateDescending(documents.filter((entry) => entry.description.startsWith('단풍'))),
  ];
  t.true(expected.length > 1000);
  for (const [offset, limit] of [[0, 20], [95, 10]] as const) {
    const page = await index.search('단풍', { offset, limit });
    t.deepEqual(page.ids, expected.slice(offset, offset + limit), `offset ${offset}`);
    t.is(page.total, 1000);
    t.true(page.hasMore);
  }
});

const document = (fields: Partial<SearchDocument>): SearchDocument => ({
  scheduleId: 1,
  title: '',
  description: '',
  categoryId: 1,
  categoryName: '기타',
  date: '2025-05-01',
  sourceNames: [],
  memberNames: [],
  ...fields,
});

test('opensearch: user_dictionary_rules are the dictionary words, normalised, once each, without comments or `#`', (t) => {
  const content = '\uFEFF# 사용자 사전\n콘서트\tNNG\n프로미스나인\tNNP\n콘서트\tNNP\nKBS\tNNP\nC#언어\tNNG\n틀린 줄\n공백 단어\tNNG\n';
  t.deepEqual(dictionaryRules(content), ['kbs', '콘서트', '프로미스나인']);
  t.deepEqual(dictionaryRules(''), []);
});

test('opensearch: the index definition uses nori (mixed, inline rules, particle filter), 2–3-grams and a choseong keyword', (t) => {
  const definition = indexDefinition(['콘서트']);
  const analysis = definition.settings!.analysis!;
  t.deepEqual(analysis.tokenizer!.korean, { type: 'nori_tokenizer', decompound_mode: 'mixed', discard_punctuation: true, user_dictionary_rules: ['콘서트'] });
  t.like(analysis.tokenizer!.grams, { type: 'ngram', min_gram: 2, max_gram: 3 });
  t.like(analysis.filter!.korean_particles, { type: 'nori_part_of_speech' });
  const properties = definition.mappings!.properties!;
  for (const field of ['title', 'source', 'venue', 'members', 'description']) t.like(properties[field], { type: 'text', analyzer: 'korean', fields: { grams: { analyzer: 'grams' } } });
  t.like(properties.choseong, { type: 'keyword', normalizer: 'folded' });
  t.deepEqual(Object.keys((properties.typo as { properties: object }).properties), ['title', 'source', 'venue', 'members']);
  t.like(properties.typo, { type: 'object', properties: { title: { type: 'keyword' }, venue: { type: 'keyword' } } });
  t.like(definition.mappings!._meta, { format: INDEX_FORMAT });
  t.like(properties.date, { type: 'date' });
  // No rules: the key is left out rather than sent empty.
  t.false('user_dictionary_rules' in (indexDefinition([]).settings!.analysis!.tokenizer!.korean as object));
});

test('opensearch: indexed documents carry normalised text and the choseong of title, sources and members', (t) => {
  const indexed = indexedDocument(document({ title: '  프로미스나인  SHOWCASE ', sourceNames: ['한국외국어대학교', '외대', '외대'], memberNames: ['송하영'], venueNames: ['연세대학교 노천극장', '서울 서대문구 연세로 50', ''] }));
  t.is(indexed.title, '프로미스나인 showcase');
  t.deepEqual(indexed.source, ['한국외국어대학교', '외대']);
  t.deepEqual(indexed.venue, ['연세대학교 노천극장', '서울 서대문구 연세로 50']);
  t.deepEqual(indexed.choseong, ['ㅍㄹㅁㅅㄴㅇshowcase', 'ㅎㄱㅇㄱㅇㄷㅎㄱ', 'ㅇㄷ', 'ㅅㅎㅇ']);
  t.true(indexed.typo.venue.includes(typoKey('노천극장')));
  t.true(indexed.typo.title.includes(typoKey('미스나')));
  t.deepEqual(indexedDocument(document({ title: '축제' })).typo, { title: [typoKey('축제')], source: [], venue: [], members: [] });
});

test('opensearch: typo keys are skeleton|jamo of every part of two or more syllables of each Hangul run', (t) => {
  t.is(typoKey('대동제'), '데도제|ㄷㅐㄷㅗㅇㅈㅔ');
  // A typo leaves the skeleton as it is: the fuzzy query's prefix.
  t.is(typoKey('대동재').split('|')[0], typoKey('대동제').split('|')[0]);
  t.deepEqual(typoKeys(['봄 대동제, 2026']).map((key) => key.split('|')[0]), ['데도', '데도제', '도제']);
  t.deepEqual(typoKeys(['ab 한 c']), []);
  // A part with a compound vowel has a second key, the compound folded to its first key (화 → 호).
  t.deepEqual(typoKeys(['화보']), ['하보|ㅎㅗㅏㅂㅗ', '호보|ㅎㅗㅏㅂㅗ']);
});

test('opensearch: a date filters by a term or a date script; each word is a named dis_max over its forms; weights are filter aggregations', (t) => {
  const match = (field: string, word: string) => ({ match: { [field]: { query: word } } });
  const day = dateSearchBody([['강서아'], ['카페', 'cafe']], { month: 5, day: 20, text: '5/20' }, { offset: 0, limit: 20 }, match);
  const query = day.query as { bool: { filter: { script: { script: { source: string; params: Record<string, number> } } }[]; should: { dis_max: { _name: string; queries: unknown[] } }[]; minimum_should_match: number } };
  t.is(query.bool.filter[0]!.script.script.source, "doc['date'].value.getMonthValue() == params.month && doc['date'].value.getDayOfMonth() == params.day");
  t.deepEqual(query.bool.filter[0]!.script.script.params, { month: 5, day: 20 });
  t.deepEqual(query.bool.should.map((word) => word.dis_max._name), ['w0', 'w1']);
  t.is(query.bool.should[1]!.dis_max.queries.length, 2 * 5, 'each form in each of the five fields');
  t.is(query.bool.minimum_should_match, 1);
  t.deepEqual(dateFilter({ year: 2026, month: 5, day: 20, text: '2026.5.20' }), { term: { date: '2026-05-20' } });
  t.false('should' in (dateSearchBody([], { day: 20, text: '20일' }, { offset: 0, limit: 20 }, match).query as { bool: object }).bool, 'a date alone: every document of it');
  const weights = weightsBody(['루미네', '카페'], match);
  t.deepEqual(Object.keys(weights.aggregations!), ['n0', 'm0', 'n1', 'm1']);
  // A member's name (held in some members field) weighs a tenth: it is left out after an event kind.
  const shares = weightsOf(['루미네', '카페', '다온'], 100, { n0: { doc_count: 60 }, m0: { doc_count: 0 }, n1: { doc_count: 2 }, m1: { doc_count: 0 }, n2: { doc_count: 10 }, m2: { doc_count: 80 } })!.shares;
  t.deepEqual(shares.map((share) => Math.round(share * 1000) / 1000), [0.6, 0.02, 0.01]);
});

test('opensearch: the query needs every word, tiers fields 8/4/3/2/1, uses the choseong field for consonants, sorts by score then date', (t) => {
  const body = searchBody(['외대', 'ㅍㄹㅁ'], { offset: 20, limit: 10 });
  t.like(body, { from: 20, size: 10, track_total_hits: 1001, _source: false });
  t.deepEqual(body.sort, [{ _score: { order: 'desc' } }, { date: { order: 'desc' } }, { scheduleId: { order: 'desc' } }]);
  const bool = body.query!.bool!;
  t.is(bool.minimum_should_match, 2);
  const [word, consonants] = bool.should as any[];
  t.deepEqual(word.dis_max.queries.map((query: any) => query.constant_score.boost), [8, 4, 3, 2, 1]);
  t.deepEqual(word.dis_max.queries[1].constant_score.filter.bool.should, [
    { match: { source: { query: '외대', operator: 'and' } } },
    { match_phrase: { 'source.grams': { query: '외대' } } },
  ]);
  t.deepEqual(consonants.dis_max.queries[1], { constant_score: { filter: { wildcard: { choseong: { value: '*ㅍㄹㅁ*' } } }, boost: 4 } });
  // A word that could be a typo: the request counts the hits matching every word outside the description.
  const strong = (body.aggregations as any).strong.filter.bool.filter;
  t.is(strong.length, 2);
  t.deepEqual(strong[0].bool.should.map((query: any) => Object.keys(query.bool.should[0].match)[0]), ['title', 'source', 'venue', 'members']);
  t.false('aggregations' in searchBody(['콘', 'ㅋㅅ', 'kbs'], { offset: 0, limit: 10 }));
});

test('opensearch: the typo query takes each word exactly or within one jamo edit (skeleton as the fuzzy prefix), never all exactly', (t) => {
  const body = typoSearchBody(['대동재', 'kbs'], { offset: 0, limit: 20 });
  t.like(body, { from: 0, size: 20, track_total_hits: true, _source: false });
  const bool = body.query!.bool! as any;
  t.is(bool.minimum_should_match, 2);
  t.deepEqual(bool.must_not, [searchBody(['대동재', 'kbs'], { offset: 0, limit: 1 }).query]);
  const [typoWord, latin] = bool.should;
  t.deepEqual(typoWord.dis_max.queries.slice(1).map((query: any) => query.constant_score.boost), [0.8, 0.4, 0.3, 0.2]);
  t.deepEqual(typoWord.dis_max.queries[1].constant_score.filter, { fuzzy: { 'typo.title': { value: typoKey('대동재'), fuzziness: 1, prefix_length: 4, transpositions: false } } });
  // A word with a compound vowel is looked for by both its skeletons (화 as 하 and as 호), a long one within two keystrokes.
  t.deepEqual((typoSearchBody(['화보촬영현장'], { offset: 0, limit: 20 }).query!.bool!.should as any[])[0].dis_max.queries[1].constant_score.filter, {
    bool: {
      should: ['하보차어허자', '호보초어허자'].map((skeleton) => ({
        fuzzy: { 'typo.title': { value: `${skeleton}|${typoKey('화보촬영현장').split('|')[1]}`, fuzziness: 2, prefix_length: 7, transpositions: false } },
      })),
      minimum_should_match: 1,
    },
  });
  // Not a Hangul word of two syllables or more: exact only.
  t.deepEqual(latin.dis_max.queries.length, 5);
});

interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string;
}

/** Answers the few OpenSearch endpoints the engine calls, with one alias and its indices in memory. */
async function recordingStub(options: { failedSwaps?: number; weakExact?: boolean; readingsOverlap?: boolean } = {}) {
  let failedSwaps = options.failedSwaps ?? 0;
  let searches = 0;
  const calls: Recorded[] = [];
  const indices = new Set<string>(['stub-v1000']);
  let aliased: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stub');
      const path = decodeURIComponent(url.pathname);
      calls.push({ method: request.method ?? '', path, query: Object.fromEntries(url.searchParams), body });
      const send = (status: number, json: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      if (path === '/_alias/stub') {
        return aliased.length > 0 ? send(200, Object.fromEntries(aliased.map((name) => [name, { aliases: { stub: {} } }]))) : send(404, { error: 'alias [stub] missing', status: 404 });
      }
      if (path === '/_aliases') {
        // As when another process swapped first and deleted the index this call still names.
        if (failedSwaps-- > 0) return send(404, { error: { type: 'index_not_found_exception', reason: 'no such index' }, status: 404 });
        for (const action of JSON.parse(body).actions) {
          if (action.remove) aliased = aliased.filter((name) => name !== action.remove.index);
          if (action.add) aliased.push(action.add.index);
        }
        return send(200, { acknowledged: true });
      }
      if (path.endsWith('/_bulk')) return send(200, { took: 1, errors: false, items: [] });
      if (path.endsWith('/_refresh')) return send(200, { _shards: { total: 1, successful: 1, failed: 0 } });
      if (path.endsWith('/_count')) return send(200, { count: 3 });
      const shards = { total: 1, successful: 1, failed: 0 };
      // Weak exact hits (no strong one), then one typo hit.
      if (path.endsWith('/_search') && options.weakExact) {
        return send(200, searches++ === 0
          ? { took: 1, timed_out: false, _shards: shards, hits: { total: { value: 2, relation: 'eq' }, hits: [{ _id: '9', _score: 1 }, { _id: '4', _score: 1 }] }, aggregations: { strong: { doc_count: 0 } } }
          : { took: 1, timed_out: false, _shards: shards, hits: { total: { value: 1, relation: 'eq' }, hits: [{ _id: '5', _score: 0.8 }] } });
      }
      // The query's own words match nothing; every later search (its readings) matches the same 30
      // documents, paged as asked.
      if (path.endsWith('/_search') && options.readingsOverlap) {
        const { from = 0, size = 10 } = JSON.parse(body) as { from?: number; size?: number };
        const ids = searches++ === 0 ? [] : Array.from({ length: 30 }, (_, i) => 30 - i);
        return send(200, { took: 1, timed_out: false, _shards: shards, hits: { total: { value: ids.length, relation: 'eq' }, hits: ids.slice(from, from + size).map((id) => ({ _id: String(id), _score: 8 })) } });
      }
      if (path.endsWith('/_search')) return send(200, { took: 1, timed_out: false, _shards: { total: 1, successful: 1, failed: 0 }, hits: { total: { value: 12, relation: 'eq' }, hits: [{ _id: '9', _score: 8 }, { _id: '4', _score: 8 }] } });
      if (path.endsWith('/_mapping')) return send(200, Object.fromEntries(aliased.map((name) => [name, { mappings: { _meta: { dictionary: 'another' } } }])));
      if (request.method === 'PUT') {
        indices.add(path.slice(1));
        return send(200, { acknowledged: true, index: path.slice(1), shards_acknowledged: true });
      }
      if (request.method === 'GET' && path === '/stub-v*') return send(200, Object.fromEntries([...indices].map((name) => [name, {}])));
      if (request.method === 'DELETE') {
        indices.delete(path.slice(1));
        return send(200, { acknowledged: true });
      }
      send(400, { error: `stub does not answer ${request.method} ${path}`, status: 400 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, indices: () => [...indices], aliased: () => aliased, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const ndjson = (body: string) => body.trim().split('\n').map((line) => JSON.parse(line));

test('opensearch: client calls — rebuild creates a versioned index, bulk-loads, refreshes, swaps the alias in one call, deletes the old index', async (t) => {
  const stub = await recordingStub();
  t.teardown(stub.close);
  const index = new OpenSearchSearchIndex({ client: new Client({ node: stub.url }), alias: 'stub', logger, userDictionary: async () => '콘서트\tNNG\n' });
  t.teardown(() => index.close());

  await index.ensure(async () => [document({ scheduleId: 1, title: '콘서트' }), document({ scheduleId: 2, title: '팬미팅' })]);
  const first = stub.aliased()[0]!;
  t.regex(first, /^stub-v\d+$/);
  const create = stub.calls.find((call) => call.method === 'PUT' && call.path === `/${first}`)!;
  t.like(JSON.parse(create.body), { settings: { analysis: { tokenizer: { korean: { user_dictionary_rules: ['콘서트'] } } } } });
  const load = stub.calls.find((call) => call.path === `/${first}/_bulk`)!;
  t.deepEqual(ndjson(load.body).filter((line) => 'create' in line), [{ create: { _id: '1' } }, { create: { _id: '2' } }]);
  t.deepEqual(stub.calls.find((call) => call.path === '/_aliases')!.body, JSON.stringify({ actions: [{ add: { index: first, alias: 'stub' } }] }));
  // The leftover `stub-v1000` of a rebuild that died long ago is cleaned up.
  t.deepEqual(stub.indices(), [first]);

  // A second rebuild (the stored dictionary differs from the stub's meta) swaps remove+add atomically.
  stub.calls.length = 0;
  await index.ensure(async () => []);
  const second = stub.aliased()[0]!;
  t.not(second, first);
  const order = stub.calls.map((call) => `${call.method} ${call.path}`);
  t.true(order.indexOf(`GET /${second}/_refresh`) < order.indexOf('POST /_aliases'), order.join('\n'));
  t.deepEqual(JSON.parse(stub.calls.find((call) => call.path === '/_aliases')!.body), {
    actions: [{ remove: { index: first, alias: 'stub' } }, { add: { index: second, alias: 'stub' } }],
  });
  t.true(order.includes(`DELETE /${first}`));
  t.deepEqual(stub.indices(), [second]);
});

test('opensearch: client calls — upsert and remove go through the alias with refresh=wait_for and require_alias; search pages with from/size', async (t) => {
  const stub = await recordingStub();
  t.teardown(stub.close);
  const index = new OpenSearchSearchIndex({ client: new Client({ node: stub.url }), alias: 'stub', logger, userDictionary: async () => '' });
  t.teardown(() => index.close());

  await index.upsert([document({ scheduleId: 7, title: '쇼케이스', memberNames: ['이나경'] })]);
  await index.remove([8]);
  const writes = stub.calls.filter((call) => call.path === '/stub/_bulk');
  t.is(writes.length, 2);
  for (const write of writes) t.deepEqual(write.query, { refresh: 'wait_for', require_alias: 'true' });
  t.deepEqual(ndjson(writes[0]!.body)[0], { index: { _id: '7' } });
  t.like(ndjson(writes[0]!.body)[1], { scheduleId: 7, title: '쇼케이스', members: ['이나경'], choseong: ['ㅅㅋㅇㅅ', 'ㅇㄴㄱ'] });
  t.deepEqual(ndjson(writes[1]!.body), [{ delete: { _id: '8' } }]);

  t.deepEqual(await index.search('쇼케이스', { offset: 10, limit: 2 }), { ids: [9, 4], total: 12 });
  const search = stub.calls.find((call) => call.path === '/stub/_search')!;
  // One hit more than the page is asked for: with a capped total it says whether a page follows.
  t.like(JSON.parse(search.body), { from: 10, size: 3, track_total_hits: 1001 });
  t.is(await index.count(), 3);
  // Nothing to search for: no request at all.
  const before = stub.calls.length;
  t.deepEqual(await index.search('   ', { offset: 0, limit: 10 }), { ids: [], total: 0 });
  t.is(stub.calls.length, before);
});

test('opensearch: client calls — a swap that names an index another process already deleted is retried with the alias read again', async (t) => {
  const stub = await recordingStub({ failedSwaps: 1 });
  t.teardown(stub.close);
  const index = new OpenSearchSearchIndex({ client: new Client({ node: stub.url }), alias: 'stub', logger, userDictionary: async () => '' });
  t.teardown(() => index.close());
  t.is(await index.rebuild([document({ scheduleId: 3, title: '팬미팅' })]), 1);
  t.is(stub.calls.filter((call) => call.path === '/_aliases').length, 2);
  t.is(stub.aliased().length, 1);
});

test('opensearch: client calls — readings matching more than their page send a second request for every match id, and the total counts each once', async (t) => {
  const stub = await recordingStub({ readingsOverlap: true });
  t.teardown(stub.close);
  const index = new OpenSearchSearchIndex({ client: new Client({ node: stub.url }), alias: 'stub', logger, userDictionary: async () => '' });
  t.teardown(() => index.close());
  // 영통 reads as 영상통화 and, half-typed, as 영토 ㅇㅌㅇ: both readings match the stub's 30 documents.
  const page = await index.search('영통', { offset: 0, limit: 20 });
  t.deepEqual(page, { ids: Array.from({ length: 20 }, (_, i) => 30 - i), total: 30 });
  const searches = stub.calls.filter((call) => call.path === '/stub/_search').map((call) => JSON.parse(call.body));
  t.is(searches.filter((body) => body.size === 30 && body.from === 0).length, 2, 'one request of every match a reading');
  t.true(searches.every((body) => body._source === false));
});

test('opensearch: client calls — weak exact hits are followed by a typo search paged after them', async (t) => {
  const stub = await recordingStub({ weakExact: true });
  t.teardown(stub.close);
  const index = new OpenSearchSearchIndex({ client: new Client({ node: stub.url }), alias: 'stub', logger, userDictionary: async () => '' });
  t.teardown(() => index.close());
  t.deepEqual(await index.search('대동재', { offset: 0, limit: 20 }), { ids: [9, 4, 5], total: 3 });
  const searches = stub.calls.filter((call) => call.path === '/stub/_search').map((call) => JSON.parse(call.body));
  t.is(searches.length, 2);
  t.truthy(searches[0].aggregations.strong.filter);
  // The typo matches of a weak query are read whole (up to MERGE_LIMIT) and merged after the exact ones.
  t.like(searches[1], { from: 0, size: MERGE_LIMIT });
  t.truthy(searches[1].query.bool.must_not);
});

test('opensearch: word weights are asked once a minute per word; a query of known words sends no request', async (t) => {
  let clock = 0;
  const remembered = new RememberedWeights(() => clock);
  const asked: string[][] = [];
  const ask = async (words: string[]) => {
    asked.push(words);
    return { shares: words.map((word) => (word === '루미네' ? 0.6 : 0.01)), documents: 500 };
  };
  t.deepEqual(await remembered.get(['루미네', '카페'], ask), { shares: [0.6, 0.01], documents: 500 });
  t.deepEqual(await remembered.get(['카페', '다온', '루미네'], ask), { shares: [0.01, 0.01, 0.6], documents: 500 });
  t.deepEqual(asked, [['루미네', '카페'], ['다온']]);
  clock = 61_000;
  await remembered.get(['루미네'], ask);
  t.deepEqual(asked.at(-1), ['루미네'], 'asked again after a minute');
  t.is(await remembered.get(['새말'], async () => undefined), undefined, 'an empty index: no weights');
});
