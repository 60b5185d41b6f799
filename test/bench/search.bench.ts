// Search benchmark (aim: search p99 under 15 ms): the embedded engine with 50,000 generated
// schedules loaded by `rebuild`, then 2,000 mixed queries one at a time (latency), then the same
// queries with CONCURRENCY in flight (throughput). Printed, never asserted.
//   node --import tsx test/bench/search.bench.ts
// Query mix: school short forms, member names and nicknames, two syllables out of a word, initial
// consonants, two-word queries; every query asks for the first page of 20, as the edge does.
// Typo queries are measured apart: TYPO_QUERIES words one jamo off (a similar vowel, a
// doubled consonant, a final consonant missing or extra), from their own generator so the mix
// above stays the same; their p99, and that of everything together, against TYPO_TARGET_P99_MS.
// Queries typed as fans type (layout slips, shorthand, particles, spacing, ignored words,
// keystroke typos, long-word typos, half-typed words, Latin word order) are measured apart too,
// FAN_TYPING_QUERIES of each kind from test/bench/fan-typing-queries.ts, p99 per kind, and all of them
// together against 15 ms and against twice the ordinary queries' p99 of the same run; then the
// typo and a third of the fan-typed queries side by side with and without early starts,
// alternating per query.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { connectDatabase } from '../../shared/db/database.ts';
import { seededRandom } from '../../shared/db/demo-data.ts';
import { migrate } from '../../shared/db/migrate.ts';
import { choseong } from '../../shared/korean/jamo.ts';
import { createLogger } from '../../shared/runtime/logger.ts';
import { EmbeddedSearchIndex, SEARCH_TOTAL_CAP } from '../../shared/search/embedded.ts';
import { storedSynonyms } from '../../shared/search/synonym-source.ts';
import { CachedSearchIndex } from '../../shared/search/result-cache.ts';
import { createSearchIndex } from '../../shared/search/create-search-index.ts';
import { LatinVocabulary, latinWordsOf } from '../../shared/korean/latin-vocabulary.ts';
import { normalizeText } from '../../shared/korean/normalize.ts';
import type { SearchDocument } from '../../shared/search/search-index.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { fanTypingQueries, type FanTypingKind } from './fan-typing-queries.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 50_000);
const QUERIES = 2_000;
const WARMUP = 200;
const CONCURRENCY = 8;
const PAGE = { offset: 0, limit: 20 };
const TARGET_P99_MS = 15;
const TYPO_QUERIES = 500;
/** The aim for the engine's search p99 at 50,000 documents. */
const TYPO_TARGET_P99_MS = 15;
/**
 * Fan-typed queries of each kind. A kind's p99 of 200 was its second slowest query, a single
 * query's bad luck; of 600 it is the sixth slowest, the same percentile from three times the
 * samples. It does not hide a slow host: the whole run is slower then (typo p50 6.4 → 9.2 ms in
 * two runs ten minutes apart).
 */
const FAN_TYPING_QUERIES = 600;
/** Fan-typed queries run before the measured ones (as many as before FAN_TYPING_QUERIES grew). */
const FAN_TYPING_WARMUP = 200;

// Deterministic data: the same documents and queries on every run.
const random = seededRandom(0x5eed);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

