// The demo data set of `npm run seed:demo` (shared/db/demo-seed.ts): a fictional group, its albums
// and a year of schedules. Pure and deterministic: the same year always gives the same data (a
// seeded PRNG, never Math.random). Links point at example.com hosts, so none leads to a real page.

export interface DemoMember {
  name: string;
  nameEn: string;
  /** YYYY-MM-DD; one member is born on 29 February so the leap-day rule of the listing shows. */
  birthDate: string;
  position: string;
  instagram: string;
  nicknames: string[];
}

export interface DemoTrack {
  title: string;
  isTitleTrack: boolean;
  /** M:SS */
  duration: string;
  lyricist: string;
  composer: string;
  arranger: string;
}

export interface DemoArtwork {
  /** Two CSS colours: the gradient from top left to bottom right. */
  colors: [string, string];
  kicker: string;
  title: string;
  lines: string[];
}

export interface DemoAlbum {
  title: string;
  albumType: string;
  releaseDate: string;
  description: string;
  cover: DemoArtwork;
  tracks: DemoTrack[];
}

export interface DemoVenue {
  name: string;
  address: string;
  roadAddress: string;
  lat: number;
  lng: number;
  map_id: string;
}

export interface DemoEvent {
  /** Full name as in the `school_names` table, so the search finds the event by its short forms. */
  schoolName: string;
  venue: DemoVenue;
  postUrls: string[];
  posters: DemoArtwork[];
}

export interface DemoSchedule {
  categoryId: number;
  title: string;
  date: string;
  /** HH:MM, or null when the time is not known. */
  time: string | null;
  description: string | null;
  source: { name: string; url: string | null } | null;
  /** Member names. */
  members: string[];
  video?: { videoId: string; channelId: string; channelName: string; videoType: 'video' | 'shorts' };
  post?: { postId: string; username: string; displayName: string };
  event?: DemoEvent;
}

export interface DemoDataSet {
  group: { name: string; nameEn: string };
  year: number;
  members: DemoMember[];
  albums: DemoAlbum[];
  schedules: DemoSchedule[];
}

export const DEMO_GROUP = { name: '루미네', nameEn: 'LUMINE' };

/** Category ids of `schedule_categories` (migration 004); 10 (birthdays) comes from the members. */
export const CATEGORY = { broadcast: 1, concert: 2, fansign: 3, radio: 4, release: 5, video: 6, sns: 7, photoshoot: 8, other: 9, event: 11 } as const;

export const DEMO_MEMBERS: DemoMember[] = [
  { name: '윤하린', nameEn: 'Yoon Harin', birthDate: '2000-11-03', position: '리더, 메인댄서', instagram: 'lumine_harin', nicknames: ['린대장', '하리니'] },
  { name: '강서아', nameEn: 'Kang Seoa', birthDate: '2001-05-21', position: '메인보컬', instagram: 'lumine_seoa', nicknames: ['서아공주', '강블리', '꾀꼬리'] },
  { name: '정유나', nameEn: 'Jung Yuna', birthDate: '2002-08-09', position: '리드보컬, 비주얼', instagram: 'lumine_yuna', nicknames: ['유나비'] },
  { name: '백다온', nameEn: 'Baek Daon', birthDate: '2003-01-17', position: '메인래퍼', instagram: 'lumine_daon', nicknames: ['다옹이', '온이'] },
  { name: '류채이', nameEn: 'Ryu Chaei', birthDate: '2004-02-29', position: '서브보컬, 막내', instagram: 'lumine_chaei', nicknames: ['윤달요정', '막둥이'] },
];

const OFFICIAL_CHANNEL = { channelId: 'UCLumineDemoChannel00001', channelName: 'LUMINE 루미네' };
const OFFICIAL_ACCOUNT = { username: 'lumine_official', displayName: 'LUMINE 루미네' };

/** mulberry32: a small, fast, seeded generator; plenty for picking demo data (and benchmark data). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const DEMO_SEED = 0x4c554d49; // "LUMI"
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
/** Day arithmetic through Date.UTC, so day 0 or day 32 roll into the next month. */
const isoDate = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
const addDays = (date: string, days: number) => isoDate(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)) + days);
const KOREAN_WEEKDAYS = ['일', '월', '화', '수', '목', '금', '토'];
const koreanDate = (date: string) => `${Number(date.slice(5, 7))}월 ${Number(date.slice(8, 10))}일 (${KOREAN_WEEKDAYS[weekday(date)]})`;

