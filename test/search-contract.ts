// The search contract (shared/search/search-index.ts, api-service.md 2.7), registered once per engine:
// the embedded engine always, OpenSearch when OPENSEARCH_URL is set. A run has one index of its own
// (a fresh database, or an alias prefix); its tests run one after another and each starts from an
// empty index, so none depends on what another left.
import test, { type ExecutionContext } from 'ava';
import type { SearchDocument, SearchIndex } from '../shared/search/search-index.ts';
import { measureQuality, MIN_RECALL_AT_5, QUALITY_TABLE, TOP } from './search-quality.ts';

export interface SearchBackend {
  /** The run's index, empty at first. */
  index: SearchIndex;
  /** The demo data set's search documents, built by the service from stored rows (test/search-quality.ts). */
  demoDocuments(): Promise<SearchDocument[]>;
  teardown(): Promise<void>;
}

let nextScheduleId = 1;

/** A schedule document; fields not given are neutral (no words any test searches for). */
function schedule(fields: Partial<SearchDocument> = {}): SearchDocument {
  return {
    scheduleId: nextScheduleId++,
    title: '일정',
    description: '',
    categoryId: 1,
    categoryName: '기타',
    date: '2025-01-01',
    sourceNames: [],
    memberNames: [],
    ...fields,
  };
}

const PAGE = { offset: 0, limit: 20 };