const MEMBERS = [
  ['이새롬', '새롬', '쎄롬', 'Lee Saerom'],
  ['송하영', '하영', '쏭하영', 'Song Hayoung'],
  ['장규리', '규리', '뀨리', 'Jang Gyuri'],
  ['박지원', '지원', '찌워니', 'Park Jiwon'],
  ['노지선', '지선', '지농', 'Roh Jisun'],
  ['이서연', '서연', '서연이', 'Lee Seoyeon'],
  ['이채영', '채영', '챙', 'Lee Chaeyoung'],
  ['이나경', '나경', '낙경', 'Lee Nagyung'],
  ['백지헌', '지헌', '막내온탑', 'Baek Jiheon'],
] as const;
const SCHOOLS: [string, ...string[]][] = [
  ['한국외국어대학교', '한국외대', '외대', 'HUFS'],
  ['성균관대학교', '성균관대', '성대', 'SKKU'],
  ['고려대학교', '고려대', '고대'],
  ['연세대학교', '연세대', '연대'],
  ['서울대학교', '서울대', 'SNU'],
  ['이화여자대학교', '이화여대', '이대'],
  ['중앙대학교', '중앙대', '중대'],
  ['경희대학교', '경희대'],
  ['한양대학교', '한양대'],
  ['건국대학교', '건국대', '건대'],
  ['홍익대학교', '홍익대', '홍대'],
  ['숙명여자대학교', '숙명여대', '숙대'],
  ['단국대학교', '단국대', '단대'],
  ['한국과학기술원', '카이스트', 'KAIST'],
  ['포항공과대학교', '포스텍', '포공', 'POSTECH'],
  ['한국예술종합학교', '한예종'],
  ['부산대학교', '부산대'],
  ['경북대학교', '경북대'],
  ['전남대학교', '전남대'],
  ['가천대학교', '가천대'],
];
const CHANNELS = ['SBS', 'KBS2', 'MBC', 'Mnet', 'SBS M', 'JTBC', 'tvN', '유튜브 공식 채널', '네이버 나우', 'MBC FM4U', 'KBS Cool FM', '공식 트위터', '위버스'];
const EVENTS = ['콘서트', '팬사인회', '쇼케이스', '팬미팅', '영상통화 팬사인회', '게릴라 콘서트', '팝업스토어', '생일 카페', '시상식', '페스티벌', '공개방송', '음원 발매', '뮤직비디오 공개', '화보 촬영', '라디오 출연', '예능 출연', '브이라이브', '자선 행사'];
const SHOWS = ['인기가요', '뮤직뱅크', '쇼! 음악중심', '엠카운트다운', '더 쇼', '쇼챔피언', '아는 형님', '놀라운 토요일', '주간 아이돌', '컬투쇼', '두시탈출 컬투쇼', '정오의 희망곡'];
const SONGS = ['DM', 'WE GO', 'Talk & Talk', 'Stay This Way', '우리 사이', '유리구두', 'LOVE BOMB', 'Feel Good', '환상동화', '하늘정원'];
const VENUES = ['올림픽공원 핸드볼경기장', '잠실실내체육관', '부산 벡스코', '고척스카이돔', 'KBS 아레나', '블루스퀘어 마스터카드홀', '대구 엑스코', '광주 김대중컨벤션센터', '대학 노천극장', '여의도 더현대'];

const GROUP = ['프로미스나인', 'fromis_9'];

export function generateDocument(scheduleId: number): SearchDocument {
  const kind = random();
  const members = MEMBERS.filter(() => random() < 0.35);
  const memberNames = members.flatMap((member) => [...member]);
  const date = new Date(Date.UTC(2018, 0, 1) + Math.floor(random() * 9 * 365) * 86_400_000).toISOString().slice(0, 10);
  const venue = pick(VENUES);
  let title: string;
  let sourceNames: string[];
  let categoryId: number;
  if (kind < 0.3) {
    const school = pick(SCHOOLS);
    title = `${school[0]} ${pick(['대동제', '봄축제', '가을축제', '축제'])} 축하공연`;
    sourceNames = [...school];
    categoryId = 11;
  } else if (kind < 0.6) {
    const show = pick(SHOWS);
    title = `[${show}] ${pick(GROUP)} - ${pick(SONGS)} ${pick(['무대', '컴백 무대', '스페셜 무대', '출연'])}`;
    sourceNames = [pick(CHANNELS)];
    categoryId = 2;
  } else if (kind < 0.85) {
    title = `${pick(GROUP)} ${pick(EVENTS)}${random() < 0.3 ? ` in ${pick(['서울', '부산', '대구', '광주', 'Tokyo', 'Osaka'])}` : ''}`;
    sourceNames = [pick(CHANNELS)];
    categoryId = 3;
  } else {
    const member = pick(MEMBERS);
    title = `${member[0]} ${pick(EVENTS)}`;
    sourceNames = [pick(CHANNELS)];
    categoryId = 4;
  }
  const description =
    random() < 0.7
      ? `${venue}에서 열리는 일정입니다. ${pick(EVENTS)} 관련 공지는 공식 채널을 확인해 주세요. 입장은 시작 30분 전부터 가능합니다.`
      : '';
  // Events have their venue (no extra draw from the generator: the data set stays the same).
  const venueNames = categoryId === 11 ? [venue] : [];
  return { scheduleId, title, description, categoryId, categoryName: String(categoryId), date, sourceNames, memberNames, venueNames };
}