function albumsOf(year: number): DemoAlbum[] {
  const credits = (lyricist: string, composer: string, arranger: string) => ({ lyricist, composer, arranger });
  return [
    {
      title: '첫 번째 빛',
      albumType: '미니',
      releaseDate: `${year - 2}-06-12`,
      description: '루미네의 데뷔 앨범. 어둠 속에서 처음 켜지는 작은 빛처럼, 다섯 멤버의 시작을 담았다.',
      cover: { colors: ['#1e3a8a', '#f472b6'], kicker: 'LUMINE 1st MINI ALBUM', title: '첫 번째 빛', lines: [`${year - 2}. 06. 12`] },
      tracks: [
        { title: '프롤로그: 새벽', isTitleTrack: false, duration: '1:48', ...credits('김하늘', '이도윤', '이도윤') },
        { title: '반짝이는 밤', isTitleTrack: true, duration: '3:21', ...credits('김하늘', '박새벽, 이도윤', '박새벽') },
        { title: '달빛 산책', isTitleTrack: false, duration: '3:05', ...credits('정해솔', '정해솔', '루미랩') },
        { title: '너에게 닿기를', isTitleTrack: false, duration: '3:42', ...credits('김하늘, 백다온', '한여름', '한여름') },
        { title: '첫 번째 빛', isTitleTrack: false, duration: '3:30', ...credits('윤하린', '이도윤', '박새벽') },
      ],
    },
    {
      title: '우리가 머문 계절',
      albumType: '미니',
      releaseDate: `${year - 1}-10-05`,
      description: '함께 지나온 계절들을 돌아보는 두 번째 미니앨범. 타이틀곡 「너의 계절」은 가을의 설렘을 노래한다.',
      cover: { colors: ['#7c2d12', '#fbbf24'], kicker: 'LUMINE 2nd MINI ALBUM', title: '우리가 머문 계절', lines: [`${year - 1}. 10. 05`] },
      tracks: [
        { title: '계절의 문', isTitleTrack: false, duration: '2:02', ...credits('정해솔', '루미랩', '루미랩') },
        { title: '너의 계절', isTitleTrack: true, duration: '3:14', ...credits('김하늘', '박새벽, 한여름', '박새벽') },
        { title: '여름 끝자락', isTitleTrack: false, duration: '3:27', ...credits('강서아', '이도윤', '이도윤') },
        { title: '비밀 정원', isTitleTrack: false, duration: '3:09', ...credits('정해솔', '한여름', '루미랩') },
        { title: '안녕, 가을', isTitleTrack: false, duration: '3:51', ...credits('김하늘', '정해솔', '정해솔') },
        { title: '우리가 머문 계절', isTitleTrack: false, duration: '4:02', ...credits('윤하린, 백다온', '이도윤', '박새벽') },
      ],
    },
    {
      title: '빛의 방향으로',
      albumType: '싱글',
      releaseDate: `${year}-04-08`,
      description: '길을 잃어도 서로가 나침반이 되어 준다는 이야기. 루미네의 첫 싱글앨범.',
      cover: { colors: ['#0f766e', '#a5f3fc'], kicker: 'LUMINE 1st SINGLE ALBUM', title: '빛의 방향으로', lines: [`${year}. 04. 08`] },
      tracks: [
        { title: '나침반', isTitleTrack: true, duration: '3:18', ...credits('김하늘', '박새벽, 이도윤', '박새벽') },
        { title: '별을 세는 밤', isTitleTrack: false, duration: '3:36', ...credits('류채이, 정해솔', '한여름', '한여름') },
        { title: '나침반 (Inst.)', isTitleTrack: false, duration: '3:18', ...credits('', '박새벽, 이도윤', '박새벽') },
      ],
    },
  ];
}

interface SchoolFestival {
  schoolName: string;
  slug: string;
  title: string;
  monthDay: [number, number];
  time: string | null;
  venue: Omit<DemoVenue, 'map_id'>;
}

