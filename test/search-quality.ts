// The search quality table (issue 15): queries a fan would type, with the schedules of the demo
// data set (shared/db/demo-data.ts) each should find in the first five results. Run against both
// engines by the contract suite (test/search-contract.ts), which prints recall@5 and fails below
// MIN_RECALL_AT_5. The demo rows are written as the seed writes them (members, venues, events)
// and turned into search documents by the service's own query (shared/search/documents.ts).
import type { Db } from '../shared/db/database.ts';
import { demoDataSet, DEMO_MEMBERS } from '../shared/db/demo-data.ts';
import { upsertVenue } from '../shared/db/repositories/venues.ts';
import { loadAllSearchDocuments } from '../shared/search/documents.ts';
import type { SearchDocument } from '../shared/search/search-index.ts';

export const DEMO_YEAR = 2026;
export const MIN_RECALL_AT_5 = 0.95;
export const TOP = 5;

export type QualityKind = 'typo' | 'venue' | 'nickname' | 'school' | 'partial title' | 'mixed' | 'choseong' | 'exact title';

export interface QualityCase {
  query: string;
  kind: QualityKind;
  /** Titles that should come up: recall counts how many of min(TOP, their number) are in the first TOP results. */
  expect: (title: string) => boolean;
  /** The first result must be this title (an exact title query keeps its schedule first). */
  first?: string;
}

const titled = (...titles: string[]) => (title: string) => titles.includes(title);
const containing = (...parts: string[]) => (title: string) => parts.every((part) => title.includes(part));

const FESTIVALS = {
  konkuk: '건국대학교 봄 대동제 축하공연',
  hufs: '한국외국어대학교 서울캠퍼스 대동제 축하공연',
  skku: '성균관대학교 봄 축제 무대',
  korea: '고려대학교 대동제 축하공연',
  yonsei: '연세대학교 봄 대동제 축하공연',
  inha: '인하대학교 가을 축제 축하공연',
  hanyang: '한양대학교 가을 대동제 축하공연',
  khu: '경희대학교 서울캠퍼스 가을 축제',
  cau: '중앙대학교 가을 축제 축하무대',
  pusan: '부산대학교 대동제 축하공연',
};
const OPEN_AIR_THEATRES = titled(FESTIVALS.konkuk, FESTIVALS.yonsei, FESTIVALS.hanyang, FESTIVALS.khu);

/** Titles of the schedules a member takes part in. */
const withMember = (name: string) => {
  const titles = new Set(demoDataSet(DEMO_YEAR).schedules.filter((schedule) => schedule.members.includes(name)).map((schedule) => schedule.title));
  return (title: string) => titles.has(title);
};

