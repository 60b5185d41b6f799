// Suggestion index benchmark: 50,000 schedule titles + 5,000 saved searches, then 20,000
// mixed queries (prefixes, half-typed syllables, choseong, word starts, infixes, Latin,
// misses, metacharacters and 1,000-character input). Run:
//   node --import tsx test/bench/suggestions-index.bench.ts
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { combineCharacter, disassembleCompleteCharacter, getChoseong } from 'es-hangul';
import { seededRandom } from '../../shared/db/demo-data.ts';
import { KoreanAnalyzer, SuggestionIndex } from '../../shared/korean/index.ts';
import type { SuggestionCandidate } from '../../shared/korean/index.ts';

const TITLE_COUNT = 50_000;
const SAVED_SEARCH_COUNT = 5_000;
const QUERY_COUNT = 20_000;
const SUGGESTION_LIMIT = 10;

// Deterministic PRNG (mulberry32) so runs are comparable.
const random = seededRandom(0x5eed);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

const members = [
  ['이새롬', 'Saerom'], ['송하영', 'Hayoung'], ['장규리', 'Gyuri'], ['박지원', 'Jiwon'], ['노지선', 'Jisun'],
  ['이서연', 'Seoyeon'], ['이채영', 'Chaeyoung'], ['이나경', 'Nagyung'], ['백지헌', 'Jiheon'],
] as const;
const groupNames = ['프로미스나인', '프로미스나인', '프로미스나인', 'fromis_9', '프나'];
const categories = ['[음악방송]', '[라디오]', '[예능]', '[공연]', '[팬사인회]', '[생일]', '[발매]', '[방송]', '[행사]', '[유튜브]', '[위버스]', ''];
const shows = [
  '뮤직뱅크', '쇼! 음악중심', '인기가요', '엠카운트다운', '더 쇼', '쇼챔피언', '아이돌 라디오', '주간아이돌',
  '아는 형님', '런닝맨', '놀라운 토요일', '두시탈출 컬투쇼', '정오의 희망곡', '볼륨을 높여요', '문명특급', '놀면 뭐하니',
];
const cities = ['서울', '부산', '대구', '광주', '인천', '대전', '도쿄', '오사카', '방콕', '타이베이', 'LA', '뉴욕'];
const venues = ['KSPO DOME', '올림픽홀', '잠실실내체육관', '블루스퀘어', '예스24 라이브홀', '고려대 화정체육관', '한국외대 축제', '연세대 아카라카', '성균관대 대동제'];
const albums = ['From.9', 'My Little Society', 'Midnight Guest', 'Unlock My World', 'Supersonic', 'From Our 20\'s', 'Talk & Talk', 'DM', 'Feel Good'];
const tours = ['FLOVER ISLAND', 'FROM NOW.', 'Present', 'LOVE FROMIS', '9 WAY TICKET'];
const events = ['팬사인회', '영상통화 팬사인회', '팬미팅', '쇼케이스', '라이브 방송', '화보 촬영', '광고 촬영', '시상식', '공항 출국', '생일 카페', '축제 무대', '리허설'];
const stores = ['애플뮤직', '신나라레코드', '사운드웨이브', '메이크스타', '위드뮤', '에버라인', '뮤직코리아'];

function date(): string {
  return `${between(2018, 2025)}.${String(between(1, 12)).padStart(2, '0')}.${String(between(1, 28)).padStart(2, '0')}`;
}