// Real universities (names as in `school_names`) and their real addresses; the festival dates are made up.
const FESTIVALS: SchoolFestival[] = [
  { schoolName: '건국대학교', slug: 'konkuk', title: '건국대학교 봄 대동제 축하공연', monthDay: [5, 8], time: '20:30', venue: { name: '건국대학교 서울캠퍼스 노천극장', address: '서울 광진구 화양동 1', roadAddress: '서울 광진구 능동로 120', lat: 37.5419, lng: 127.0738 } },
  { schoolName: '한국외국어대학교', slug: 'hufs', title: '한국외국어대학교 서울캠퍼스 대동제 축하공연', monthDay: [5, 13], time: '20:00', venue: { name: '한국외국어대학교 서울캠퍼스 대운동장', address: '서울 동대문구 이문동 270', roadAddress: '서울 동대문구 이문로 107', lat: 37.5973, lng: 127.0587 } },
  { schoolName: '성균관대학교', slug: 'skku', title: '성균관대학교 봄 축제 무대', monthDay: [5, 15], time: '19:30', venue: { name: '성균관대학교 인문사회과학캠퍼스 금잔디광장', address: '서울 종로구 명륜3가 53', roadAddress: '서울 종로구 성균관로 25-2', lat: 37.588, lng: 126.993 } },
  { schoolName: '고려대학교', slug: 'korea', title: '고려대학교 대동제 축하공연', monthDay: [5, 21], time: '21:00', venue: { name: '고려대학교 녹지운동장', address: '서울 성북구 안암동5가 1-2', roadAddress: '서울 성북구 안암로 145', lat: 37.5863, lng: 127.0305 } },
  { schoolName: '연세대학교', slug: 'yonsei', title: '연세대학교 봄 대동제 축하공연', monthDay: [5, 28], time: '20:00', venue: { name: '연세대학교 노천극장', address: '서울 서대문구 신촌동 134', roadAddress: '서울 서대문구 연세로 50', lat: 37.564, lng: 126.936 } },
  { schoolName: '인하대학교', slug: 'inha', title: '인하대학교 가을 축제 축하공연', monthDay: [9, 10], time: '19:30', venue: { name: '인하대학교 대운동장', address: '인천 미추홀구 용현동 253', roadAddress: '인천 미추홀구 인하로 100', lat: 37.45, lng: 126.6545 } },
  { schoolName: '한양대학교', slug: 'hanyang', title: '한양대학교 가을 대동제 축하공연', monthDay: [9, 18], time: '20:30', venue: { name: '한양대학교 서울캠퍼스 노천극장', address: '서울 성동구 행당동 17', roadAddress: '서울 성동구 왕십리로 222', lat: 37.5572, lng: 127.0449 } },
  { schoolName: '경희대학교', slug: 'khu', title: '경희대학교 서울캠퍼스 가을 축제', monthDay: [9, 24], time: null, venue: { name: '경희대학교 서울캠퍼스 노천극장', address: '서울 동대문구 회기동 1', roadAddress: '서울 동대문구 경희대로 26', lat: 37.5967, lng: 127.0517 } },
  { schoolName: '중앙대학교', slug: 'cau', title: '중앙대학교 가을 축제 축하무대', monthDay: [10, 1], time: '20:00', venue: { name: '중앙대학교 서울캠퍼스 청룡광장', address: '서울 동작구 흑석동 221', roadAddress: '서울 동작구 흑석로 84', lat: 37.505, lng: 126.9571 } },
  { schoolName: '부산대학교', slug: 'pusan', title: '부산대학교 대동제 축하공연', monthDay: [10, 8], time: '19:00', venue: { name: '부산대학교 넉넉한터', address: '부산 금정구 장전동 30', roadAddress: '부산 금정구 부산대학로63번길 2', lat: 35.2336, lng: 129.08 } },
];

const POSTER_COLORS: Array<[string, string]> = [
  ['#14b8a6', '#1e3a8a'],
  ['#f97316', '#7c3aed'],
  ['#ec4899', '#1e1b4b'],
  ['#22c55e', '#0c4a6e'],
  ['#eab308', '#9f1239'],
  ['#06b6d4', '#312e81'],
];