// ---- typo queries ---------------------------------------------------------------------------------

const typoRandom = seededRandom(0x7e90);
const typoPick = <T>(values: readonly T[]): T => values[Math.floor(typoRandom() * values.length)]!;

// Vowel indices with a similar vowel (ㅐ/ㅔ, ㅓ/ㅕ, ㅗ/ㅛ, ㅜ/ㅠ, ㅏ/ㅑ, ㅚ/ㅙ, ㅢ/ㅣ); initials with a doubled or plain twin.
const SIMILAR_VOWEL: Record<number, number> = { 0: 2, 2: 0, 1: 5, 5: 1, 3: 7, 7: 3, 4: 6, 6: 4, 8: 12, 12: 8, 13: 17, 17: 13, 11: 10, 10: 11, 19: 20, 20: 19 };
const TWIN_INITIAL: Record<number, number> = { 0: 1, 1: 0, 3: 4, 4: 3, 7: 8, 8: 7, 9: 10, 10: 9, 12: 13, 13: 12 };

/** The word with one syllable one jamo off; undefined when the picked syllable allows no such slip. */
function oneJamoOff(word: string): string | undefined {
  const chars = [...word];
  const at = Math.floor(typoRandom() * chars.length);
  const code = chars[at]!.charCodeAt(0) - 0xac00;
  if (code < 0 || code > 11171) return undefined;
  let initial = Math.floor(code / 588);
  let vowel = Math.floor(code / 28) % 21;
  let final = code % 28;
  const slip = typoPick(['vowel', 'double', 'final'] as const);
  if (slip === 'vowel' && SIMILAR_VOWEL[vowel] !== undefined) vowel = SIMILAR_VOWEL[vowel]!;
  else if (slip === 'double' && TWIN_INITIAL[initial] !== undefined) initial = TWIN_INITIAL[initial]!;
  else if (slip === 'final') final = final === 0 ? typoPick([4, 8, 21]) : 0;
  else return undefined;
  chars[at] = String.fromCharCode(0xac00 + (initial * 21 + vowel) * 28 + final);
  return chars.join('');
}

const TYPO_SOURCES = [
  ...EVENTS.filter((event) => !event.includes(' ')),
  ...SHOWS.filter((show) => /^[가-힣]+$/.test(show)),
  ...VENUES.flatMap((venue) => venue.split(' ')).filter((word) => /^[가-힣]{2,}$/.test(word)),
  ...SCHOOLS.map((school) => school[0]),
  ...MEMBERS.map((member) => member[0]),
  '대동제',
  '축하공연',
];

/** A word of the data one jamo off, alone or after a correct word. */
export function generateTypoQuery(): string {
  for (;;) {
    const word = typoPick(TYPO_SOURCES);
    const typo = oneJamoOff(word);
    if (typo === undefined || typo === word) continue;
    return typoRandom() < 0.25 ? `${typoPick(GROUP)} ${typo}` : typo;
  }
}

export type QueryKind = 'school' | 'member' | 'syllables' | 'choseong' | 'multi-word';

function twoSyllablesOf(word: string): string {
  const chars = [...word.replace(/[^가-힣]/g, '')];
  if (chars.length < 2) return '콘서';
  const start = Math.floor(random() * (chars.length - 1));
  return chars[start]! + chars[start + 1]!;
}