export const QUALITY_TABLE: QualityCase[] = [
  // Typos: one jamo off (similar vowel, doubled consonant, missing or extra final consonant).
  { query: '대동재', kind: 'typo', expect: containing('대동제') },
  { query: '축하공언', kind: 'typo', expect: containing('축하공연') },
  { query: '노천극자', kind: 'typo', expect: OPEN_AIR_THEATRES },
  { query: '펜사인회', kind: 'typo', expect: containing('팬사인회') },
  { query: '쑈케이스', kind: 'typo', expect: containing('쇼케이스') },
  { query: '인스타그렘', kind: 'typo', expect: containing('인스타그램') },
  { query: '루미렌드', kind: 'typo', expect: containing('루미랜드') },
  { query: '나치반', kind: 'typo', expect: containing('나침반') },
  { query: '가을 정류자', kind: 'typo', expect: containing('가을 정류장') },
  { query: '펜미팅', kind: 'typo', expect: containing('팬미팅') },
  { query: '패스티벌', kind: 'typo', expect: containing('페스티벌') },
  { query: '생일 카패', kind: 'typo', expect: containing('생일 기념 카페') },
  { query: '금잔디광자', kind: 'typo', expect: titled(FESTIVALS.skku) },
  { query: '녹찌운동장', kind: 'typo', expect: titled(FESTIVALS.korea) },
  { query: '쳥룡광장', kind: 'typo', expect: titled(FESTIVALS.cau) },
  { query: '가요대축재', kind: 'typo', expect: containing('가요대축제') },
  { query: '컴백 쑈케이스', kind: 'typo', expect: containing('컴백 쇼케이스') },
  { query: '강서야', kind: 'typo', expect: containing('강서아') },
  { query: '한양대 노천극짱', kind: 'typo', expect: titled(FESTIVALS.hanyang) },
  { query: '축재', kind: 'typo', expect: containing('축제') },
  { query: '루미네 펜미팅', kind: 'typo', expect: containing('루미네 팬미팅') },
  // Venues: name, address, road address.
  { query: '노천극장', kind: 'venue', expect: OPEN_AIR_THEATRES },
  { query: '금잔디광장', kind: 'venue', expect: titled(FESTIVALS.skku) },
  { query: '녹지운동장', kind: 'venue', expect: titled(FESTIVALS.korea) },
  { query: '넉넉한터', kind: 'venue', expect: titled(FESTIVALS.pusan) },
  { query: '청룡광장', kind: 'venue', expect: titled(FESTIVALS.cau) },
  { query: '왕십리로', kind: 'venue', expect: titled(FESTIVALS.hanyang) },
  { query: '광진구', kind: 'venue', expect: titled(FESTIVALS.konkuk) },
  { query: '이문동', kind: 'venue', expect: titled(FESTIVALS.hufs) },
  { query: '연세로 50', kind: 'venue', expect: titled(FESTIVALS.yonsei) },
  { query: '대운동장', kind: 'venue', expect: titled(FESTIVALS.hufs, FESTIVALS.inha) },
  { query: '미추홀구', kind: 'venue', expect: titled(FESTIVALS.inha) },
  { query: '서대문구 노천극장', kind: 'venue', expect: titled(FESTIVALS.yonsei) },
  // Nicknames and school short names.
  { query: '유나비', kind: 'nickname', expect: withMember('정유나') },
  { query: '꾀꼬리', kind: 'nickname', expect: withMember('강서아') },
  { query: '윤달요정', kind: 'nickname', expect: withMember('류채이') },
  { query: '린대장', kind: 'nickname', expect: withMember('윤하린') },
  { query: 'Baek Daon', kind: 'nickname', expect: withMember('백다온') },
  { query: '외대', kind: 'school', expect: titled(FESTIVALS.hufs) },
  { query: '건대', kind: 'school', expect: titled(FESTIVALS.konkuk) },
  { query: '중대', kind: 'school', expect: titled(FESTIVALS.cau) },
  { query: '성대 축제', kind: 'school', expect: titled(FESTIVALS.skku) },
  // Partial titles.
  { query: '루미랜드 EP.45', kind: 'partial title', expect: containing('EP.45'), first: '루미네 자체 예능 〈루미랜드〉 EP.45' },
  { query: '빛의 방향', kind: 'partial title', expect: containing('빛의 방향으로') },
  { query: '팝업스토어', kind: 'partial title', expect: containing('팝업스토어') },
  { query: '퀴즈쇼', kind: 'partial title', expect: containing('퀴즈쇼') },
  { query: '시즌 그리팅', kind: 'partial title', expect: containing('시즌 그리팅') },
  { query: '팬클럽 모집', kind: 'partial title', expect: containing('팬클럽', '모집') },
  { query: '가요대축제', kind: 'partial title', expect: containing('가요대축제') },
  // Mixed Hangul and Latin.
  { query: 'LUMINOUS 티켓', kind: 'mixed', expect: containing('LUMINOUS', '티켓') },
  { query: '나침반 MV', kind: 'mixed', expect: containing('나침반', 'MV') },
  { query: 'K-POP 페스티벌', kind: 'mixed', expect: containing('K-POP') },
  { query: 'OST 서아', kind: 'mixed', expect: containing('OST') },
  { query: 'Dance Practice 가을', kind: 'mixed', expect: containing('Dance Practice', '가을') },
  { query: '팬콘서트 DAY 2', kind: 'mixed', expect: containing('DAY 2'), first: '루미네 첫 번째 팬콘서트 〈LUMINOUS〉 DAY 2' },
  { query: 'Compass 발매', kind: 'mixed', expect: containing('Compass') },
  // Initial consonants.
  { query: 'ㄹㅁㄹㄷ', kind: 'choseong', expect: containing('루미랜드') },
  // A query that is a whole title ranks that schedule first.
  { query: '루미네 팬미팅 in 도쿄', kind: 'exact title', expect: titled('루미네 팬미팅 in 도쿄'), first: '루미네 팬미팅 in 도쿄' },
  { query: FESTIVALS.konkuk, kind: 'exact title', expect: titled(FESTIVALS.konkuk), first: FESTIVALS.konkuk },
  { query: '카운트다운 라이브', kind: 'exact title', expect: titled('카운트다운 라이브'), first: '카운트다운 라이브' },
  { query: '한강 뮤직 페스티벌', kind: 'exact title', expect: titled('한강 뮤직 페스티벌'), first: '한강 뮤직 페스티벌' },
  { query: `${DEMO_YEAR} 가요 대제전`, kind: 'exact title', expect: titled(`${DEMO_YEAR} 가요 대제전`), first: `${DEMO_YEAR} 가요 대제전` },
];