// Programmes, stations, shops and magazines are fictional.
const MUSIC_SHOWS: Record<number, { show: string; channel: string; time: string }> = {
  2: { show: '뮤직 스테이지', channel: '누리TV', time: '18:00' },
  3: { show: '쇼! 뮤직플러스', channel: 'M채널', time: '18:00' },
  4: { show: '엠 라이브 카운트', channel: '누리뮤직', time: '18:00' },
  5: { show: '뮤직 익스프레스', channel: '한빛방송', time: '17:00' },
  6: { show: '토요 음악광장', channel: '한빛방송', time: '15:15' },
  0: { show: '인기 스테이지', channel: '누리TV', time: '15:20' },
};
const VARIETY_SHOWS = [
  { show: '주간 아이돌 토크', channel: 'M채널' },
  { show: '놀라운 퀴즈쇼', channel: '누리TV' },
  { show: '아이돌 요리왕', channel: '한빛방송' },
  { show: '런닝 스타', channel: '한빛방송' },
  { show: '아는 동생들', channel: '누리플러스' },
];
const RADIO_SHOWS = [
  { show: '한낮의 음악캠프', station: '한빛FM' },
  { show: '별빛 라디오', station: '누리라디오' },
  { show: '퇴근길 뮤직박스', station: '한빛FM' },
  { show: '심야의 플레이리스트', station: '누리라디오' },
];
const RECORD_SHOPS = ['뮤직플랜트', '레코드 스테이션', '별빛음반', '사운드 마켓'];
const FANSIGN_PLACES = ['영등포', '홍대', '강남', '명동', '잠실', '온라인 영상통화'];
const MAGAZINES = ['월간 무드', '스타일 온', '매거진 루체', '씨네 플레이'];
const VIDEO_TIMES = ['17:00', '18:00', '19:00', '20:00', '21:00'];
const SNS_TIMES = ['12:00', '18:30', '21:00', '22:00', '23:10'];
const RADIO_TIMES = ['12:00', '14:00', '18:00', '22:00'];

