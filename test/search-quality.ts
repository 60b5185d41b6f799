// The search quality table: queries a fan would type, with the schedules of the demo
// data set (shared/db/demo-data.ts) each should find in the first five results. Run against both
// engines by the contract suite (test/search-contract.ts), which prints recall@5 and fails below
// MIN_RECALL_AT_5. The demo rows are written as the seed writes them (members, venues, events)
// and turned into search documents by the service's own query (shared/search/documents.ts).
import type { Db } from '../shared/db/database.ts';
import { demoDataSet, DEMO_MEMBERS } from '../shared/db/demo-data.ts';
import { upsertVenue } from '../shared/db/repositories/venues.ts';
import { loadAllSearchDocuments } from '../shared/search/documents.ts';
import type { SearchDocument } from '../shared/search/search-index.ts';
import { harvestTitleWords, KoreanAnalyzer } from '../shared/korean/analyzer.ts';
import { parseUserDictionary } from '../shared/korean/dictionary.ts';
import { normalizeText } from '../shared/korean/normalize.ts';

export const DEMO_YEAR = 2026;
export const MIN_RECALL_AT_5 = 0.95;
export const TOP = 5;

export type QualityKind =
  | 'typo'
  | 'venue'
  | 'nickname'
  | 'school'
  | 'partial title'
  | 'mixed'
  | 'choseong'
  | 'exact title'
  // How fans actually type.
  | 'layout slip'
  | 'shorthand'
  | 'particle'
  | 'spacing'
  | 'ignored word'
  | 'keystroke typo'
  | 'long word typo'
  | 'half-typed'
  | 'latin case/order'
  // What a query means (the query-understanding step).
  | 'english word'
  | 'hangul/latin'
  | 'loanword spelling'
  | 'decoration'
  | 'date'
  | 'several signals'
  // What the service knows beside the words (entities, the gazetteer, numbers).
  | 'place'
  | 'member role'
  | 'english date'
  | 'ordinal'
  | 'japanese'
  | 'latin slip'
  | 'period'
  | 'title translation'
  | 'tense spelling';

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
  // Keyboard left in English mode: Latin keys of the 2-set layout.
  { query: 'fnalsp', kind: 'layout slip', expect: containing('루미네') },
  { query: 'fnalfosem', kind: 'layout slip', expect: containing('루미랜드') },
  { query: 'dbsgkfls', kind: 'layout slip', expect: withMember('윤하린') },
  { query: 'rkdtjdk', kind: 'layout slip', expect: withMember('강서아') },
  { query: 'wjddbsk', kind: 'layout slip', expect: withMember('정유나') },
  { query: 'qorekdhs', kind: 'layout slip', expect: withMember('백다온') },
  { query: 'fbcodl', kind: 'layout slip', expect: withMember('류채이') },
  { query: 'skclaqks', kind: 'layout slip', expect: containing('나침반') },
  { query: 'vostkdlsghl', kind: 'layout slip', expect: containing('팬사인회') },
  { query: 'tjdrbsrhkseogkrry', kind: 'layout slip', expect: titled(FESTIVALS.skku) },
  { query: 'rkdmf wjdfbwkd', kind: 'layout slip', expect: containing('가을 정류장') },
  { query: 'vkqdjqtmxhdj', kind: 'layout slip', expect: containing('팝업스토어') },
  { query: 'vosalxld', kind: 'layout slip', expect: containing('팬미팅') },
  { query: 'eoehdwp', kind: 'layout slip', expect: containing('대동제') },
  { query: 'qlcdml qkdgiddmfh', kind: 'layout slip', expect: containing('빛의 방향으로') },
  { query: 'fnalsp vosalxld', kind: 'layout slip', expect: containing('루미네 팬미팅') },
  { query: 'ghkqh', kind: 'layout slip', expect: containing('[화보]') },
  { query: 'zkdnsxmekdns fkdlqm', kind: 'layout slip', expect: titled('카운트다운 라이브'), first: '카운트다운 라이브' },
  { query: 'tyzpdltm', kind: 'layout slip', expect: containing('쇼케이스') },
  { query: 'znlwmty', kind: 'layout slip', expect: containing('퀴즈쇼') },
  { query: 'dustpeo', kind: 'layout slip', expect: titled(FESTIVALS.yonsei) },
  // Fan shorthand (the shipped synonym list).
  { query: '뮤비', kind: 'shorthand', expect: containing('MV') },
  { query: '나침반 뮤비', kind: 'shorthand', expect: containing('나침반', 'MV') },
  { query: '가을 정류장 뮤비', kind: 'shorthand', expect: titled("루미네 '가을 정류장' MV"), first: "루미네 '가을 정류장' MV" },
  { query: '생카', kind: 'shorthand', expect: containing('생일 기념 카페') },
  { query: '강서아 생카', kind: 'shorthand', expect: titled('강서아 생일 기념 카페 이벤트'), first: '강서아 생일 기념 카페 이벤트' },
  { query: '유나 생카', kind: 'shorthand', expect: titled('정유나 생일 기념 카페 이벤트') },
  { query: '팬싸', kind: 'shorthand', expect: containing('팬사인회') },
  { query: '가을 정류장 팬싸', kind: 'shorthand', expect: containing('가을 정류장', '팬사인회') },
  { query: '영통팬싸', kind: 'shorthand', expect: containing('영상통화 팬사인회') },
  { query: '대면팬싸 명동', kind: 'shorthand', expect: containing('대면 팬사인회', '명동') },
  { query: '쇼케', kind: 'shorthand', expect: containing('쇼케이스') },
  { query: '컴백 쇼케', kind: 'shorthand', expect: containing('컴백 쇼케이스') },
  { query: '팬콘', kind: 'shorthand', expect: containing('팬콘서트') },
  { query: '팬콘 티켓', kind: 'shorthand', expect: titled('팬콘서트 〈LUMINOUS〉 티켓 오픈') },
  { query: '자컨', kind: 'shorthand', expect: containing('자체 예능') },
  { query: '음방', kind: 'shorthand', expect: containing('무대') },
  { query: '나침반 음방', kind: 'shorthand', expect: containing('나침반', '무대') },
  { query: '시그', kind: 'shorthand', expect: containing('시즌 그리팅') },
  { query: '인라', kind: 'shorthand', expect: containing('인스타그램 라이브') },
  { query: '하린 인라', kind: 'shorthand', expect: containing('윤하린 인스타그램 라이브') },
  { query: '안무영상', kind: 'shorthand', expect: containing('Dance Practice') },
  { query: '연습영상 나침반', kind: 'shorthand', expect: titled("[Dance Practice] 루미네 '나침반'") },
  { query: '팬밋 도쿄', kind: 'shorthand', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: '가요제', kind: 'shorthand', expect: titled(`${DEMO_YEAR} 한빛 가요대축제`, `${DEMO_YEAR} 가요 대제전`) },
  // Trailing particles.
  { query: '나침반의', kind: 'particle', expect: containing('나침반') },
  { query: '루미네의 팬미팅', kind: 'particle', expect: containing('루미네 팬미팅') },
  { query: '가을 정류장에서', kind: 'particle', expect: containing('가을 정류장') },
  { query: '류채이는', kind: 'particle', expect: containing('류채이') },
  { query: '팬사인회를', kind: 'particle', expect: containing('팬사인회') },
  { query: '대동제와', kind: 'particle', expect: containing('대동제') },
  { query: '쇼케이스도', kind: 'particle', expect: containing('쇼케이스') },
  { query: '윤하린에게', kind: 'particle', expect: containing('윤하린') },
  { query: '한강 뮤직 페스티벌에서', kind: 'particle', expect: titled('한강 뮤직 페스티벌'), first: '한강 뮤직 페스티벌' },
  { query: '카운트다운 라이브를', kind: 'particle', expect: titled('카운트다운 라이브'), first: '카운트다운 라이브' },
  { query: '퀴즈쇼에', kind: 'particle', expect: containing('퀴즈쇼') },
  { query: '정유나와 백다온', kind: 'particle', expect: containing('#정유나 #백다온') },
  // Spacing: run together, or spaced where the title is not.
  { query: '루미네팬미팅인도쿄', kind: 'spacing', expect: titled('루미네 팬미팅 in 도쿄'), first: '루미네 팬미팅 in 도쿄' },
  { query: '루미네팬미팅in도쿄', kind: 'spacing', expect: titled('루미네 팬미팅 in 도쿄'), first: '루미네 팬미팅 in 도쿄' },
  { query: '빛의방향으로', kind: 'spacing', expect: containing('빛의 방향으로') },
  { query: '가을정류장', kind: 'spacing', expect: containing('가을 정류장') },
  { query: '팬 미팅', kind: 'spacing', expect: containing('팬미팅') },
  { query: '루미 랜드', kind: 'spacing', expect: containing('루미랜드') },
  { query: '쇼 케이스', kind: 'spacing', expect: containing('쇼케이스') },
  { query: '팝업 스토어', kind: 'spacing', expect: containing('팝업스토어') },
  { query: '루미랜드ep45', kind: 'spacing', expect: containing('EP.45'), first: '루미네 자체 예능 〈루미랜드〉 EP.45' },
  { query: '강서아인스타그램라이브', kind: 'spacing', expect: containing('강서아 인스타그램 라이브') },
  { query: '한강뮤직페스티벌', kind: 'spacing', expect: titled('한강 뮤직 페스티벌'), first: '한강 뮤직 페스티벌' },
  { query: '팬콘서트DAY2', kind: 'spacing', expect: containing('DAY 2') },
  { query: '나침반챌린지', kind: 'spacing', expect: containing('나침반 챌린지') },
  { query: `${DEMO_YEAR}가요대제전`, kind: 'spacing', expect: titled(`${DEMO_YEAR} 가요 대제전`), first: `${DEMO_YEAR} 가요 대제전` },
  { query: 'K POP 페스티벌', kind: 'spacing', expect: containing('K-POP') },
  { query: '퀴즈 쇼', kind: 'spacing', expect: containing('퀴즈쇼') },
  // A word that matches nothing (or nothing beside the others) does not empty the result.
  { query: '5월 대동제', kind: 'ignored word', expect: titled(FESTIVALS.konkuk, FESTIVALS.hufs, FESTIVALS.korea, FESTIVALS.yonsei) },
  { query: '대동제 티켓팅', kind: 'ignored word', expect: containing('대동제') },
  { query: '루미네 팬미팅 오사카', kind: 'ignored word', expect: containing('루미네 팬미팅') },
  { query: '나침반 MV 풀버전', kind: 'ignored word', expect: containing('나침반', 'MV') },
  { query: '강서아 생일 케이크', kind: 'ignored word', expect: titled('강서아 생일 기념 카페 이벤트'), first: '강서아 생일 기념 카페 이벤트' },
  { query: '백다온 화보 촬영장', kind: 'ignored word', expect: containing('[화보] 백다온') },
  { query: '윤하린 라이브 다시보기', kind: 'ignored word', expect: containing('윤하린 인스타그램 라이브') },
  { query: '팬미팅 도쿄 후기', kind: 'ignored word', expect: titled('루미네 팬미팅 in 도쿄'), first: '루미네 팬미팅 in 도쿄' },
  { query: '가을 정류장 교차편집', kind: 'ignored word', expect: containing('가을 정류장') },
  { query: '퀴즈쇼 하이라이트', kind: 'ignored word', expect: containing('퀴즈쇼') },
  { query: `${DEMO_YEAR} 누리 뮤직 어워즈 레드카펫`, kind: 'ignored word', expect: titled(`${DEMO_YEAR} 누리 뮤직 어워즈`), first: `${DEMO_YEAR} 누리 뮤직 어워즈` },
  { query: '카운트다운 라이브 직캠', kind: 'ignored word', expect: titled('카운트다운 라이브'), first: '카운트다운 라이브' },
  // Typos counted in keystrokes: a compound vowel's first key missing, a vowel said alike.
  { query: '하보', kind: 'keystroke typo', expect: containing('[화보]') },
  { query: '퉤근길', kind: 'keystroke typo', expect: containing('퇴근길') },
  { query: '자체 에능', kind: 'keystroke typo', expect: containing('자체 예능') },
  { query: '스케쥴 공개', kind: 'keystroke typo', expect: containing('스케줄 공개') },
  { query: '첼린지', kind: 'keystroke typo', expect: containing('챌린지') },
  { query: '얼간 무드', kind: 'keystroke typo', expect: containing('월간 무드') },
  { query: '매거진 루채', kind: 'keystroke typo', expect: containing('매거진 루체') },
  { query: '씨네 플래이', kind: 'keystroke typo', expect: containing('씨네 플레이') },
  { query: '키즈쇼', kind: 'keystroke typo', expect: containing('퀴즈쇼') },
  { query: '팬사인훼', kind: 'keystroke typo', expect: containing('팬사인회') },
  // A compound vowel's second key missing (화 typed 호) or extra (콘 typed 콴).
  { query: '호보', kind: 'keystroke typo', expect: containing('[화보]') },
  { query: '토근길', kind: 'keystroke typo', expect: containing('퇴근길') },
  { query: '쿠즈쇼', kind: 'keystroke typo', expect: containing('퀴즈쇼') },
  { query: '울간 무드', kind: 'keystroke typo', expect: containing('월간 무드') },
  { query: '팬사인호', kind: 'keystroke typo', expect: containing('팬사인회') },
  { query: '팬콴서트', kind: 'keystroke typo', expect: containing('팬콘서트') },
  { query: '카원트다운', kind: 'keystroke typo', expect: titled('카운트다운 라이브') },
  { query: '과려대학교', kind: 'keystroke typo', expect: containing('고려대학교') },
  // Words of five syllables or more forgive two keystrokes.
  { query: '인쓰타그렘', kind: 'long word typo', expect: containing('인스타그램') },
  { query: '가요데축재', kind: 'long word typo', expect: containing('가요대축제') },
  { query: '성균간대학꾜', kind: 'long word typo', expect: titled(FESTIVALS.skku) },
  { query: '즁앙데학교', kind: 'long word typo', expect: titled(FESTIVALS.cau) },
  { query: '카운특따운', kind: 'long word typo', expect: titled('카운트다운 라이브') },
  { query: '뮤찍플럿스', kind: 'long word typo', expect: containing('뮤직플러스') },
  { query: '한국웨국어대학교', kind: 'long word typo', expect: titled(FESTIVALS.hufs) },
  // A half-typed last syllable is a prefix.
  { query: '팬미ㅌ', kind: 'half-typed', expect: containing('팬미팅') },
  { query: '팬밑', kind: 'half-typed', expect: containing('팬미팅') },
  { query: '루미ㄹ', kind: 'half-typed', expect: containing('루미랜드') },
  { query: '쇼케이ㅅ', kind: 'half-typed', expect: containing('쇼케이스') },
  { query: '나침ㅂ', kind: 'half-typed', expect: containing('나침반') },
  { query: '가을 정류ㅈ', kind: 'half-typed', expect: containing('가을 정류장') },
  { query: '팝업스토ㅇ', kind: 'half-typed', expect: containing('팝업스토어') },
  { query: '한강 뮤직 페스티ㅂ', kind: 'half-typed', expect: titled('한강 뮤직 페스티벌') },
  { query: '카운트다ㅇ', kind: 'half-typed', expect: titled('카운트다운 라이브') },
  { query: '인스타그ㄹ', kind: 'half-typed', expect: containing('인스타그램') },
  { query: '챌린ㅈ', kind: 'half-typed', expect: containing('챌린지') },
  // Romanised names and Latin titles: any case, any word order.
  { query: 'luminous', kind: 'latin case/order', expect: containing('LUMINOUS') },
  { query: 'Luminous 팬콘서트', kind: 'latin case/order', expect: containing('LUMINOUS', '팬콘서트') },
  { query: 'dance practice', kind: 'latin case/order', expect: containing('Dance Practice') },
  { query: 'PRACTICE DANCE', kind: 'latin case/order', expect: containing('Dance Practice') },
  { query: 'DAON BAEK', kind: 'latin case/order', expect: withMember('백다온') },
  { query: 'harin yoon', kind: 'latin case/order', expect: withMember('윤하린') },
  { query: 'seoa kang', kind: 'latin case/order', expect: withMember('강서아') },
  { query: 'compass japanese', kind: 'latin case/order', expect: containing('Compass') },
  { query: 'VER JAPANESE', kind: 'latin case/order', expect: containing('Japanese ver') },
  { query: 'lumi-log', kind: 'latin case/order', expect: containing('LUMI-LOG') },
  { query: 'log lumi', kind: 'latin case/order', expect: containing('LUMI-LOG') },
  { query: 'ost part.2', kind: 'latin case/order', expect: containing('OST Part.2') },
  { query: 'k-pop', kind: 'latin case/order', expect: containing('K-POP') },
  // English words for what titles say in Korean, and Korean for their English words (the lexicon).
  { query: 'fansign', kind: 'english word', expect: containing('팬사인회') },
  { query: 'Showcase', kind: 'english word', expect: containing('쇼케이스') },
  { query: 'fan meeting tokyo', kind: 'english word', expect: titled('루미네 팬미팅 in 도쿄'), first: '루미네 팬미팅 in 도쿄' },
  { query: 'music video', kind: 'english word', expect: containing('MV') },
  { query: 'photoshoot', kind: 'english word', expect: containing('[화보]') },
  { query: 'birthday cafe', kind: 'english word', expect: containing('생일 기념 카페') },
  { query: 'quiz show', kind: 'english word', expect: containing('퀴즈쇼') },
  { query: 'awards', kind: 'english word', expect: containing('어워즈') },
  { query: 'video call fansign', kind: 'english word', expect: containing('영상통화 팬사인회') },
  { query: 'challenge', kind: 'english word', expect: containing('챌린지') },
  { query: 'comeback showcase', kind: 'english word', expect: containing('컴백 쇼케이스') },
  { query: '하린 live', kind: 'english word', expect: containing('윤하린 인스타그램 라이브') },
  { query: 'schedule', kind: 'english word', expect: containing('스케줄 공개') },
  { query: 'music show', kind: 'english word', expect: containing('무대') },
  { query: 'member selfies', kind: 'english word', expect: titled('멤버 셀카 업데이트') },
  { query: 'challenges', kind: 'english word', expect: containing('챌린지') },
  { query: 'birthday events', kind: 'english word', expect: containing('생일 기념 카페 이벤트') },
  { query: 'harin birthday', kind: 'english word', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: '댄스 프랙티스', kind: 'english word', expect: containing('Dance Practice') },
  { query: '뮤직비디오 나침반', kind: 'english word', expect: containing('나침반', 'MV') },
  // Latin words of titles typed in Hangul, Hangul words typed in Latin (transliteration).
  { query: '루미로그 유나', kind: 'hangul/latin', expect: titled('[LUMI-LOG] 정유나의 하루') },
  { query: 'lumiland ep47', kind: 'hangul/latin', expect: containing('EP.47') },
  { query: '오에스티 서아', kind: 'hangul/latin', expect: containing('OST') },
  { query: '루미너스 팬콘서트', kind: 'hangul/latin', expect: containing('LUMINOUS', '팬콘서트') },
  { query: '엠브이', kind: 'hangul/latin', expect: containing('MV') },
  { query: 'nachimban mv', kind: 'hangul/latin', expect: containing('나침반', 'MV') },
  { query: 'nachimban challenge', kind: 'hangul/latin', expect: containing('나침반 챌린지') },
  { query: '파트2 오에스티', kind: 'hangul/latin', expect: containing('OST Part.2') },
  { query: '데이1 팬콘서트', kind: 'hangul/latin', expect: titled('루미네 첫 번째 팬콘서트 〈LUMINOUS〉 DAY 1'), first: '루미네 첫 번째 팬콘서트 〈LUMINOUS〉 DAY 1' },
  { query: 'lumiland ep 50', kind: 'hangul/latin', expect: titled('루미네 자체 예능 〈루미랜드〉 EP.50') },
  { query: '케이팝 페스티벌', kind: 'hangul/latin', expect: containing('K-POP') },
  { query: '재패니즈 버전', kind: 'hangul/latin', expect: containing('Japanese ver') },
  // Usual loanword spellings are one word.
  { query: '쇼캐이스', kind: 'loanword spelling', expect: containing('쇼케이스') },
  { query: '페스티발', kind: 'loanword spelling', expect: containing('페스티벌') },
  { query: '인스타그람 라이브 서아', kind: 'loanword spelling', expect: containing('강서아 인스타그램 라이브') },
  { query: '어워드', kind: 'loanword spelling', expect: containing('어워즈') },
  { query: '팝업스토아', kind: 'loanword spelling', expect: containing('팝업스토어') },
  { query: '팬싸인회', kind: 'loanword spelling', expect: containing('팬사인회') },
  { query: '시즌그리팅즈', kind: 'loanword spelling', expect: containing('시즌 그리팅') },
  { query: '루미랜즈', kind: 'loanword spelling', expect: containing('루미랜드') },
  // Decorations and look-alikes: full-width forms, invisible characters, brackets, emoji.
  { query: '［ＬＵＭＩ－ＬＯＧ］', kind: 'decoration', expect: containing('LUMI-LOG') },
  { query: '〈빛의 방향으로〉 팝업', kind: 'decoration', expect: containing('팝업스토어') },
  { query: '“나침반” MV', kind: 'decoration', expect: containing('나침반', 'MV') },
  { query: 'ＥＰ．４５', kind: 'decoration', expect: containing('EP.45'), first: '루미네 자체 예능 〈루미랜드〉 EP.45' },
  { query: '루미네\u00ad팬미팅', kind: 'decoration', expect: containing('루미네 팬미팅') },
  { query: '퀴즈\u200b쇼', kind: 'decoration', expect: containing('퀴즈쇼') },
  { query: '🎂 강서아 생일 🎂', kind: 'decoration', expect: titled('강서아 생일 기념 카페 이벤트'), first: '강서아 생일 기념 카페 이벤트' },
  { query: 'ㄹㅁㄹㄷ!!', kind: 'decoration', expect: containing('루미랜드') },
  { query: '★팬미팅★', kind: 'decoration', expect: containing('팬미팅') },
  { query: '#나침반챌린지', kind: 'decoration', expect: containing('나침반 챌린지') },
  // Dates as fans write them: the schedules of that day (of any year unless given).
  { query: '5/8', kind: 'date', expect: titled(FESTIVALS.konkuk) },
  { query: '4.9 나침반', kind: 'date', expect: titled("[엠 라이브 카운트] 루미네 '나침반' 컴백 무대"), first: "[엠 라이브 카운트] 루미네 '나침반' 컴백 무대" },
  { query: '8월 9일', kind: 'date', expect: titled('루미네 첫 번째 팬콘서트 〈LUMINOUS〉 DAY 1') },
  { query: `${DEMO_YEAR}.12.31`, kind: 'date', expect: titled('루미네 자체 예능 〈루미랜드〉 EP.54', `${DEMO_YEAR} 가요 대제전`, '카운트다운 라이브') },
  { query: '26일 화보', kind: 'date', expect: titled('[화보] 정유나 〈월간 무드〉 7월호', '[화보] 정유나 〈씨네 플레이〉 8월호') },
  { query: '서아 5월 20일', kind: 'date', expect: titled('강서아 생일 기념 카페 이벤트'), first: '강서아 생일 기념 카페 이벤트' },
  { query: '2월 28일 채이', kind: 'date', expect: titled('류채이 생일 기념 카페 이벤트'), first: '류채이 생일 기념 카페 이벤트' },
  { query: '10/26 퀴즈쇼', kind: 'date', expect: titled('〈놀라운 퀴즈쇼〉 윤하린 출연'), first: '〈놀라운 퀴즈쇼〉 윤하린 출연' },
  { query: '유나 8/8', kind: 'date', expect: titled('정유나 생일 기념 카페 이벤트'), first: '정유나 생일 기념 카페 이벤트' },
  // Several signals: the group's name, which every schedule holds, is the weakest.
  { query: '루미네 서아 카페', kind: 'several signals', expect: titled('강서아 생일 기념 카페 이벤트'), first: '강서아 생일 기념 카페 이벤트' },
  { query: '루미네 유나 라이브', kind: 'several signals', expect: containing('정유나 인스타그램 라이브') },
  { query: '루미네 하린 로그', kind: 'several signals', expect: containing('[LUMI-LOG] 윤하린') },
  { query: '루미네 채이 화보', kind: 'several signals', expect: containing('[화보] 류채이') },
  { query: '루미네 다온 생일', kind: 'several signals', expect: titled('백다온 생일 기념 카페 이벤트'), first: '백다온 생일 기념 카페 이벤트' },
  // Places at another level: a country or a city in three scripts for a title naming the city, a
  // district or region for a venue's address (the gazetteer), a neighbourhood for its district.
  { query: '일본 팬미팅', kind: 'place', expect: titled('루미네 팬미팅 in 도쿄'), first: '루미네 팬미팅 in 도쿄' },
  { query: 'japan fanmeeting', kind: 'place', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: 'tokyo fan meeting', kind: 'place', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: '東京 팬미팅', kind: 'place', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: 'トウキョウ', kind: 'place', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: '동경 팬미팅', kind: 'place', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: '태국 팬미팅', kind: 'place', expect: titled('루미네 팬미팅 in 방콕'), first: '루미네 팬미팅 in 방콕' },
  { query: 'thailand', kind: 'place', expect: titled('루미네 팬미팅 in 방콕') },
  { query: 'bangkok fan meeting', kind: 'place', expect: titled('루미네 팬미팅 in 방콕') },
  { query: 'バンコク', kind: 'place', expect: titled('루미네 팬미팅 in 방콕') },
  { query: '일본', kind: 'place', expect: titled('루미네 팬미팅 in 도쿄', "일본 데뷔 싱글 'Compass -Japanese ver.-' 발매") },
  { query: '송파 팬사인회', kind: 'place', expect: containing('잠실', '팬사인회') },
  { query: 'jamsil fansign', kind: 'place', expect: containing('잠실', '팬사인회') },
  { query: 'myeongdong 팬사인회', kind: 'place', expect: containing('명동', '팬사인회') },
  { query: 'gangnam 팬사인회', kind: 'place', expect: containing('강남', '팬사인회') },
  { query: '광진구 축하공연', kind: 'place', expect: titled(FESTIVALS.konkuk) },
  { query: 'gwangjin 대동제', kind: 'place', expect: titled(FESTIVALS.konkuk) },
  { query: '성북구 대동제', kind: 'place', expect: titled(FESTIVALS.korea) },
  { query: 'seongbuk', kind: 'place', expect: titled(FESTIVALS.korea) },
  { query: 'dongdaemun', kind: 'place', expect: titled(FESTIVALS.hufs, FESTIVALS.khu) },
  { query: '인천 축하공연', kind: 'place', expect: titled(FESTIVALS.inha) },
  { query: 'incheon', kind: 'place', expect: titled(FESTIVALS.inha) },
  { query: 'busan 대동제', kind: 'place', expect: titled(FESTIVALS.pusan) },
  { query: 'seoul 대동제', kind: 'place', expect: titled(FESTIVALS.konkuk, FESTIVALS.hufs, FESTIVALS.korea, FESTIVALS.yonsei, FESTIVALS.hanyang) },
  { query: '종로 축제', kind: 'place', expect: titled(FESTIVALS.skku) },
  { query: 'jongno', kind: 'place', expect: titled(FESTIVALS.skku) },
  { query: '동작구 축제', kind: 'place', expect: titled(FESTIVALS.cau) },
  { query: 'sinchon 대동제', kind: 'place', expect: titled(FESTIVALS.yonsei) },
  { query: '성수 축하공연', kind: 'place', expect: titled(FESTIVALS.hanyang) },
  { query: '미추홀 축제', kind: 'place', expect: titled(FESTIVALS.inha) },
  // Members by what the group calls them: a position in three languages, the youngest and the
  // oldest (from the birth dates), a given name with an English possessive.
  { query: '메인댄서 생일', kind: 'member role', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: 'main dancer birthday', kind: 'member role', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: 'main rapper 생일', kind: 'member role', expect: titled('백다온 생일 기념 카페 이벤트') },
  { query: '메인래퍼 라디오', kind: 'member role', expect: titled('〈별빛 라디오〉 게스트 출연') },
  { query: 'main vocal 인스타 라이브', kind: 'member role', expect: containing('강서아 인스타그램 라이브') },
  { query: '메인보컬 생일 카페', kind: 'member role', expect: titled('강서아 생일 기념 카페 이벤트') },
  { query: 'leader 화보', kind: 'member role', expect: containing('[화보] 윤하린') },
  { query: '리더 생일', kind: 'member role', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: 'maknae live', kind: 'member role', expect: containing('류채이 인스타그램 라이브') },
  { query: '막내 생일', kind: 'member role', expect: titled('류채이 생일 기념 카페 이벤트') },
  { query: 'youngest 화보', kind: 'member role', expect: containing('[화보]', '류채이') },
  { query: '맏언니 생일', kind: 'member role', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: 'oldest birthday', kind: 'member role', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: 'visual 화보', kind: 'member role', expect: containing('[화보]', '정유나') },
  { query: '비주얼 출연', kind: 'member role', expect: titled('〈아는 동생들〉 정유나 출연') },
  { query: 'リーダー 생일', kind: 'member role', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: 'メインラッパー', kind: 'member role', expect: withMember('백다온') },
  { query: "seoa's birthday", kind: 'member role', expect: titled('강서아 생일 기념 카페 이벤트') },
  { query: "daon's radio", kind: 'member role', expect: titled('〈별빛 라디오〉 게스트 출연') },
  { query: "chaei's live", kind: 'member role', expect: containing('류채이 인스타그램 라이브') },
  { query: "yuna's 화보", kind: 'member role', expect: containing('[화보]', '정유나') },
  { query: 'sub vocal 생일', kind: 'member role', expect: titled('류채이 생일 기념 카페 이벤트') },
  { query: 'lead vocal 생일', kind: 'member role', expect: titled('정유나 생일 기념 카페 이벤트') },
  // Dates in English and Japanese: month names, ordinals, `the 12th`, 月 and 日.
  { query: 'june 14 팬미팅', kind: 'english date', expect: titled('루미네 팬미팅 in 도쿄'), first: '루미네 팬미팅 in 도쿄' },
  { query: '14th of june', kind: 'english date', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: 'jun 14th fan meeting', kind: 'english date', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: 'july 5', kind: 'english date', expect: titled('루미네 팬미팅 in 방콕') },
  { query: 'the 12th 데뷔', kind: 'english date', expect: titled('루미네 데뷔 2주년') },
  { query: '6月14日', kind: 'english date', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: 'august 9 팬콘서트', kind: 'english date', expect: titled('루미네 첫 번째 팬콘서트 〈LUMINOUS〉 DAY 1'), first: '루미네 첫 번째 팬콘서트 〈LUMINOUS〉 DAY 1' },
  { query: `december 31, ${DEMO_YEAR}`, kind: 'english date', expect: titled('루미네 자체 예능 〈루미랜드〉 EP.54', `${DEMO_YEAR} 가요 대제전`, '카운트다운 라이브') },
  { query: 'may 20 서아', kind: 'english date', expect: titled('강서아 생일 기념 카페 이벤트'), first: '강서아 생일 기념 카페 이벤트' },
  { query: 'november 2nd birthday', kind: 'english date', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: 'september 축제', kind: 'english date', expect: titled(FESTIVALS.inha, FESTIVALS.khu) },
  { query: '9月 축제', kind: 'english date', expect: titled(FESTIVALS.inha, FESTIVALS.khu) },
  // Ordinals and anniversaries: native Korean numerals and counters, English, Japanese.
  { query: '1st 팬콘서트', kind: 'ordinal', expect: containing('첫 번째 팬콘서트') },
  { query: 'first fan concert', kind: 'ordinal', expect: containing('첫 번째 팬콘서트') },
  { query: '첫째 팬콘서트', kind: 'ordinal', expect: containing('첫 번째 팬콘서트') },
  { query: '데뷔 두돌', kind: 'ordinal', expect: titled('루미네 데뷔 2주년') },
  { query: '두 돌', kind: 'ordinal', expect: titled('루미네 데뷔 2주년') },
  { query: '2nd anniversary', kind: 'ordinal', expect: titled('루미네 데뷔 2주년') },
  { query: 'second anniversary', kind: 'ordinal', expect: titled('루미네 데뷔 2주년') },
  { query: '데뷔 2周年', kind: 'ordinal', expect: titled('루미네 데뷔 2주년') },
  { query: 'oct 8 대동제', kind: 'english date', expect: titled(FESTIVALS.pusan), first: FESTIVALS.pusan },
  { query: 'may 8th', kind: 'english date', expect: titled(FESTIVALS.konkuk) },
  { query: '5月8日', kind: 'english date', expect: titled(FESTIVALS.konkuk) },
  { query: '9月10日 축제', kind: 'english date', expect: titled(FESTIVALS.inha), first: FESTIVALS.inha },
  { query: 'the 21st 대동제', kind: 'english date', expect: titled(FESTIVALS.korea), first: FESTIVALS.korea },
  { query: 'sept 18', kind: 'english date', expect: titled(FESTIVALS.hanyang) },
  { query: 'september 24th 축제', kind: 'english date', expect: titled(FESTIVALS.khu), first: FESTIVALS.khu },
  { query: 'gangnam fansign', kind: 'place', expect: containing('강남', '팬사인회') },
  { query: '리드보컬 화보', kind: 'member role', expect: containing('[화보]', '정유나') },
  { query: 'main vocalist live', kind: 'member role', expect: containing('강서아 인스타그램 라이브') },
  { query: 'leader live', kind: 'member role', expect: containing('윤하린 인스타그램 라이브') },
  { query: "harin's birthday", kind: 'member role', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: "daon's birthday cafe", kind: 'member role', expect: titled('백다온 생일 기념 카페 이벤트') },
  // Japanese: event words by the lexicon's Japanese terms, names and loanwords by their kana reading.
  { query: 'ショーケース', kind: 'japanese', expect: containing('쇼케이스') },
  { query: 'ファンミーティング 도쿄', kind: 'japanese', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: 'ハリン 생일', kind: 'japanese', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: 'ソア 생일', kind: 'japanese', expect: titled('강서아 생일 기념 카페 이벤트') },
  { query: 'ダオン ラジオ', kind: 'japanese', expect: titled('〈별빛 라디오〉 게스트 출연') },
  { query: 'ユナ 화보', kind: 'japanese', expect: containing('[화보]', '정유나') },
  { query: 'はりん', kind: 'japanese', expect: withMember('윤하린') },
  { query: 'チャレンジ', kind: 'japanese', expect: containing('챌린지') },
  { query: 'コンサート', kind: 'japanese', expect: containing('콘서트') },
  { query: 'インスタライブ', kind: 'japanese', expect: containing('인스타그램 라이브') },
  { query: 'カムバック ステージ', kind: 'japanese', expect: containing('컴백 무대') },
  { query: 'デビュー 2周年', kind: 'japanese', expect: titled('루미네 데뷔 2주년') },
  { query: '誕生日 カフェ', kind: 'japanese', expect: containing('생일 기념 카페') },
  { query: 'グラビア', kind: 'japanese', expect: containing('[화보]') },
  { query: 'ルミネ ファンミーティング', kind: 'japanese', expect: containing('팬미팅') },
  // A Latin word one letter off a term the service knows (lexicon, entities, gazetteer).
  { query: 'fanmeting tokyo', kind: 'latin slip', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: 'showcsae', kind: 'latin slip', expect: containing('쇼케이스') },
  { query: 'tokio', kind: 'latin slip', expect: titled('루미네 팬미팅 in 도쿄') },
  { query: 'birtday cafe', kind: 'latin slip', expect: containing('생일 기념 카페') },
  { query: 'challange', kind: 'latin slip', expect: containing('챌린지') },
  { query: 'fansing 잠실', kind: 'latin slip', expect: containing('잠실', '팬사인회') },
  { query: 'bangkock', kind: 'latin slip', expect: titled('루미네 팬미팅 in 방콕') },
  { query: 'thailnd', kind: 'latin slip', expect: titled('루미네 팬미팅 in 방콕') },
  { query: 'concret', kind: 'latin slip', expect: containing('콘서트') },
  { query: 'radoi 다온', kind: 'latin slip', expect: titled('〈별빛 라디오〉 게스트 출연') },
  { query: 'instagarm live', kind: 'latin slip', expect: containing('인스타그램 라이브') },
  { query: 'seuol 대동제', kind: 'latin slip', expect: titled(FESTIVALS.konkuk, FESTIVALS.hufs, FESTIVALS.korea, FESTIVALS.yonsei, FESTIVALS.hanyang) },
  // Seasons and periods read as their months when no title holds the word.
  { query: '여름 팬미팅', kind: 'period', expect: titled('루미네 팬미팅 in 도쿄', '루미네 팬미팅 in 방콕') },
  { query: '상반기 팬미팅', kind: 'period', expect: titled('루미네 팬미팅 in 도쿄'), first: '루미네 팬미팅 in 도쿄' },
  { query: '하반기 팬미팅', kind: 'period', expect: titled('루미네 팬미팅 in 방콕'), first: '루미네 팬미팅 in 방콕' },
  { query: '연말 가요', kind: 'period', expect: titled(`${DEMO_YEAR} 가요 대제전`) },
  { query: '겨울 가요', kind: 'period', expect: titled(`${DEMO_YEAR} 가요 대제전`) },
  { query: 'summer 팬미팅', kind: 'period', expect: titled('루미네 팬미팅 in 도쿄', '루미네 팬미팅 in 방콕') },
  { query: '연초 스케줄', kind: 'period', expect: titled('1월 스케줄 공개') },
  { query: '봄 축하공연', kind: 'period', expect: titled(FESTIVALS.konkuk, FESTIVALS.yonsei) },
  // Titles in another language: the translations administrators add (TRANSLATIONS above).
  { query: 'compass mv', kind: 'title translation', expect: containing('나침반', 'MV') },
  { query: 'compass 컴백 무대', kind: 'title translation', expect: containing('나침반', '컴백 무대') },
  { query: 'コンパス', kind: 'title translation', expect: containing('나침반') },
  { query: 'compass challenge', kind: 'title translation', expect: containing('나침반 챌린지') },
  { query: 'counting stars', kind: 'title translation', expect: containing('별을 세는 밤') },
  { query: 'towards the light 발매', kind: 'title translation', expect: containing('빛의 방향으로', '발매') },
  { query: 'towards the light 팬사인회', kind: 'title translation', expect: containing('빛의 방향으로', '팬사인회') },
  { query: '光の方へ', kind: 'title translation', expect: containing('빛의 방향으로') },
  // More of what the service knows.
  { query: 'songpa fansign', kind: 'place', expect: containing('잠실', '팬사인회') },
  { query: 'tokyo 6/14', kind: 'place', expect: titled('루미네 팬미팅 in 도쿄'), first: '루미네 팬미팅 in 도쿄' },
  { query: 'メインボーカル 생일', kind: 'member role', expect: titled('강서아 생일 기념 카페 이벤트') },
  { query: 'the youngest birthday', kind: 'member role', expect: titled('류채이 생일 기념 카페 이벤트') },
  { query: 'eldest birthday', kind: 'member role', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: "yoon harin's birthday", kind: 'member role', expect: titled('윤하린 생일 기념 카페 이벤트') },
  { query: 'showcse', kind: 'latin slip', expect: containing('쇼케이스') },
  { query: 'birthdya cafe', kind: 'latin slip', expect: containing('생일 기념 카페') },
  { query: 'aug 10 팬콘서트', kind: 'english date', expect: titled('루미네 첫 번째 팬콘서트 〈LUMINOUS〉 DAY 2'), first: '루미네 첫 번째 팬콘서트 〈LUMINOUS〉 DAY 2' },
  { query: 'april 8th 발매', kind: 'english date', expect: titled('싱글앨범 〈빛의 방향으로〉 발매'), first: '싱글앨범 〈빛의 방향으로〉 발매' },
  { query: 'ダオン 생일', kind: 'japanese', expect: titled('백다온 생일 기념 카페 이벤트') },
  { query: 'ユナ 생일', kind: 'japanese', expect: titled('정유나 생일 기념 카페 이벤트') },
  // A slip of a word only the documents spell (no lexicon term, no entity).
  { query: 'dance practise', kind: 'latin slip', expect: containing('[Dance Practice]') },
  { query: 'praktice 나침반', kind: 'latin slip', expect: titled("[Dance Practice] 루미네 '나침반'") },
  { query: 'lumilgo', kind: 'latin slip', expect: containing('[LUMI-LOG]') },
  { query: 'lumi-lgo 서아', kind: 'latin slip', expect: titled('[LUMI-LOG] 강서아의 하루') },
  // A word nothing holds beside English words the titles hold in Korean: left out, the rest read.
  { query: 'usa fan meeting', kind: 'ignored word', expect: titled('루미네 팬미팅 in 도쿄', '루미네 팬미팅 in 방콕') },
  { query: 'winter concert', kind: 'ignored word', expect: containing('팬콘서트') },
  { query: 'osaka showcase', kind: 'ignored word', expect: containing('쇼케이스') },
  // A release's language in Korean for the Latin words of its title.
  { query: '나침반 일본어', kind: 'title translation', expect: titled("일본 데뷔 싱글 'Compass -Japanese ver.-' 발매"), first: "일본 데뷔 싱글 'Compass -Japanese ver.-' 발매" },
  // A place in Latin beside an English event word: both read, the place as the name documents hold.
  { query: 'incheon festival', kind: 'place', expect: titled(FESTIVALS.inha) },
  // English season words beside English words the titles hold in Korean.
  { query: 'summer fan meeting', kind: 'period', expect: titled('루미네 팬미팅 in 도쿄', '루미네 팬미팅 in 방콕') },
  { query: 'autumn festival', kind: 'period', expect: titled(FESTIVALS.inha, FESTIVALS.khu, FESTIVALS.cau, '한강 뮤직 페스티벌') },
  // Tense consonants for emphasis, alone and with a slip inside.
  { query: '쑈케이스', kind: 'tense spelling', expect: containing('쇼케이스') },
  { query: '쑈캐이스', kind: 'tense spelling', expect: containing('쇼케이스') },
  { query: '꼰서트', kind: 'tense spelling', expect: containing('팬콘서트') },
  { query: '깨스트 출연', kind: 'tense spelling', expect: containing('게스트 출연') },
  { query: '까페 이벤트', kind: 'tense spelling', expect: containing('생일 기념 카페') },
  { query: '쎌카', kind: 'tense spelling', expect: titled('멤버 셀카 업데이트') },
  { query: '삐햐인드', kind: 'tense spelling', expect: containing('비하인드') },
];