function title(): string {
  const [member, memberEn] = pick(members);
  const group = pick(groupNames);
  switch (between(0, 9)) {
    case 0: return `${pick(categories)} ${group} ${pick(shows)} 출연 (${date()})`.trim();
    case 1: return `${group} '${pick(albums)}' 컴백 쇼케이스 ${date()}`;
    case 2: return `${member} ${pick(shows)} 출연 ${between(1, 400)}회`;
    case 3: return `${member} 생일 🎂 ${pick(['생일 카페', '생일 라이브', '축하 이벤트'])} ${date()}`;
    case 4: return `${group} ${between(2019, 2025)} 콘서트 '${pick(tours)}' ${pick(cities)} ${between(1, 3)}일차`;
    case 5: return `${group} ${pick(events)} (${pick(stores)}) ${date()}`;
    case 6: return `${member}·${pick(members)[0]} ${pick(shows)} 게스트 #${between(1, 999)}`;
    case 7: return `${group} ${pick(venues)} 공연 ${date()}`;
    case 8: return `${memberEn} ${pick(['Weverse LIVE', 'Instagram Live', 'fansign', 'radio guest'])} ${date()}`;
    default: return `${group}${pick(['콘서트', '팬미팅', '음원발매', '컴백'])} ${pick(cities)} ${between(1, 9999)}`;
  }
}

function savedSearch(): string {
  const [member, memberEn] = pick(members);
  switch (between(0, 6)) {
    case 0: return member;
    case 1: return `${member} ${pick(['생일', '라디오', '예능', '직캠', '팬사인회'])}`;
    case 2: return `${pick(groupNames)} ${pick(['콘서트', '팬미팅', '컴백', '음방', '축제'])}`;
    case 3: return pick(shows);
    case 4: return memberEn.toLowerCase();
    case 5: return `${pick(cities)} ${pick(['콘서트', '팬사인회', '공연'])}`;
    default: return `${pick(venues)}`;
  }
}

const now = Date.UTC(2025, 5, 1);
const titles: SuggestionCandidate[] = Array.from({ length: TITLE_COUNT }, () => ({
  text: title(),
  popularity: Math.floor(1000 / between(1, 1000)),
  lastUsedAt: now - between(0, 3 * 365) * 86_400_000,
}));
const savedSearches: SuggestionCandidate[] = Array.from({ length: SAVED_SEARCH_COUNT }, () => ({
  text: savedSearch(),
  popularity: between(1, 500),
  lastUsedAt: now - between(0, 90) * 86_400_000,
}));
const analyzer = new KoreanAnalyzer([
  ...members.flatMap(([ko, en]) => [{ word: ko, tag: 'NNP' }, { word: en, tag: 'SL' }]),
  ...['프로미스나인', '프나', 'fromis_9', '콘서트', '팬미팅', '음원발매', '컴백', '쇼케이스', '팬사인회', '생일', '출연'].map((word) => ({ word })),
  ...cities.map((word) => ({ word, tag: 'NNP' })),
]);

/** `프로미` → `프롬`: the next syllable's initial typed as the final of the current one. */
function halfTyped(text: string): string {
  const chars = [...text];
  const cut = between(1, Math.min(chars.length - 1, 6));
  const last = chars[cut - 1]!;
  const next = chars[cut];
  const parts = disassembleCompleteCharacter(last);
  const nextParts = next ? disassembleCompleteCharacter(next) : undefined;
  if (!parts || parts.jongseong !== '' || !nextParts) return chars.slice(0, cut).join('');
  try {
    return chars.slice(0, cut - 1).join('') + combineCharacter(parts.choseong, parts.jungseong, nextParts.choseong);
  } catch {
    return chars.slice(0, cut).join('') + nextParts.choseong;
  }
}

function query(): string {
  const source = pick(random() < 0.8 ? titles : savedSearches).text;
  const chars = [...source];
  const words = source.split(' ');
  const roll = random();
  if (roll < 0.3) return chars.slice(0, between(1, 8)).join('');
  if (roll < 0.45) return halfTyped(source);
  if (roll < 0.6) return getChoseong(words.slice(0, between(1, 2)).join('')).slice(0, between(1, 6)) || 'ㅍㄹ';
  if (roll < 0.7) return [...pick(words)].slice(0, between(1, 4)).join('');
  if (roll < 0.8) {
    const start = between(0, Math.max(0, chars.length - 3));
    return chars.slice(start, start + between(2, 4)).join('');
  }
  if (roll < 0.85) return pick(['fromis', 'Chae', 'saer', 'KSPO', 'weverse', 'ji', 'From.9', 'talk']);
  if (roll < 0.9) return pick(['ㅍ', 'ㅇ', 'ㅅ', '프', '이', '콘', 'f', '2']);
  if (roll < 0.95) return Array.from({ length: between(2, 5) }, () => String.fromCharCode(0xac00 + between(0, 11171))).join('');
  if (roll < 0.99) return pick(['%', '_', "'; drop table schedules; --", '.*(', '\\', '[', '💖', '🎂 생일']);
  return Array.from({ length: 1000 }, () => pick(['가', '프', 'a', ' ', 'ㅋ', '콘', '서', '트'])).join('');
}