export function generateQuery(): { kind: QueryKind; text: string } {
  const roll = random();
  if (roll < 0.25) return { kind: 'school', text: pick(pick(SCHOOLS).slice(1)) };
  if (roll < 0.5) return { kind: 'member', text: pick(pick(MEMBERS).slice(0, 3)) };
  if (roll < 0.7) return { kind: 'syllables', text: twoSyllablesOf(pick([...EVENTS, ...SHOWS, ...VENUES, ...SCHOOLS.map((s) => s[0])])) };
  if (roll < 0.85) return { kind: 'choseong', text: choseong(pick([GROUP[0]!, ...MEMBERS.map((m) => m[0]), ...EVENTS.filter((e) => !e.includes(' '))])) };
  const pairs: (() => string)[] = [
    () => `${GROUP[0]} ${pick(EVENTS.filter((e) => !e.includes(' ')))}`,
    () => `${pick(pick(SCHOOLS).slice(1))} 축제`,
    () => `${pick(MEMBERS)[1]} ${pick(['라디오', '예능', '팬사인회', '생일'])}`,
    () => `${pick(SHOWS.filter((s) => !s.includes(' ')))} 무대`,
  ];
  return { kind: 'multi-word', text: pick(pairs)() };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const ms = (value: number) => `${value.toFixed(2)} ms`;
function summary(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `p50 ${ms(percentile(sorted, 50))}  p95 ${ms(percentile(sorted, 95))}  p99 ${ms(percentile(sorted, 99))}  max ${ms(sorted.at(-1)!)}`;
}

async function main(): Promise<void> {
  const logger = createLogger('warn');
  const testDatabase = await createTestDatabase();
  const database = connectDatabase(testDatabase.url, logger, CONCURRENCY + 2);
  try {
    await migrate(database.db, logger);
    // Statements sent, counted per fan-typed kind: a query's cost is mostly its round trips. A
    // prepared statement runs on a connection taken for it (executePrepared): one statement each.
    let statements = 0;
    const counted = database.db as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ['multi', 'one', 'oneOrNone', 'any', 'none', 'manyOrNone', 'connect']) {
      const original = counted[method]!.bind(database.db);
      counted[method] = (...args: unknown[]) => {
        statements++;
        return original(...args);
      };
    }
    // The titles' Latin words as the analysis threads hold them (the benchmark writes no schedules rows for them to read).
    const titleWords = new LatinVocabulary();
    const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger, nearWords: async (words) => words.map((word) => titleWords.lookup(word)) });
    const documents = Array.from({ length: DOCUMENTS }, (_, i) => generateDocument(i + 1));
    for (const document of documents) for (const word of latinWordsOf(normalizeText(document.title))) titleWords.add(word);
    let started = performance.now();
    await index.rebuild(documents);
    await database.db.none('VACUUM ANALYZE search_documents');
    console.log(`rebuild: ${DOCUMENTS} documents in ${((performance.now() - started) / 1000).toFixed(1)} s (then VACUUM ANALYZE)`);

    const queries = Array.from({ length: QUERIES }, generateQuery);
    for (const query of queries.slice(0, WARMUP)) await index.search(query.text, PAGE);

    const latencies: number[] = [];
    const byKind = new Map<QueryKind, number[]>();
    const slowest: { ms: number; text: string; total: number }[] = [];
    started = performance.now();
    for (const query of queries) {
      const t0 = performance.now();
      const page = await index.search(query.text, PAGE);
      const elapsed = performance.now() - t0;
      latencies.push(elapsed);
      (byKind.get(query.kind) ?? byKind.set(query.kind, []).get(query.kind)!).push(elapsed);
      slowest.push({ ms: elapsed, text: query.text, total: page.total });
    }
    const serialSeconds = (performance.now() - started) / 1000;
    const capped = slowest.filter((q) => q.total === SEARCH_TOTAL_CAP).length;

    let next = 0;
    started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < queries.length) await index.search(queries[next++]!.text, PAGE);
      }),
    );
    const concurrentSeconds = (performance.now() - started) / 1000;

    console.log(`one at a time: ${QUERIES} queries  ${summary(latencies)}  ${(QUERIES / serialSeconds).toFixed(0)} queries/s; ${capped} matched more than ${SEARCH_TOTAL_CAP} (total capped, ranked by levels)`);
    for (const [kind, values] of byKind) console.log(`  ${kind.padEnd(10)} ×${String(values.length).padStart(4)}  ${summary(values)}`);
    console.log(`${CONCURRENCY} in flight: ${(QUERIES / concurrentSeconds).toFixed(0)} queries/s`);
    console.log('slowest:', slowest.sort((a, b) => b.ms - a.ms).slice(0, 8).map((q) => `${q.text} (${ms(q.ms)}, ${q.total} hits)`).join('; '));
    const p99 = percentile([...latencies].sort((a, b) => a - b), 99);
    console.log(`engine alone, target p99 < ${TARGET_P99_MS} ms: ${p99 < TARGET_P99_MS ? 'met' : 'MISSED'} (${ms(p99)})`);

    // Typo queries, apart: the exact search finds nothing (or only weak matches), then the typo search runs.
    const typoQueries = Array.from({ length: TYPO_QUERIES }, generateTypoQuery);
    for (const query of typoQueries.slice(0, 50)) await index.search(query, PAGE);
    const typoLatencies: number[] = [];
    let typoFound = 0;
    for (const query of typoQueries) {
      const t0 = performance.now();
      const page = await index.search(query, PAGE);
      const elapsed = performance.now() - t0;
      typoLatencies.push(elapsed);
      if (page.total > 0) typoFound++;
      slowest.push({ ms: elapsed, text: query, total: page.total });
    }
    const typoP99 = percentile([...typoLatencies].sort((a, b) => a - b), 99);
    const allP99 = percentile([...latencies, ...typoLatencies].sort((a, b) => a - b), 99);
    console.log(`typo queries: ${TYPO_QUERIES} (e.g. ${typoQueries.slice(0, 4).join(', ')}), ${typoFound} with hits  ${summary(typoLatencies)}`);
    console.log(`typo queries p99 ${ms(typoP99)}; all ${QUERIES + TYPO_QUERIES} queries p99 ${ms(allP99)} vs ${ms(p99)} without typos; aim p99 < ${TYPO_TARGET_P99_MS} ms: ${allP99 < TYPO_TARGET_P99_MS ? 'met' : 'MISSED'}`);
    console.log('slowest with typos:', [...slowest].sort((a, b) => b.ms - a.ms).slice(0, 5).map((q) => `${q.text} (${ms(q.ms)}, ${q.total} hits)`).join('; '));

    // Typed as fans type, each kind apart.
    const fanQueries = fanTypingQueries(
      {
        hangulWords: [...MEMBERS.flatMap((member) => member.slice(0, 3)), ...EVENTS.filter((event) => /^[가-힣]{2,}$/.test(event)), ...SCHOOLS.flatMap((school) => school.filter((name) => /^[가-힣]{2,}$/.test(name))), GROUP[0]!],
        longWords: [...SCHOOLS.map((school) => school[0]).filter((name) => name.length >= 5), '프로미스나인', '엠카운트다운', '두시탈출', '블루스퀘어'].filter((word) => word.length >= 5),
        compoundWords: ['화보', '환상동화', '희망곡', '광주', '하늘정원', '이화여자대학교', '성균관대학교', '한국과학기술원', '위버스'],
        pairs: [[GROUP[0]!, '콘서트'], [GROUP[0]!, '팬사인회'], ['이채영', '라디오'], ['송하영', '예능'], ['인기가요', '무대'], ['뮤직뱅크', '컴백'], [GROUP[0]!, '팬미팅'], ['대동제', '축하공연']],
        romanised: MEMBERS.map((member) => member[3]),
        shorthand: ['팬싸', '쇼케', '생카', '뮤비', '팬밋', '영통팬싸', '음방'],
      },
      FAN_TYPING_QUERIES,
    );
    // The kinds take turns (a seeded shuffle): in the order generated, each kind ran in a window of
    // two or three seconds of its own, and a slow spell of this shared host fell on one kind's p99.
    const shuffle = seededRandom(0x5eed);
    for (let i = fanQueries.length - 1; i > 0; i--) {
      const j = Math.floor(shuffle() * (i + 1));
      [fanQueries[i], fanQueries[j]] = [fanQueries[j]!, fanQueries[i]!];
    }
    for (const query of fanQueries.slice(0, FAN_TYPING_WARMUP)) await index.search(query.text, PAGE);
    const fanByKind = new Map<FanTypingKind, number[]>();
    const fanFound = new Map<FanTypingKind, number>();
    const fanStatements = new Map<FanTypingKind, number>();
    for (const query of fanQueries) {
      const before = statements;
      const t0 = performance.now();
      const page = await index.search(query.text, PAGE);
      const elapsed = performance.now() - t0;
      fanStatements.set(query.kind, (fanStatements.get(query.kind) ?? 0) + statements - before);
      (fanByKind.get(query.kind) ?? fanByKind.set(query.kind, []).get(query.kind)!).push(elapsed);
      if (page.total > 0) fanFound.set(query.kind, (fanFound.get(query.kind) ?? 0) + 1);
      slowest.push({ ms: elapsed, text: query.text, total: page.total });
    }
    console.log(`typed as fans type, ${FAN_TYPING_QUERIES} queries of each kind, aim p99 < ${TYPO_TARGET_P99_MS} ms:`);
    for (const [kind, values] of fanByKind) {
      const kindP99 = percentile([...values].sort((a, b) => a - b), 99);
      const example = fanQueries.find((query) => query.kind === kind)!.text;
      const perQuery = (fanStatements.get(kind) ?? 0) / values.length;
      console.log(`  ${kind.padEnd(15)} ×${String(values.length).padStart(4)}  ${summary(values)}  ${perQuery.toFixed(1)} statements a query, ${fanFound.get(kind) ?? 0} with hits (e.g. ${example}): ${kindP99 < TYPO_TARGET_P99_MS ? 'met' : 'MISSED'}`);
    }
    const fanAll = [...fanByKind.values()].flat();
    const fanP99 = percentile([...fanAll].sort((a, b) => a - b), 99);
    // The aim: all fan-typed queries together under 15 ms p99, and under twice the ordinary queries' p99 of this run.
    console.log(`  all fan-typed ×${fanAll.length}  ${summary(fanAll)}; aim p99 < ${TYPO_TARGET_P99_MS} ms: ${fanP99 < TYPO_TARGET_P99_MS ? 'met' : 'MISSED'}; × ${(fanP99 / p99).toFixed(2)} the ordinary p99 (${ms(p99)}), aim < 2: ${fanP99 < 2 * p99 ? 'met' : 'MISSED'}`);
    console.log('slowest fan-typed:', [...slowest].filter((q) => fanQueries.some((f) => f.text === q.text)).sort((a, b) => b.ms - a.ms).slice(0, 5).map((q) => `${q.text} (${ms(q.ms)}, ${q.total} hits)`).join('; '));

    // Early starts (shared/search/fan-typing.ts) side by side: the typo and fan-typed queries again,
    // each sent in turn (in random order) to the index and to one over the same rows that sends
    // every search only after the one before it has answered.
    const inTurn = new EmbeddedSearchIndex(database.db, undefined, storedSynonyms(database.db));
    inTurn.startEarly = false;
    const sideBySide = new Map<string, [number[], number[]]>();
    for (const query of [...typoQueries.map((text) => ({ kind: 'typo', text })), ...fanQueries.slice(0, fanQueries.length / 3)]) {
      for (const engine of random() < 0.5 ? [0, 1] : [1, 0]) {
        const t0 = performance.now();
        await (engine === 0 ? inTurn : index).search(query.text, PAGE);
        const lists = sideBySide.get(query.kind) ?? sideBySide.set(query.kind, [[], []]).get(query.kind)!;
        lists[engine]!.push(performance.now() - t0);
      }
    }
    console.log('early starts, side by side (each query in turn without, then with; mean and p99):');
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    for (const [kind, [without, withEarly]] of sideBySide) {
      const [p99Without, p99With] = [percentile(sorted(without), 99), percentile(sorted(withEarly), 99)];
      console.log(`  ${kind.padEnd(15)} mean ${ms(mean(without))} → ${ms(mean(withEarly))} (×${(mean(withEarly) / mean(without)).toFixed(2)})  p99 ${ms(p99Without)} → ${ms(p99With)} (×${(p99With / p99Without).toFixed(2)})`);
    }

    // As the service runs it: the engine behind the result cache (shared/search/result-cache.ts).
    const cachedIndex = new CachedSearchIndex(index);
    const cachedLatencies: number[] = [];
    for (const query of queries) {
      const t0 = performance.now();
      await cachedIndex.search(query.text, PAGE);
      cachedLatencies.push(performance.now() - t0);
    }
    const distinct = new Set(queries.map((q) => q.text)).size;
    const cachedP99 = percentile([...cachedLatencies].sort((a, b) => a - b), 99);
    console.log(`behind the result cache (${distinct} distinct of ${QUERIES} queries, cold cache): ${summary(cachedLatencies)}; target p99 < ${TARGET_P99_MS} ms: ${cachedP99 < TARGET_P99_MS ? 'met' : 'MISSED'}`);
    await index.close();
  } finally {
    await database.close();
    await testDatabase.drop();
  }
}

// Run when executed; the generators can be imported (to EXPLAIN a query on the same data).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