/** Titles in other languages, as an administrator adds them (`POST /api/admin/search/translations`). */
const TRANSLATIONS: ['album' | 'track', string, string, 'en' | 'ja'][] = [
  ['track', '나침반', 'Compass', 'en'],
  ['track', '나침반', 'コンパス', 'ja'],
  ['track', '별을 세는 밤', 'Counting Stars', 'en'],
  ['track', '별을 세는 밤', '星を数える夜', 'ja'],
  ['album', '빛의 방향으로', 'Towards the Light', 'en'],
  ['album', '빛의 방향으로', '光の方へ', 'ja'],
  ['track', '너의 계절', 'Your Season', 'en'],
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
      const { id } = await tx.one<{ id: number }>('INSERT INTO members (name, name_en, birth_date, position, nicknames, sort_order) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id', [
        member.name,
        member.nameEn,
        member.birthDate,
        member.position,
        member.nicknames,
        order,
      ]);
      memberIds.set(member.name, id);
    }
    // The albums and tracks, with the translations an administrator would add (search_aliases).
    for (const album of data.albums) {
      const { id } = await tx.one<{ id: number }>('INSERT INTO albums (title, album_type, release_date) VALUES ($1, $2, $3) RETURNING id', [album.title, album.albumType, album.releaseDate]);
      for (const [i, track] of album.tracks.entries()) {
        await tx.none('INSERT INTO tracks (album_id, track_number, title, is_title_track) VALUES ($1, $2, $3, $4)', [id, i + 1, track.title, track.isTitleTrack]);
      }
    }
    for (const [kind, title, translation, lang] of TRANSLATIONS) {
      await tx.none(
        `INSERT INTO search_aliases (kind, target_id, alias, lang) SELECT $1, id, $3, $4 FROM ${kind === 'album' ? 'albums' : 'tracks'} WHERE title = $2`,
        [kind, title, translation, lang],
      );
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

/**
 * The analyser the service's analysis threads build (workers/analysis.worker.ts): the user
 * dictionary, member names, nicknames and romanised names, school names, title words. The service
 * searches with its query words; the quality table does too.
 */
export async function serviceAnalyzer(db: Db): Promise<KoreanAnalyzer> {
  const [dictionary, members, schools, titles] = await Promise.all([
    db.one<{ content: string }>('SELECT content FROM user_dictionary WHERE id = 1'),
    db.any<{ name: string; name_en: string | null; nicknames: string[] }>('SELECT name, name_en, nicknames FROM members'),
    db.any<{ full_name: string; short_names: string[] }>('SELECT full_name, short_names FROM school_names'),
    db.any<{ title: string }>('SELECT title FROM schedules'),
  ]);
  const analyzer = new KoreanAnalyzer(parseUserDictionary(dictionary.content).entries);
  const names = [...members.flatMap((m) => [m.name, ...m.nicknames, ...(m.name_en ? [m.name_en] : [])]), ...schools.flatMap((s) => [s.full_name, ...s.short_names])];
  for (const word of names) analyzer.add({ word: normalizeText(word), tag: 'NNP' });
  harvestTitleWords(analyzer, titles.map((row) => row.title));
  return analyzer;
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