/**
 * Writes the demo data set's members and schedules (with their events and venues) into a
 * migrated, empty database, as the seed does minus images, and returns the search documents the
 * service builds from them.
 */
export async function storeDemoSchedules(db: Db): Promise<SearchDocument[]> {
  const data = demoDataSet(DEMO_YEAR);
  await db.tx('demo-schedules', async (tx) => {
    const memberIds = new Map<string, number>();
    for (const [order, member] of DEMO_MEMBERS.entries()) {
      const { id } = await tx.one<{ id: number }>('INSERT INTO members (name, name_en, birth_date, nicknames, sort_order) VALUES ($1, $2, $3, $4, $5) RETURNING id', [
        member.name,
        member.nameEn,
        member.birthDate,
        member.nicknames,
        order,
      ]);
      memberIds.set(member.name, id);
    }
    for (const schedule of data.schedules) {
      const { id } = await tx.one<{ id: number }>('INSERT INTO schedules (category_id, title, date, time, description, source_name) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id', [
        schedule.categoryId,
        schedule.title,
        schedule.date,
        schedule.time,
        schedule.description,
        schedule.source?.name ?? null,
      ]);
      const members = schedule.members.map((name) => memberIds.get(name)!);
      if (members.length > 0) await tx.none('INSERT INTO schedule_members (schedule_id, member_id) SELECT $1, unnest($2::int[])', [id, members]);
      if (schedule.event) {
        const venueId = await upsertVenue(tx, schedule.event.venue);
        await tx.none('INSERT INTO events (schedule_id, school_name, venue_id) VALUES ($1, $2, $3)', [id, schedule.event.schoolName, venueId]);
      }
    }
  });
  return loadAllSearchDocuments(db);
}

export interface QualityResult {
  recall: number;
  byKind: Map<QualityKind, { cases: number; recall: number }>;
  /** Cases that missed part of their expected hits, and exact titles that did not come first. */
  misses: string[];
}

/** Runs the table through `search` (first TOP ids of a query) and scores it. */
export async function measureQuality(documents: SearchDocument[], search: (query: string) => Promise<number[]>): Promise<QualityResult> {
  const titleOf = new Map(documents.map((document) => [document.scheduleId, document.title]));
  const byKind = new Map<QualityKind, { cases: number; recall: number }>();
  const misses: string[] = [];
  let sum = 0;
  for (const entry of QUALITY_TABLE) {
    const expected = documents.filter((document) => entry.expect(document.title)).length;
    if (expected === 0) throw new Error(`quality table: "${entry.query}" expects no schedule of the demo data`);
    const titles = (await search(entry.query)).slice(0, TOP).map((id) => titleOf.get(id) ?? `#${id}`);
    const recall = titles.filter((title) => entry.expect(title)).length / Math.min(TOP, expected);
    if (recall < 1) misses.push(`${entry.kind} "${entry.query}": recall ${recall.toFixed(2)}, got [${titles.join(' / ')}]`);
    if (entry.first !== undefined && titles[0] !== entry.first) misses.push(`${entry.kind} "${entry.query}": first should be "${entry.first}", got "${titles[0] ?? '(nothing)'}"`);
    sum += recall;
    const kind = byKind.get(entry.kind) ?? { cases: 0, recall: 0 };
    kind.cases++;
    kind.recall += recall;
    byKind.set(entry.kind, kind);
  }
  for (const kind of byKind.values()) kind.recall /= kind.cases;
  return { recall: sum / QUALITY_TABLE.length, byKind, misses };
}