export function registerSearchContract(name: string, setup: () => Promise<SearchBackend>): void {
  let ready: Promise<SearchBackend> | null = null;
  const backend = () => (ready ??= setup());

  /** The run's index, emptied. */
  const emptyIndex = async (): Promise<SearchIndex> => {
    const { index } = await backend();
    await index.rebuild([]);
    return index;
  };
  const ids = async (index: SearchIndex, query: string, page = PAGE) => (await index.search(query, page)).ids;
  const finds = async (t: ExecutionContext, index: SearchIndex, query: string, document: SearchDocument) =>
    t.true((await ids(index, query)).includes(document.scheduleId), `"${query}" should find "${document.title}"`);
  const misses = async (t: ExecutionContext, index: SearchIndex, query: string, document: SearchDocument) =>
    t.false((await ids(index, query)).includes(document.scheduleId), `"${query}" should not find "${document.title}"`);

  test.after.always(async () => {
    if (ready) await (await ready).teardown();
  });

  test.serial(`${name}: upsert then search finds a document by a word of its title`, async (t) => {
    const index = await emptyIndex();
    const concert = schedule({ title: '프로미스나인 단독 콘서트' });
    const other = schedule({ title: '라디오 출연' });
    await index.upsert([concert, other]);
    await finds(t, index, '콘서트', concert);
    await finds(t, index, '단독', concert);
    t.deepEqual(await ids(index, '콘서트'), [concert.scheduleId]);
    t.is(await index.count(), 2);
  });

  test.serial(`${name}: two consecutive syllables inside a word find it`, async (t) => {
    const index = await emptyIndex();
    const showcase = schedule({ title: '정규앨범 쇼케이스' });
    await index.upsert([showcase, schedule({ title: '팬사인회' })]);
    await finds(t, index, '케이', showcase);
    await finds(t, index, '규앨', showcase);
    await finds(t, index, '앨범쇼', showcase);
    t.deepEqual(await ids(index, '스케'), []);
  });

  test.serial(`${name}: a school's short forms find its events (name resolution puts them in sourceNames)`, async (t) => {
    const index = await emptyIndex();
    const festival = schedule({ title: '대동제 축하공연', sourceNames: ['한국외국어대학교', '한국외대', '외대', 'HUFS'] });
    const elsewhere = schedule({ title: '대동제 축하공연', sourceNames: ['고려대학교', '고려대', '고대'] });
    await index.upsert([festival, elsewhere]);
    await finds(t, index, '외대', festival);
    await finds(t, index, '한국외대', festival);
    await finds(t, index, '외국어대', festival);
    await finds(t, index, 'hufs', festival);
    await misses(t, index, '외대', elsewhere);
    t.deepEqual(await ids(index, '한국외대'), [festival.scheduleId]);
  });

  test.serial(`${name}: a member's name or nickname finds the schedule`, async (t) => {
    const index = await emptyIndex();
    const broadcast = schedule({ title: '예능 출연', memberNames: ['백지헌', '막내온탑', 'Baek Jiheon'] });
    const other = schedule({ title: '예능 출연', memberNames: ['이나경'] });
    await index.upsert([broadcast, other]);
    await finds(t, index, '막내온탑', broadcast);
    await finds(t, index, '백지헌', broadcast);
    await finds(t, index, 'jiheon', broadcast);
    await misses(t, index, '막내온탑', other);
  });

  test.serial(`${name}: initial consonants find a title (ㅍㄹㅁ → 프로미스나인)`, async (t) => {
    const index = await emptyIndex();
    const concert = schedule({ title: '프로미스나인 콘서트' });
    const other = schedule({ title: '오늘의 라디오' });
    await index.upsert([concert, other]);
    await finds(t, index, 'ㅍㄹㅁ', concert);
    await finds(t, index, 'ㅋㅅㅌ', concert);
    await misses(t, index, 'ㅍㄹㅁ', other);
  });

  test.serial(`${name}: words typed without spaces find the spaced title (프로미스나인콘서트)`, async (t) => {
    const index = await emptyIndex();
    const concert = schedule({ title: '프로미스나인 콘서트' });
    await index.upsert([concert, schedule({ title: '프로미스나인 팬미팅' })]);
    t.deepEqual(await ids(index, '프로미스나인콘서트'), [concert.scheduleId]);
  });

  test.serial(`${name}: Latin letters match whatever their case`, async (t) => {
    const index = await emptyIndex();
    const live = schedule({ title: 'Fromis_9 SHOWCASE Live', memberNames: ['Song Hayoung'] });
    await index.upsert([live]);
    for (const query of ['showcase', 'Showcase', 'LIVE', 'FROMIS_9', 'HAYOUNG']) await finds(t, index, query, live);
  });

  test.serial(`${name}: every word of a query must match`, async (t) => {
    const index = await emptyIndex();
    const both = schedule({ title: '프로미스나인 축하공연', sourceNames: ['한국외국어대학교', '한국외대', '외대'] });
    const titleOnly = schedule({ title: '프로미스나인 축하공연', sourceNames: ['고려대학교', '고대'] });
    await index.upsert([both, titleOnly]);
    t.deepEqual(await ids(index, '프로미스나인 외대'), [both.scheduleId]);
  });

  test.serial(`${name}: a title match ranks above a source match above a member match above a description match`, async (t) => {
    const index = await emptyIndex();
    // The newest date goes to the weakest field: the field decides before recency does.
    const inDescription = schedule({ title: '공지', description: '하늘정원에서 만나요', date: '2025-04-04' });
    const inMembers = schedule({ title: '공지', memberNames: ['하늘정원'], date: '2025-03-03' });
    const inSource = schedule({ title: '공지', sourceNames: ['하늘정원'], date: '2025-02-02' });
    const inTitle = schedule({ title: '하늘정원 공연', date: '2025-01-01' });
    await index.upsert([inDescription, inMembers, inSource, inTitle]);
    t.deepEqual(await ids(index, '하늘정원'), [inTitle, inSource, inMembers, inDescription].map((document) => document.scheduleId));
  });

  test.serial(`${name}: equal scores put the newer date first`, async (t) => {
    const index = await emptyIndex();
    const older = schedule({ title: '팬미팅 공지', date: '2023-03-03' });
    const newest = schedule({ title: '팬미팅 공지', date: '2025-06-01' });
    const middle = schedule({ title: '팬미팅 공지', date: '2024-01-01' });
    await index.upsert([older, newest, middle]);
    t.deepEqual(await ids(index, '팬미팅'), [newest, middle, older].map((document) => document.scheduleId));
  });

  test.serial(`${name}: offset and limit page through the results; total counts them all`, async (t) => {
    const index = await emptyIndex();
    const pages = Array.from({ length: 25 }, (_, i) => schedule({ title: `페이지 시험 ${i + 1}`, date: `2024-02-${String(i + 1).padStart(2, '0')}` }));
    await index.upsert([...pages, schedule({ title: '다른 일정' })]);
    const all = await index.search('페이지', { offset: 0, limit: 100 });
    t.is(all.total, 25);
    t.deepEqual(all.ids, pages.map((document) => document.scheduleId).reverse());
    const seen: number[] = [];
    for (const [offset, size] of [[0, 10], [10, 10], [20, 5]] as const) {
      const page = await index.search('페이지', { offset, limit: 10 });
      t.is(page.total, 25);
      t.is(page.ids.length, size);
      seen.push(...page.ids);
    }
    t.deepEqual(seen, all.ids);
    t.deepEqual(await index.search('페이지', { offset: 30, limit: 10 }), { ids: [], total: 25 });
  });

  test.serial(`${name}: past 1,000 matches the total is 1000 with hasMore, and every page is still in exact rank order`, async (t) => {
    const index = await emptyIndex();
    // 1,300 schedules holding 가을축제 in one field each (a tenth in the title, a tenth in the
    // school, a tenth at the venue, a tenth in the members, the rest in the description), on
    // scattered dates, some sharing a date.
    const tiers = [8, 4, 3, 2, 1, 1, 1, 1, 1, 1];
    const documents = Array.from({ length: 1300 }, (_, i) => {
      const field = i % 10;
      const day = new Date(Date.UTC(2020, 0, 1) + ((i * 7919) % 900) * 86_400_000).toISOString().slice(0, 10);
      return schedule({
        title: field === 0 ? `가을축제 무대 ${i}` : `일정 ${i}`,
        sourceNames: field === 1 ? ['가을축제대학교'] : [],
        venueNames: field === 2 ? ['가을축제 광장'] : [],
        memberNames: field === 3 ? ['가을축제'] : [],
        description: field >= 4 ? `올해 가을축제 안내 ${i}` : '',
        date: day,
      });
    });
    await index.rebuild(documents);
    const expected = documents
      .map((document, i) => ({ id: document.scheduleId, tier: tiers[i % 10]!, date: document.date }))
      .sort((a, b) => b.tier - a.tier || (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || b.id - a.id)
      .map((entry) => entry.id);
    for (const [offset, limit] of [[0, 20], [120, 30], [385, 40], [990, 20], [1280, 20], [1300, 5]] as const) {
      const page = await index.search('가을축제', { offset, limit });
      const want = expected.slice(offset, offset + limit);
      t.deepEqual(page.ids, want, `offset ${offset}, limit ${limit}`);
      t.is(page.total, 1000, `offset ${offset}`);
      t.is(page.hasMore, offset + limit < 1300, `hasMore at offset ${offset}`);
    }
  });

  test.serial(`${name}: lists merged past 1,000 (two shorthand readings, exact and typo matches) report 1000 with hasMore`, async (t) => {
    const index = await emptyIndex();
    // 음방 reads as 음악방송 and as 컴백 무대 (the shipped synonyms): 1,050 titles hold each. 가을축제
    // is in 900 descriptions (weak exact matches) and 가을축재, one jamo off, in 300 titles.
    const day = (i: number) => new Date(Date.UTC(2021, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
    await index.rebuild([
      ...Array.from({ length: 1050 }, (_, i) => schedule({ title: `음악방송 출연 ${i}`, date: day(i) })),
      ...Array.from({ length: 1050 }, (_, i) => schedule({ title: `컴백 무대 ${i}`, date: day(i) })),
      ...Array.from({ length: 900 }, (_, i) => schedule({ description: `올해 가을축제 안내 ${i}`, date: day(i) })),
      ...Array.from({ length: 300 }, (_, i) => schedule({ title: `가을축재 ${i}`, date: day(i) })),
    ]);
    for (const query of ['음방', '가을축제']) {
      const first = await index.search(query, { offset: 0, limit: 20 });
      t.is(first.ids.length, 20, query);
      t.is(first.total, 1000, query);
      t.true(first.hasMore, query);
    }
    const last = await index.search('가을축제', { offset: 1180, limit: 20 });
    t.is(last.total, 1000);
    t.false(last.hasMore, 'the 1,200th match is the last');
    t.is(last.ids.length, 20, 'pages past the cap still come');
  });

  test.serial(`${name}: a merged total counts a schedule once, and one reading past 1,000 reports hasMore`, async (t) => {
    const index = await emptyIndex();
    // 라방 reads as 라이브 and as 인스타그램 라이브: the 30 titles below match both readings. 나침반의
    // (in 30 descriptions: weak matches) also matches as 나침반, its particle dropped. 팬밋 reads as
    // 팬미팅 alone, in 1,050 titles.
    const day = (i: number) => new Date(Date.UTC(2021, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
    await index.rebuild([
      ...Array.from({ length: 30 }, (_, i) => schedule({ title: `인스타그램 라이브 ${i}`, date: day(i) })),
      ...Array.from({ length: 30 }, (_, i) => schedule({ description: `나침반의 노래 ${i}`, date: day(i) })),
      ...Array.from({ length: 1050 }, (_, i) => schedule({ title: `팬미팅 ${i}`, date: day(i) })),
    ]);
    for (const query of ['라방', '나침반의']) {
      const first = await index.search(query, PAGE);
      t.is(first.ids.length, 20, query);
      t.is(first.total, 30, query);
      t.is(first.hasMore, undefined, query);
      const rest = await index.search(query, { offset: 20, limit: 20 });
      t.is(new Set([...first.ids, ...rest.ids]).size, 30, `${query}: the second page holds the other 10`);
    }
    const fanMeeting = await index.search('팬밋', PAGE);
    t.is(fanMeeting.total, 1000);
    t.true(fanMeeting.hasMore);
  });

  test.serial(`${name}: remove drops a document; removing an unknown id is no error`, async (t) => {
    const index = await emptyIndex();
    const kept = schedule({ title: '음악방송 출연' });
    const removed = schedule({ title: '음악방송 사전녹화' });
    await index.upsert([kept, removed]);
    await index.remove([removed.scheduleId, 999_999_999]);
    t.deepEqual(await ids(index, '음악방송'), [kept.scheduleId]);
    t.deepEqual(await ids(index, '사전녹화'), []);
    t.is(await index.count(), 1);
  });

  test.serial(`${name}: upsert replaces a document: its old words no longer match`, async (t) => {
    const index = await emptyIndex();
    const first = schedule({ title: '라디오 생방송', memberNames: ['이서연'] });
    await index.upsert([first]);
    await index.upsert([{ ...first, title: '잡지 화보 촬영', memberNames: ['이채영'] }]);
    t.deepEqual(await ids(index, '라디오'), []);
    t.deepEqual(await ids(index, '이서연'), []);
    t.deepEqual(await ids(index, '화보'), [first.scheduleId]);
    t.deepEqual(await ids(index, '이채영'), [first.scheduleId]);
    t.is(await index.count(), 1);
  });

  test.serial(`${name}: rebuild replaces everything and count() matches`, async (t) => {
    const index = await emptyIndex();
    const gone = schedule({ title: '지난 행사' });
    await index.upsert([gone, schedule({ title: '지난 공연' })]);
    const fresh = Array.from({ length: 1234 }, (_, i) => schedule({ title: `새로운 일정 ${i}`, sourceNames: i === 0 ? ['성균관대학교', '성균관대', '성대'] : [] }));
    t.is(await index.rebuild(fresh), 1234);
    t.is(await index.count(), 1234);
    t.deepEqual(await ids(index, '지난'), []);
    t.deepEqual(await ids(index, '성균관대'), [fresh[0]!.scheduleId]);
    // 1,234 match: the total is counted up to the cap (SEARCH_TOTAL_CAP) and says more follow.
    t.deepEqual(await index.search('새로운', { offset: 0, limit: 1 }), { ids: [fresh[1233]!.scheduleId], total: 1000, hasMore: true });
    t.is(await index.rebuild([]), 0);
    t.is(await index.count(), 0);
  });

  test.serial(`${name}: a word one jamo off finds the schedule (similar vowel, doubled consonant, missing or extra final)`, async (t) => {
    const index = await emptyIndex();
    const festival = schedule({ title: '건국대학교 봄 대동제 축하공연' });
    const showcase = schedule({ title: '컴백 쇼케이스' });
    const theatre = schedule({ title: '축제', venueNames: ['연세대학교 노천극장', '서울 서대문구 신촌동 134', '서울 서대문구 연세로 50'] });
    await index.upsert([festival, showcase, theatre, schedule({ title: '라디오 출연' })]);
    t.deepEqual(await ids(index, '대동재'), [festival.scheduleId], 'ㅔ typed as ㅐ');
    t.deepEqual(await ids(index, '축하공언'), [festival.scheduleId], 'ㅕ typed as ㅓ');
    t.deepEqual(await ids(index, '쑈케이스'), [showcase.scheduleId], 'ㅅ doubled');
    t.deepEqual(await ids(index, '노천극자'), [theatre.scheduleId], 'final consonant missing');
    t.deepEqual(await ids(index, '대동젝'), [festival.scheduleId], 'final consonant extra');
    t.deepEqual(await ids(index, '봄 대동재'), [festival.scheduleId], 'one exact word and one typo');
  });

  test.serial(`${name}: a compound vowel missing its second key, or a second key too many, is one keystroke`, async (t) => {
    const index = await emptyIndex();
    const photos = schedule({ title: '[화보] 촬영 현장', date: '2025-03-01' });
    const commute = schedule({ title: '퇴근길 영상', date: '2025-03-02' });
    const concert = schedule({ title: '팬콘서트 티켓 오픈', date: '2025-03-03' });
    await index.upsert([photos, commute, concert, schedule({ title: '효도 여행', date: '2025-03-04' })]);
    t.deepEqual(await ids(index, '호보'), [photos.scheduleId], 'ㅘ typed ㅗ');
    t.deepEqual(await ids(index, '토근길'), [commute.scheduleId], 'ㅚ typed ㅗ');
    t.deepEqual(await ids(index, '팬콴서트'), [concert.scheduleId], 'ㅗ typed ㅘ');
    t.deepEqual(await ids(index, '효보'), [], 'ㅘ typed ㅛ is two keystrokes');
  });

  test.serial(`${name}: two jamo edits in a word, or an edit that is not a slip, find nothing`, async (t) => {
    const index = await emptyIndex();
    const festival = schedule({ title: '봄 대동제 축하공연' });
    await index.upsert([festival]);
    for (const query of ['데동재', '대동조', '대통제', '대동재재']) t.deepEqual(await ids(index, query), [], query);
    // Beside a word that matches, a word two edits off matches nothing and is left out, and said so.
    t.deepEqual(await index.search('봄 대동조', PAGE), { ids: [festival.scheduleId], total: 1, ignoredWords: ['대동조'] });
  });

  test.serial(`${name}: no document matching all three words, those matching all but one come, each word left out in turn`, async (t) => {
    const index = await emptyIndex();
    const radio = schedule({ title: '송하영 라디오 출연', date: '2025-01-01' });
    const signing = schedule({ title: '부산 팬사인회', memberNames: ['송하영'], date: '2025-02-01' });
    const broadcast = schedule({ title: '라디오 부산 공개방송', date: '2025-03-01' });
    await index.upsert([radio, signing, broadcast, schedule({ title: '서울 콘서트', date: '2025-04-01' })]);
    // Left out in turn: 부산 (the shortest), then 라디오 (of two as long, the last typed), then 송하영.
    t.deepEqual(await index.search('송하영 라디오 부산', PAGE), {
      ids: [radio.scheduleId, signing.scheduleId, broadcast.scheduleId],
      total: 3,
      ignoredWords: ['부산', '라디오', '송하영'],
    });
    // A page names the words its own documents leave out.
    t.deepEqual(await index.search('송하영 라디오 부산', { offset: 1, limit: 1 }), { ids: [signing.scheduleId], total: 3, ignoredWords: ['라디오'] });
    // A word matching nothing is left out first; the other two then match together.
    t.deepEqual(await index.search('송하영 라디오 오사카', PAGE), { ids: [radio.scheduleId], total: 1, ignoredWords: ['오사카'] });
  });

  test.serial(`${name}: a word naming a month no text holds reads as the schedules' month (5월 대동제 → the 대동제 of May)`, async (t) => {
    const index = await emptyIndex();
    const may = schedule({ title: '건국대학교 봄 대동제', date: '2025-05-08' });
    const lastMay = schedule({ title: '고려대학교 대동제', date: '2024-05-21' });
    const september = schedule({ title: '한양대학교 가을 대동제', date: '2025-09-18' });
    await index.upsert([may, lastMay, september]);
    t.deepEqual(await index.search('5월 대동제', PAGE), { ids: [may.scheduleId, lastMay.scheduleId], total: 2 }, 'May of any year, nothing left out');
    t.deepEqual(await index.search('대동제 9월', PAGE), { ids: [september.scheduleId], total: 1 });
    // No 대동제 in March: the month is left out, and said so.
    t.deepEqual(await index.search('3월 대동제', PAGE), { ids: [september.scheduleId, may.scheduleId, lastMay.scheduleId], total: 3, ignoredWords: ['3월'] });
    // Text that holds the word wins: a title saying 5월 is an exact match, whatever its date.
    const titled = schedule({ title: '5월 대동제 안내', date: '2025-02-01' });
    await index.upsert([titled]);
    t.deepEqual(await ids(index, '5월 대동제'), [titled.scheduleId]);
  });

  test.serial(`${name}: a date in the query filters by that day, ranked by words matched; a date with no match is named as left out`, async (t) => {
    const index = await emptyIndex();
    const cafe = schedule({ title: '강서아 생일 카페', date: '2025-05-20' });
    const stage = schedule({ title: '음악방송 무대', memberNames: ['강서아'], date: '2024-05-20' });
    const other = schedule({ title: '강서아 생일 카페 안내', date: '2025-05-21' });
    await index.upsert([cafe, stage, other]);
    t.deepEqual(await index.search('강서아 5/20', PAGE), { ids: [cafe.scheduleId, stage.scheduleId], total: 2 }, 'title before member, any year');
    t.deepEqual(await index.search('5월 20일 카페 강서아', PAGE), { ids: [cafe.scheduleId, stage.scheduleId], total: 2 }, 'every word in the first');
    // A word the first document lacks is named.
    t.deepEqual(await index.search('강서아 무대 공연 5/20', PAGE), { ids: [stage.scheduleId, cafe.scheduleId], total: 2, ignoredWords: ['공연'] });
    t.deepEqual(await index.search('2024.5.20', PAGE), { ids: [stage.scheduleId], total: 1 }, 'a whole date');
    t.deepEqual((await index.search('21일', PAGE)).ids, [other.scheduleId], 'a day of any month');
    // The words by any of their forms: an English word for the Korean title.
    t.deepEqual((await index.search('birthday cafe 5.20', PAGE)).ids, [cafe.scheduleId]);
    // Nothing of that date matches: the words' own search, the date left out and named.
    t.deepEqual(await index.search('생일 카페 안내 1/2', PAGE), { ids: [other.scheduleId], total: 1, ignoredWords: ['1/2'] });
  });

  test.serial(`${name}: of words matching nothing together, the one naming the most documents is left out first`, async (t) => {
    const index = await emptyIndex();
    // 루미네 names most documents, 카페 few, 다온 one title and some members.
    const group = Array.from({ length: 6 }, (_, i) => schedule({ title: `루미네 무대 ${i + 1}`, memberNames: ['백다온', '강서아'], date: `2025-0${i + 1}-01` }));
    const cafe = schedule({ title: '백다온 생일 카페', date: '2024-01-16' });
    const radio = schedule({ title: '〈별빛 라디오〉 게스트', memberNames: ['백다온'], date: '2024-03-01' });
    await index.upsert([...group, cafe, radio, schedule({ title: '강서아 생일 카페', date: '2024-05-20' })]);
    const found = await index.search('루미네 다온 카페', PAGE);
    // Each word left out in turn, heaviest first: 다온 카페 (루미네 left out) lists first, then 루미네 다온.
    t.is(found.ids[0], cafe.scheduleId);
    t.deepEqual(found.ignoredWords, ['루미네', '카페']);
    t.deepEqual(found.ids.slice(1).sort(), group.map((document) => document.scheduleId).sort());
    // An event kind is left out before a member, whose name weighs a tenth: 카페, then 라디오.
    t.deepEqual(await index.search('다온 카페 라디오', PAGE), { ids: [radio.scheduleId, cafe.scheduleId], total: 2, ignoredWords: ['카페', '라디오'] });
  });

  test.serial(`${name}: English words, Hangul spellings of Latin titles and decorations read as what they mean`, async (t) => {
    const index = await emptyIndex();
    const popup = schedule({ title: '〈빛의 방향으로〉 팝업스토어 오픈' });
    const log = schedule({ title: '[LUMI-LOG] 윤하린의 하루' });
    const greetings = schedule({ title: '2027 시즌 그리팅 예약 판매' });
    await index.upsert([popup, log, greetings, schedule({ title: '콘서트 안내' })]);
    t.deepEqual(await ids(index, 'popup store'), [popup.scheduleId]);
    t.deepEqual(await ids(index, '루미로그'), [log.scheduleId]);
    t.deepEqual(await ids(index, 'ＬＵＭＩ－ＬＯＧ'), [log.scheduleId]);
    t.deepEqual(await index.search('시즌 그리팅스', PAGE), { ids: [greetings.scheduleId], total: 1 }, 'a spelling, nothing left out');
    t.deepEqual(await ids(index, 'season greetings'), [greetings.scheduleId]);
    t.deepEqual(await ids(index, '「빛의\u200b방향으로」'), [popup.scheduleId]);
  });

  test.serial(`${name}: typo matches come after every exact match, title before venue, and only when the exact match is weak`, async (t) => {
    const index = await emptyIndex();
    // The newest dates go to the typo matches: the exact match still comes first.
    const inDescription = schedule({ title: '공지', description: '대동재 안내', date: '2024-01-01' });
    const typoInVenue = schedule({ title: '공지', venueNames: ['대동제 특설무대'], date: '2025-06-01' });
    const typoInTitle = schedule({ title: '봄 대동제', date: '2025-05-01' });
    await index.upsert([inDescription, typoInVenue, typoInTitle]);
    t.deepEqual(await ids(index, '대동재'), [inDescription, typoInTitle, typoInVenue].map((document) => document.scheduleId));
    const first = await index.search('대동재', { offset: 0, limit: 2 });
    const second = await index.search('대동재', { offset: 2, limit: 2 });
    t.is(first.total, 3);
    t.is(second.total, 3);
    t.deepEqual([...first.ids, ...second.ids], [inDescription, typoInTitle, typoInVenue].map((document) => document.scheduleId));
    // A strong exact match (in a title): no typo matches.
    const exact = schedule({ title: '대동재 공연', date: '2023-01-01' });
    await index.upsert([exact]);
    t.deepEqual(await ids(index, '대동재'), [exact.scheduleId, inDescription.scheduleId]);
  });

  test.serial(`${name}: venue name, address and road address find the event; a venue match ranks below title and school, above members`, async (t) => {
    const index = await emptyIndex();
    const venue = ['한양대학교 서울캠퍼스 노천극장', '서울 성동구 행당동 17', '서울 성동구 왕십리로 222'];
    const inVenue = schedule({ title: '가을 축제', venueNames: venue, date: '2025-05-05' });
    const inTitle = schedule({ title: '노천극장 공연', date: '2025-01-01' });
    const inSource = schedule({ title: '공지', sourceNames: ['노천극장'], date: '2025-02-02' });
    const inMembers = schedule({ title: '공지', memberNames: ['노천극장'], date: '2025-06-06' });
    await index.upsert([inVenue, inTitle, inSource, inMembers]);
    t.deepEqual(await ids(index, '노천극장'), [inTitle, inSource, inVenue, inMembers].map((document) => document.scheduleId));
    for (const query of ['행당동', '왕십리로', '성동구 왕십리로 222', '서울캠퍼스']) t.deepEqual(await ids(index, query), [inVenue.scheduleId], query);
  });

  // The embedded engine runs in every CI run and must find every schedule of the table; OpenSearch
  // (OPENSEARCH_URL) is held to MIN_RECALL_AT_5.
  const minimum = name === 'embedded' ? 1 : MIN_RECALL_AT_5;
  test.serial(`${name}: quality table — recall@${TOP} over the demo data of at least ${minimum * 100}%, exact titles first`, async (t) => {
    const { index, demoDocuments } = await backend();
    const documents = await demoDocuments();
    await index.rebuild(documents);
    const quality = await measureQuality(documents, async (query) => (await index.search(query, { offset: 0, limit: TOP })).ids);
    t.log(`${name}: recall@${TOP} ${(quality.recall * 100).toFixed(1)}% over ${QUALITY_TABLE.length} queries and ${documents.length} demo schedules`);
    for (const [kind, { cases, recall }] of quality.byKind) t.log(`  ${kind.padEnd(14)} ×${String(cases).padStart(2)}  ${(recall * 100).toFixed(1)}%`);
    for (const miss of quality.misses) t.log(`  miss: ${miss}`);
    t.true(QUALITY_TABLE.length >= 400, 'at least 400 queries');
    const kinds = ['layout slip', 'shorthand', 'particle', 'spacing', 'ignored word', 'keystroke typo', 'long word typo', 'half-typed', 'latin case/order'];
    kinds.push('english word', 'hangul/latin', 'loanword spelling', 'decoration', 'date', 'several signals');
    kinds.push('place', 'member role', 'english date', 'ordinal', 'japanese', 'latin slip', 'period', 'title translation', 'tense spelling');
    for (const kind of kinds) t.true(quality.byKind.has(kind as never), `the table covers ${kind}`);
    t.true(quality.recall >= minimum, `recall@${TOP} ${quality.recall.toFixed(3)} is below ${minimum}`);
    t.deepEqual(quality.misses.filter((miss) => miss.includes('first should be')), [], 'a whole title ranks its schedule first');
  });

  test.serial(`${name}: hostile queries give results or nothing, never an error`, async (t) => {
    const index = await emptyIndex();
    const documents = [schedule({ title: '프로미스나인 콘서트' }), schedule({ title: '팬사인회', description: '장소 안내' })];
    await index.upsert(documents);
    const known = new Set(documents.map((document) => document.scheduleId));
    const hostile = [
      '%',
      '_',
      '\\',
      "'; drop table x; --",
      '"; DROP TABLE search_documents; --',
      '.*(',
      '[a-z]+',
      '*',
      '?',
      'title:콘서트 OR 1=1',
      '{"match_all":{}}',
      'ㄱ'.repeat(1000),
      '콘서트 '.repeat(250),
      'x'.repeat(1000),
      '🎤💜👩‍👩‍👧',
      '\u0000\u200b',
      '',
      '   \t\n ',
    ];
    for (const query of hostile) {
      const page = await index.search(query, PAGE);
      t.true(Array.isArray(page.ids) && Number.isInteger(page.total), `shape for ${JSON.stringify(query.slice(0, 20))}`);
      t.true(page.ids.every((id) => known.has(id)), `only indexed ids for ${JSON.stringify(query.slice(0, 20))}`);
    }
    // Pattern characters are literal: none of them is in any document.
    for (const query of ['%', '_', '.*(', '*', "'; drop table x; --", '', '   \t\n ']) {
      t.deepEqual(await index.search(query, PAGE), { ids: [], total: 0 }, JSON.stringify(query));
    }
    t.is(await index.count(), 2);
    await finds(t, index, '콘서트', documents[0]!);
  });
}