// The machine may be shared: CPU time is reported next to wall time.
function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

const queries = Array.from({ length: QUERY_COUNT }, query);

const buildStart = performance.now();
const buildCpu = process.cpuUsage();
const index = new SuggestionIndex([...titles, ...savedSearches], { analyzer });
const buildMs = performance.now() - buildStart;
const buildCpuMs = cpuMs(process.cpuUsage(buildCpu));

// Warm-up on a separate sample so the JIT is not timed as query latency.
for (let i = 0; i < 2_000; i++) index.suggest(query(), SUGGESTION_LIMIT);

const latencies = new Float64Array(queries.length);
let returned = 0;
let empty = 0;
const runStart = performance.now();
const runCpu = process.cpuUsage();
for (let i = 0; i < queries.length; i++) {
  const started = performance.now();
  const result = index.suggest(queries[i]!, SUGGESTION_LIMIT);
  latencies[i] = performance.now() - started;
  returned += result.length;
  if (result.length === 0) empty++;
}
const runMs = performance.now() - runStart;
const runCpuMs = cpuMs(process.cpuUsage(runCpu));
const slowest = Array.from(latencies.keys())
  .sort((a, b) => latencies[b]! - latencies[a]!)
  .slice(0, 3)
  .map((i) => {
    // Timed again: a one-off outlier is GC or the scheduler, a repeatable one is the index.
    let again = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      index.suggest(queries[i]!, SUGGESTION_LIMIT);
      again = Math.min(again, performance.now() - started);
    }
    return `${JSON.stringify(queries[i]!.slice(0, 12))} ${(latencies[i]! * 1000).toFixed(0)} µs (again ${(again * 1000).toFixed(0)} µs)`;
  });
latencies.sort();

const addStart = performance.now();
const addCpu = process.cpuUsage();
for (let i = 0; i < 1_000; i++) index.add({ text: i % 2 ? title() : savedSearch(), popularity: between(1, 50), lastUsedAt: now });
const addMs = performance.now() - addStart;
const addCpuMs = cpuMs(process.cpuUsage(addCpu));

const fmt = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
console.log(`candidates: ${TITLE_COUNT + SAVED_SEARCH_COUNT} given, ${index.size} distinct after merging`);
console.log(`build: ${buildMs.toFixed(0)} ms wall, ${buildCpuMs.toFixed(0)} ms CPU; heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`);
console.log(
  `queries: ${queries.length} in ${runMs.toFixed(0)} ms wall (${runCpuMs.toFixed(0)} ms CPU) = ${Math.round(queries.length / (runMs / 1000))} queries/s on one core`,
);
console.log(`latency: p50 ${fmt(percentile(latencies, 50))}, p90 ${fmt(percentile(latencies, 90))}, p99 ${fmt(percentile(latencies, 99))}, max ${fmt(latencies[latencies.length - 1]!)}`);
console.log(`slowest: ${slowest.join(', ')}`);
console.log(`results: ${(returned / queries.length).toFixed(1)} suggestions a query on average, ${empty} queries with none`);
console.log(`add: 1000 incremental adds in ${addMs.toFixed(0)} ms wall, ${addCpuMs.toFixed(0)} ms CPU (${fmt(addMs / 1000)} each)`);
console.log(`load average (1 min): ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores`);