export function demoDataSet(year: number): DemoDataSet {
  const random = seededRandom(DEMO_SEED);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number) => random() < p;
  const everyone = DEMO_MEMBERS.map((member) => member.name);
  const someMembers = (count: number) => {
    const names = [...everyone];
    for (let i = names.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [names[i], names[j]] = [names[j]!, names[i]!];
    }
    return names.slice(0, count).sort((a, b) => everyone.indexOf(a) - everyone.indexOf(b));
  };
  const randomDay = (month: number) => isoDate(year, month, int(1, daysIn(year, month)));
  const ids = new Set<string>();
  const uniqueId = (make: () => string) => {
    let id = make();
    while (ids.has(id)) id = make();
    ids.add(id);
    return id;
  };
  const VIDEO_ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  const videoId = () => uniqueId(() => Array.from({ length: 11 }, () => pick([...VIDEO_ID_CHARS])).join(''));
  const postId = () => uniqueId(() => `18${Array.from({ length: 17 }, () => int(0, 9)).join('')}`);

  const albums = albumsOf(year);
  const single = albums[2]!;
  const comeback = single.releaseDate;
  const titleSong = single.tracks.find((track) => track.isTitleTrack)!.title;
  const autumnRelease = `${year}-09-17`;
  const autumnSong = '가을 정류장';
  const schedules: DemoSchedule[] = [];
  const add = (schedule: Omit<DemoSchedule, 'description' | 'source'> & Partial<Pick<DemoSchedule, 'description' | 'source'>>) =>
    schedules.push({ description: null, source: null, ...schedule });

  const officialVideo = (date: string, title: string, members: string[], videoType: 'video' | 'shorts' = 'video', time = pick(VIDEO_TIMES)) => {
    const id = videoId();
    add({
      categoryId: CATEGORY.video, title, date, time, members,
      source: { name: OFFICIAL_CHANNEL.channelName, url: `https://video.example.com/watch?v=${id}` },
      video: { videoId: id, ...OFFICIAL_CHANNEL, videoType },
    });
  };
  const officialPost = (date: string, title: string, members: string[], time: string | null, description: string | null = null) => {
    const id = postId();
    add({
      categoryId: CATEGORY.sns, title, date, time, members, description,
      source: { name: OFFICIAL_ACCOUNT.username, url: `https://microblog.example.com/${OFFICIAL_ACCOUNT.username}/status/${id}` },
      post: { postId: id, ...OFFICIAL_ACCOUNT },
    });
  };
  const musicShows = (from: string, days: number, song: string) => {
    for (let offset = 0; offset < days; offset++) {
      const date = addDays(from, offset);
      const show = MUSIC_SHOWS[weekday(date)];
      if (!show) continue;
      add({
        categoryId: CATEGORY.broadcast, title: `[${show.show}] 루미네 '${song}' ${offset < 7 ? '컴백 무대' : '무대'}`, date, time: show.time, members: everyone,
        source: { name: show.channel, url: null },
      });
    }
  };
  const fansigns = (from: string, days: number, count: number, albumTitle: string) => {
    for (let i = 0; i < count; i++) {
      const place = pick(FANSIGN_PLACES);
      const shop = pick(RECORD_SHOPS);
      add({
        categoryId: CATEGORY.fansign,
        title: `〈${albumTitle}〉 발매 기념 ${place === '온라인 영상통화' ? '영상통화' : '대면'} 팬사인회 (${shop}${place === '온라인 영상통화' ? '' : ` ${place}`})`,
        date: addDays(from, int(2, days)), time: pick(['13:00', '16:00', '19:00', '19:30']), members: everyone,
        source: { name: shop, url: null },
        description: place === '온라인 영상통화' ? '응모 기간 내 구매자 중 추첨, 당첨자 개별 연락.' : `${place} 매장 이벤트 홀. 응모는 구매 영수증 1장당 1회.`,
      });
    }
  };

  // Comeback in spring: pre-release, release and showcase, music shows, fansigns, radio, performance videos.
  add({ categoryId: CATEGORY.release, title: `선공개곡 '${single.tracks[1]!.title}' 음원 공개`, date: addDays(comeback, -14), time: '18:00', members: everyone, source: { name: OFFICIAL_CHANNEL.channelName, url: null } });
  officialPost(addDays(comeback, -21), `싱글앨범 〈${single.title}〉 컴백 스케줄러 공개`, everyone, '00:00', '앨범 발매까지의 콘텐츠 일정을 공개했습니다.');
  add({ categoryId: CATEGORY.release, title: `싱글앨범 〈${single.title}〉 발매`, date: comeback, time: '18:00', members: everyone, description: single.description });
  add({ categoryId: CATEGORY.concert, title: `싱글앨범 〈${single.title}〉 컴백 쇼케이스`, date: comeback, time: '16:00', members: everyone, description: '블루스퀘어 마스터카드홀. 팬 초청 쇼케이스, 온라인 동시 생중계.' });
  officialVideo(comeback, `루미네 '${titleSong}' MV`, everyone, 'video', '18:00');
  officialVideo(addDays(comeback, 3), `[Dance Practice] 루미네 '${titleSong}'`, everyone);
  officialVideo(addDays(comeback, 9), `'${titleSong}' MV 비하인드`, everyone);
  musicShows(addDays(comeback, 1), 21, titleSong);
  fansigns(comeback, 24, 6, single.title);
  add({ categoryId: CATEGORY.other, title: `〈${single.title}〉 팝업스토어 오픈`, date: addDays(comeback, 2), time: '11:00', members: [], description: '성수동, 2주간 운영. 한정 굿즈 판매.' });

  // Autumn: a digital single, a shorter round of music shows and fansigns.
  add({ categoryId: CATEGORY.release, title: `디지털 싱글 '${autumnSong}' 발매`, date: autumnRelease, time: '18:00', members: everyone });
  officialVideo(autumnRelease, `루미네 '${autumnSong}' MV`, everyone, 'video', '18:00');
  officialVideo(addDays(autumnRelease, 4), `[Dance Practice] 루미네 '${autumnSong}'`, everyone);
  musicShows(addDays(autumnRelease, 1), 14, autumnSong);
  fansigns(autumnRelease, 16, 4, autumnSong);

  // Other releases.
  add({ categoryId: CATEGORY.release, title: "드라마 〈여름의 끝에서〉 OST Part.2 '바람이 머무는 곳' — 서아", date: `${year}-07-19`, time: '18:00', members: ['강서아'], source: { name: '누리TV', url: null } });
  add({ categoryId: CATEGORY.release, title: "일본 데뷔 싱글 'Compass -Japanese ver.-' 발매", date: `${year}-11-19`, time: '00:00', members: everyone });

  // Concerts and fan meetings.
  add({ categoryId: CATEGORY.concert, title: '루미네 팬미팅 in 도쿄', date: `${year}-06-14`, time: '17:00', members: everyone, description: '도쿄 가든 시어터' });
  add({ categoryId: CATEGORY.concert, title: 'K-POP 드림 페스티벌', date: `${year}-06-21`, time: '18:00', members: everyone });
  add({ categoryId: CATEGORY.concert, title: '루미네 팬미팅 in 방콕', date: `${year}-07-05`, time: '18:00', members: everyone });
  add({ categoryId: CATEGORY.concert, title: '루미네 첫 번째 팬콘서트 〈LUMINOUS〉 DAY 1', date: `${year}-08-09`, time: '18:00', members: everyone, description: '올림픽공원 핸드볼경기장' });
  add({ categoryId: CATEGORY.concert, title: '루미네 첫 번째 팬콘서트 〈LUMINOUS〉 DAY 2', date: `${year}-08-10`, time: '17:00', members: everyone, description: '올림픽공원 핸드볼경기장. 온라인 생중계 동시 진행.' });
  add({ categoryId: CATEGORY.concert, title: '한강 뮤직 페스티벌', date: `${year}-10-18`, time: null, members: everyone, description: '출연 시간은 추후 공지' });
  add({ categoryId: CATEGORY.concert, title: '카운트다운 라이브', date: `${year}-12-31`, time: '23:00', members: everyone });
  add({ categoryId: CATEGORY.broadcast, title: `${year} 한빛 가요대축제`, date: `${year}-12-26`, time: '20:30', members: everyone, source: { name: '한빛방송', url: null } });
  add({ categoryId: CATEGORY.broadcast, title: `${year} 누리 뮤직 어워즈`, date: `${year}-12-20`, time: '19:00', members: everyone, source: { name: '누리TV', url: null } });
  add({ categoryId: CATEGORY.broadcast, title: `${year} 가요 대제전`, date: `${year}-12-31`, time: '20:40', members: everyone, source: { name: 'M채널', url: null } });

  // Other: anniversaries, fan club, tickets, birthday cafés (the day before each birthday: a
  // 29 February birthday gets its café on 28 February every year).
  const debut = albums[0]!.releaseDate;
  add({ categoryId: CATEGORY.other, title: `루미네 데뷔 ${year - Number(debut.slice(0, 4))}주년`, date: `${year}${debut.slice(4)}`, time: null, members: everyone });
  add({ categoryId: CATEGORY.other, title: "공식 팬클럽 '루미너스' 2기 모집", date: `${year}-02-03`, time: '12:00', members: [], description: '모집 기간 2주, 공식 팬카페에서 신청.' });
  add({ categoryId: CATEGORY.other, title: '팬콘서트 〈LUMINOUS〉 티켓 오픈', date: `${year}-07-08`, time: '20:00', members: [] });
  add({ categoryId: CATEGORY.other, title: `${year + 1} 시즌 그리팅 예약 판매`, date: `${year}-12-02`, time: '11:00', members: everyone });
  for (const member of DEMO_MEMBERS) {
    const [, month, day] = member.birthDate.split('-').map(Number);
    add({ categoryId: CATEGORY.other, title: `${member.name} 생일 기념 카페 이벤트`, date: isoDate(year, month!, day! - 1), time: null, members: [member.name], description: '팬 주최 생일 카페, 사흘간 운영.' });
  }

  // University festivals (events): venue, posts of the student council and of the group, posters.
  for (const [index, festival] of FESTIVALS.entries()) {
    const date = isoDate(year, festival.monthDay[0], festival.monthDay[1]);
    const colors = POSTER_COLORS[index % POSTER_COLORS.length]!;
    const when = `${koreanDate(date)}${festival.time ? ` ${festival.time}` : ''}`;
    const posters: DemoArtwork[] = [{ colors, kicker: 'LUMINE 루미네', title: festival.title, lines: [when, festival.venue.name] }];
    if (index % 2 === 0) posters.push({ colors: [colors[1], colors[0]], kicker: 'LINE-UP', title: '루미네', lines: [festival.schoolName, when] });
    const postUrls = [`https://microblog.example.com/${festival.slug}_council/status/${postId()}`];
    if (chance(0.5)) postUrls.push(`https://microblog.example.com/${OFFICIAL_ACCOUNT.username}/status/${postId()}`);
    add({
      categoryId: CATEGORY.event, title: festival.title, date, time: festival.time, members: everyone,
      description: `루미네가 ${festival.schoolName} 축제 무대에 오릅니다. 재학생 우선 입장, 일반 관람 구역은 별도 운영.`,
      event: { schoolName: festival.schoolName, venue: { ...festival.venue, map_id: `demo-${festival.slug}` }, postUrls, posters },
    });
  }

  // Every month: the group's own show, vlogs, shorts, posts, a variety show, radio and photo shoots.
  let episode = 30;
  for (let month = 1; month <= 12; month++) {
    for (const week of [int(1, 14), int(15, daysIn(year, month))]) {
      officialVideo(isoDate(year, month, week), `루미네 자체 예능 〈루미랜드〉 EP.${++episode}`, everyone, 'video', '20:00');
    }
    const vlogger = someMembers(1);
    officialVideo(randomDay(month), `[LUMI-LOG] ${vlogger[0]}의 하루`, vlogger);
    const dancers = someMembers(chance(0.5) ? 1 : 2);
    officialVideo(randomDay(month), `#${dancers.join(' #')} #${pick([titleSong, autumnSong, '반짝이는 밤', '너의 계절'])} 챌린지`, dancers, 'shorts', pick(SNS_TIMES));

    const live = DEMO_MEMBERS[int(0, DEMO_MEMBERS.length - 1)]!;
    add({ categoryId: CATEGORY.sns, title: `${live.name} 인스타그램 라이브`, date: randomDay(month), time: chance(0.3) ? null : pick(SNS_TIMES), members: [live.name], source: { name: live.instagram, url: null } });
    officialPost(isoDate(year, month, 1), `${month}월 스케줄 공개`, [], chance(0.25) ? null : '09:00');
    if (chance(0.5)) officialPost(randomDay(month), pick(['멤버 셀카 업데이트', '비하인드 사진 공개', '팬 여러분께 보내는 손편지']), someMembers(int(1, 3)), chance(0.3) ? null : pick(SNS_TIMES));

    const variety = pick(VARIETY_SHOWS);
    const guests = chance(0.5) ? everyone : someMembers(int(1, 2));
    add({ categoryId: CATEGORY.broadcast, title: `〈${variety.show}〉 ${guests.length === everyone.length ? '루미네' : guests.join(', ')} 출연`, date: randomDay(month), time: chance(0.15) ? null : pick(['17:00', '20:00', '22:30']), members: guests, source: { name: variety.channel, url: null } });

    if (chance(0.75)) {
      const radio = pick(RADIO_SHOWS);
      const guests = chance(0.4) ? everyone : someMembers(int(1, 2));
      add({ categoryId: CATEGORY.radio, title: `〈${radio.show}〉 게스트 출연`, date: randomDay(month), time: pick(RADIO_TIMES), members: guests, source: { name: radio.station, url: null } });
    }
    if (chance(0.6)) {
      const model = someMembers(chance(0.7) ? 1 : 2);
      const magazine = pick(MAGAZINES);
      add({ categoryId: CATEGORY.photoshoot, title: `[화보] ${model.join(' · ')} 〈${magazine}〉 ${month}월호`, date: randomDay(month), time: chance(0.6) ? null : '10:00', members: model, source: { name: magazine, url: null } });
    }
  }
  // The comeback's radio round.
  for (const offset of [2, 5, 9]) {
    const radio = pick(RADIO_SHOWS);
    add({ categoryId: CATEGORY.radio, title: `〈${radio.show}〉 루미네 컴백 특집`, date: addDays(comeback, offset), time: pick(RADIO_TIMES), members: everyone, source: { name: radio.station, url: null } });
  }

  schedules.sort((a, b) => a.date.localeCompare(b.date) || (a.time ?? '99').localeCompare(b.time ?? '99'));
  return { group: DEMO_GROUP, year, members: DEMO_MEMBERS, albums, schedules };
}
