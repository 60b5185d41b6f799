// How a query is read before either engine runs (shared/korean/query-understanding.ts): the rules as
// functions, then every kind over HTTP on the real service with the demo data seeded (its search
// index, analysis pool and administrators' dictionary).
import test from 'ava';
import { extractQueryDate } from '../shared/korean/query-dates.ts';
import { NUMBER_GROUPS, ordinalSuffix } from '../shared/korean/query-numbers.ts';
import { kanaToHangul } from '../shared/korean/kana.ts';
import { undecoratedKey, undecoratedText } from '../shared/korean/decorations.ts';
import { DEFAULT_LEXICON_TABLE, lexiconGroups, Lexicon, parseLexiconLine } from '../shared/korean/lexicon.ts';
import { LatinVocabulary, latinWordsOf, withinOneEdit } from '../shared/korean/latin-vocabulary.ts';
import { GAZETTEER_GROUPS } from '../shared/korean/gazetteer.ts';
import { hangulToLatin, latinToHangul, loanwordSpellings, romanizedToHangul, tenseSpellings } from '../shared/korean/transliterate.ts';
import { queryReadings, understandQuery, withTitleSpellings, wordForms } from '../shared/korean/query-understanding.ts';
import { parseUserDictionary } from '../shared/korean/dictionary.ts';
import { seedDemo } from '../shared/db/demo-seed.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';
import { DEMO_YEAR } from './search-quality.ts';

test('dates: M/D, M.D, M월 D일, D일 and a year are read out of the query; other numbers stay words', (t) => {
  t.like(extractQueryDate('강서아 5/20'), { text: '강서아', date: { month: 5, day: 20 } });
  t.like(extractQueryDate('5.20 카페'), { text: '카페', date: { month: 5, day: 20 } });
  t.like(extractQueryDate('5월 20일 생일'), { text: '생일', date: { month: 5, day: 20 } });
  t.like(extractQueryDate('5월20일'), { text: '', date: { month: 5, day: 20 } });
  t.like(extractQueryDate('2026.05.20.'), { date: { year: 2026, month: 5, day: 20 } });
  t.like(extractQueryDate('2026년 5월 20일'), { date: { year: 2026, month: 5, day: 20 } });
  t.like(extractQueryDate('20일 화보'), { text: '화보', date: { day: 20 } });
  t.like(extractQueryDate('2026년 5월 축제'), { text: '축제', date: { year: 2026, month: 5 } });
  for (const query of ['ep.45', 'ost part.2', '13/45', '2/30', '5월 대동제', '데뷔 2주년', '20일차 브이로그', 'day 2', '1.5배']) t.is(extractQueryDate(query).date, undefined, query);
});

test('dates in English and Japanese: month names either side of the day, ordinals, `the 3rd`, 月 and 日; month words alone in Korean', (t) => {
  t.like(extractQueryDate('june 12 팬미팅'), { text: '팬미팅', date: { month: 6, day: 12 } });
  t.like(extractQueryDate('12th of june'), { date: { month: 6, day: 12 } });
  t.like(extractQueryDate('jun 12th'), { date: { month: 6, day: 12 } });
  t.like(extractQueryDate('june 12, 2026 live'), { text: 'live', date: { year: 2026, month: 6, day: 12 } });
  t.deepEqual(extractQueryDate('the 3rd').date, { day: 3, text: 'the 3rd' });
  t.like(extractQueryDate('2026年6月12日 ライブ'), { text: 'ライブ', date: { year: 2026, month: 6, day: 12 } });
  t.like(extractQueryDate('12日'), { date: { day: 12 } });
  for (const query of ['3rd anniversary', 'feb 30', 'day 2', 'ep 12', '2nd mini album']) t.is(extractQueryDate(query).date, undefined, query);
  t.is(understandQuery('june 대동제').text, '6월 대동제');
  t.is(understandQuery('6月 콘서트').text, '6월 콘서트');
  t.is(understandQuery('may i').text, 'may i', 'may alone is no month');
});

test('numbers: ordinals and anniversaries in native Korean, English and Japanese read as one another', (t) => {
  const lexicon = new Lexicon(NUMBER_GROUPS);
  t.deepEqual(queryReadings(['1st', '팬콘서트'], lexicon)[0], ['첫번째', '팬콘서트']);
  t.deepEqual(queryReadings(['세', '번째'], lexicon)[1], ['3rd'], 'the title form stays first, then the English ordinal');
  t.deepEqual(queryReadings(['세돌'], lexicon)[0], ['3주년']);
  t.deepEqual(queryReadings(['3rd', 'anniversary'], lexicon)[0], ['3주년']);
  t.deepEqual(queryReadings(['second'], lexicon)[0], ['두번째']);
  t.is(ordinalSuffix(11), '11th');
  t.is(ordinalSuffix(22), '22nd');
});

test('kana: names and loanwords read as Hangul, the loanword reading then the name one (o as ㅓ, e as ㅐ)', (t) => {
  t.deepEqual(kanaToHangul('ショーケース'), ['쇼케이스', '쇼캐이스']);
  t.deepEqual(kanaToHangul('ハリン'), ['하린']);
  t.deepEqual(kanaToHangul('はりん'), ['하린'], 'hiragana reads as katakana');
  t.deepEqual(kanaToHangul('ソア'), ['소아', '서아']);
  t.deepEqual(kanaToHangul('チェイ'), ['체이', '채이']);
  t.deepEqual(kanaToHangul('ファンミーティング'), ['판미팅']);
  t.deepEqual(kanaToHangul('東京'), [], 'kanji are the lexicon\'s and the gazetteer\'s');
  t.deepEqual(kanaToHangul('lumine'), []);
  t.deepEqual(queryReadings(['ソア', '생일'], DEFAULT_LEXICON_TABLE), [['소아', '생일'], ['서아', '생일']]);
});

test('Latin slips: a word one edit from a known term reads as that term; short words, two candidates and two edits do not', (t) => {
  t.is(DEFAULT_LEXICON_TABLE.nearestTerm('fanmeting'), 'fanmeeting');
  t.is(DEFAULT_LEXICON_TABLE.nearestTerm('showcsae'), 'showcase', 'two letters swapped');
  t.is(DEFAULT_LEXICON_TABLE.nearestTerm('challange'), 'challenge');
  t.is(DEFAULT_LEXICON_TABLE.nearestTerm('birtday'), 'birthday');
  t.is(DEFAULT_LEXICON_TABLE.nearestTerm('liev'), undefined, 'under five letters');
  t.is(DEFAULT_LEXICON_TABLE.nearestTerm('chalenje'), undefined, 'two edits');
  t.is(DEFAULT_LEXICON_TABLE.nearestTerm('showcase'), undefined, 'a term is itself');
  t.deepEqual(queryReadings(['fanmeting'], DEFAULT_LEXICON_TABLE)[0], ['팬미팅']);
  t.true(withinOneEdit('tokio', 'tokyo') && withinOneEdit('seol', 'seoul') && !withinOneEdit('seoul', 'busan'));
});

test('Latin slips of the documents\' own words: read as the word spelled right, beside the other words as typed; a word a title spells is no slip', (t) => {
  const lexicon = new Lexicon();
  t.is(lexicon.nearestTerm('practise'), undefined, 'not a term of the lexicon');
  const titles = new LatinVocabulary(['dance', 'practice', 'lumilog', 'serenade', 'serenata']);
  const inTitles = (...words: string[]) => new Map(words.map((word) => [word, titles.lookup(word)]));
  t.is(lexicon.nearestTerm('practise', titles.lookup('practise')), 'practice');
  t.is(lexicon.nearestTerm('lumilgo', titles.lookup('lumilgo')), 'lumilog', 'two letters swapped');
  t.is(lexicon.nearestTerm('serenada', titles.lookup('serenada')), undefined, 'one edit from two words: no guess');
  t.is(lexicon.nearestTerm('practice', titles.lookup('practice')), undefined, 'a title\'s word is itself');
  t.deepEqual(queryReadings(['dance', 'practise'], lexicon, undefined, inTitles('dance', 'practise'))[0], ['dance', 'practice']);
  t.true(wordForms('practise', lexicon, inTitles('practise')).includes('practice'));
  // The documents' words beside the lexicon's terms: one edit from one of each is two candidates.
  t.is(lexicon.nearestTerm('showcas', new LatinVocabulary(['showcast']).lookup('showcas')), undefined);
  t.is(new LatinVocabulary(['ab', '가나다라마', 'practice', 'practice']).size, 1, 'short and non-Latin words are not filed');
});

test('the titles\' Latin words: joined across a hyphen or dot as in the keys, held while a title holds them', (t) => {
  t.deepEqual(latinWordsOf("[lumi-log] dance practice 'compass -japanese ver.-' ep.45 ab"), ['lumilog', 'dance', 'practice', 'compass', 'japanese']);
  const titles = new LatinVocabulary();
  for (const word of ['practice', 'practice']) titles.add(word);
  titles.remove('practice');
  t.deepEqual(titles.lookup('practise'), ['practice'], 'a second title still holds it');
  titles.remove('practice');
  t.deepEqual(titles.lookup('practise'), [], 'gone with the last title');
  t.is(titles.size, 0);
});

test('places read as the name the documents hold in every reading: the second reading changes the other words only', (t) => {
  const lexicon = new Lexicon(GAZETTEER_GROUPS);
  t.deepEqual(queryReadings(['incheon', 'festival'], lexicon), [['인천', '페스티벌'], ['인천', '축제']]);
  t.deepEqual(queryReadings(['los', 'angeles'], lexicon), [['로스앤젤레스']]);
  t.deepEqual(queryReadings(['東京'], lexicon), [['도쿄']]);
});

test('tense spellings: tense initials read as the aspirated consonant, then the plain one; finals stay', (t) => {
  t.deepEqual(tenseSpellings('까페'), ['카페', '가페']);
  t.deepEqual(tenseSpellings('쑈케이스'), ['쇼케이스'], 'ㅆ has one reading');
  t.deepEqual(tenseSpellings('께스트'), ['케스트', '게스트']);
  t.deepEqual(tenseSpellings('빠리'), ['파리', '바리']);
  t.deepEqual(tenseSpellings('했다'), [], 'a tense final is grammar');
  t.deepEqual(tenseSpellings('콘서트'), []);
  t.deepEqual(queryReadings(['쑈캐이스'], DEFAULT_LEXICON_TABLE)[0], ['쇼캐이스']);
});

test('decorations: brackets, quotes and emoji are dropped alike from documents and queries; Latin runs join', (t) => {
  t.is(undecoratedKey('[LUMI-LOG] 윤하린의 하루'), 'lumilog윤하린의하루');
  t.is(undecoratedKey("루미네 '나침반' MV 💜"), '루미네나침반mv');
  t.is(undecoratedText('〈루미랜드〉EP.45'), '루미랜드 ep45');
  t.is(undecoratedText('루미네,나침반!!'), '루미네 나침반');
  t.deepEqual(understandQuery('［ＬＵＭＩ－ＬＯＧ］\u00ad'), { text: 'lumilog' });
  t.deepEqual(understandQuery('퀴즈\u200b쇼 🎂'), { text: '퀴즈쇼' });
  t.deepEqual(understandQuery('💜'), { text: '' });
});

test('lexicon: one group a line, every term the same word, the first the title form; both directions read', (t) => {
  t.like(parseLexiconLine('셀카 <=> selfie | Selca | 셀피'), { terms: [['셀카'], ['selfie'], ['selca'], ['셀피']] });
  t.regex(parseLexiconLine('셀카 <=>  ') as string, /두 개 이상/);
  t.regex(parseLexiconLine('a <=> b <=> c') as string, /하나만/);
  t.regex(parseLexiconLine('a <=> b c d e') as string, /3단어까지/);
  // English to Korean, a spelling to the title's, and Korean to English in the second reading.
  t.deepEqual(queryReadings(['instagram', 'live'], DEFAULT_LEXICON_TABLE)[0], ['인스타그램라이브']);
  t.deepEqual(queryReadings(['season', 'greetings'], DEFAULT_LEXICON_TABLE)[0], ['시즌그리팅']);
  t.deepEqual(queryReadings(['셀카'], DEFAULT_LEXICON_TABLE), [['selfie']]);
  t.is(withTitleSpellings('인스타그람 라이브', DEFAULT_LEXICON_TABLE), '인스타그램 라이브');
  t.is(withTitleSpellings('시즌 그리팅스', DEFAULT_LEXICON_TABLE), '시즌 그리팅');
  // An administrator's group adds to the shipped ones; the dictionary accepts the line.
  const lexicon = new Lexicon(lexiconGroups('# 같은 말\n루미네 <=> lumine | 루미내\n'));
  t.deepEqual(queryReadings(['루미내'], lexicon), [['루미네'], ['lumine']], 'the title form, then the other script');
  t.deepEqual(parseUserDictionary('루미네 <=> lumine\n루미네\tNNP\n').errors, []);
  t.is(parseUserDictionary('루미네 <=>\n').errors[0]?.line, 1);
});

test('transliteration: Latin words read as Hangul by loanword rules, Hangul loanwords as Latin; spellings are one word', (t) => {
  t.is(latinToHangul('lumiland')[0], '루미랜드');
  t.is(latinToHangul('lumilog')[0], '루미로그');
  t.is(latinToHangul('luminous')[0], '루미너스');
  t.true(latinToHangul('harin').includes('하린'));
  t.true(latinToHangul('ost').includes('오에스티'));
  t.is(hangulToLatin('루미로그')[0], 'lumilog');
  t.is(hangulToLatin('오에스티')[0], 'ost');
  t.true(hangulToLatin('루미너스').includes('luminous'));
  t.deepEqual(hangulToLatin('나침반'), [], 'a Korean word is no loanword');
  // Romanised Korean, as fans abroad write titles and names.
  t.deepEqual(romanizedToHangul('nachimban'), ['나침반']);
  t.deepEqual(romanizedToHangul('jeongryujang'), ['정류장']);
  t.true(romanizedToHangul('gaeul').includes('가을'));
  t.deepEqual(romanizedToHangul('lumiland'), [], 'no parse into syllables');
  t.true(loanwordSpellings('그리팅스').includes('그리팅'));
  t.true(loanwordSpellings('어워드').includes('어워즈'));
  t.true(loanwordSpellings('인스타그람').includes('인스타그램'));
});

let service: TestService;
test.before(async () => {
  service = await startTestService();
  const outcome = await seedDemo(service.running.services, { year: DEMO_YEAR, imageWidth: 200 });
  if (!outcome.seeded) throw new Error(`demo seed: ${outcome.reason}`);
});
test.after.always(async () => {
  await service?.stop();
});

type Found = { schedules: { title: string; date: string }[]; total: number; ignoredWords?: string[] };
const search = async (query: string, limit = 5): Promise<Found> => {
  const response = await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent(query)}&limit=${limit}`);
  if (response.status !== 200) throw new Error(`search ${query}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Found;
};
const titles = async (query: string) => (await search(query)).schedules.map((schedule) => schedule.title);

test.serial('service: English words find the Korean titles, and Korean words the English ones', async (t) => {
  t.true((await titles('popup store')).some((title) => title.includes('팝업스토어')));
  t.true((await titles('fan club')).some((title) => title.includes('팬클럽')));
  t.true((await titles('selfie')).some((title) => title.includes('셀카')));
  t.true((await titles('debut anniversary')).some((title) => title.includes('데뷔 2주년')));
  t.true((await titles('안무 영상')).every((title) => title.includes('Dance Practice')));
});

test.serial('service: Latin title words by their Hangul spelling and Hangul ones by their Latin word', async (t) => {
  t.true((await titles('루미로그')).every((title) => title.startsWith('[LUMI-LOG]')));
  t.true((await titles('오에스티')).some((title) => title.includes('OST')));
  t.true((await titles('lumiland')).every((title) => title.includes('루미랜드')));
});

test.serial('service: loanword spellings and decorations are the same word, with nothing left out', async (t) => {
  for (const query of ['시즌 그리팅스', '인스타그람', 'ＯＳＴ', '〈팝업스토어〉', '퀴즈\u00ad쇼', '💜나침반💜']) {
    const found = await search(query);
    t.true(found.total > 0, query);
    t.is(found.ignoredWords, undefined, query);
  }
});

test.serial('service: a date in the query filters by that day; a date no schedule has is named as left out', async (t) => {
  const day = await search('강서아 5/20');
  t.deepEqual(day.schedules.map((schedule) => schedule.date), [`${DEMO_YEAR}-05-20`]);
  t.is(day.schedules[0]!.title, '강서아 생일 기념 카페 이벤트');
  for (const schedule of (await search('20일', 20)).schedules) t.true(schedule.date.endsWith('-20'), schedule.date);
  const moved = await search('나침반 MV 1/3');
  t.true(moved.schedules.length > 0);
  t.deepEqual(moved.ignoredWords, ['1/3']);
});

test.serial('service: of several signals the weakest goes first (the group name), and is named', async (t) => {
  const cafe = await search('루미네 다온 카페');
  t.is(cafe.schedules[0]?.title, '백다온 생일 기념 카페 이벤트');
  t.deepEqual(cafe.ignoredWords, ['루미네']);
  const live = await search('루미네 채이 라이브');
  t.is(live.schedules[0]?.title, '류채이 인스타그램 라이브');
  // The group's own appearances still answer a query about them.
  t.true((await titles('루미네 출연')).every((title) => title.includes('루미네 출연')));
});

test.serial('service: an administrator\'s lexicon line applies to the next searches, without a rebuild', async (t) => {
  t.is((await search('starlight')).total, 0);
  const token = await adminToken(service.url);
  const current = await call(service.url, 'GET', '/api/schedules/suggestions/dict', { token });
  const content = `${(current.body as { content: string }).content}\n루미네 <=> starlight\n`;
  t.is((await call(service.url, 'PUT', '/api/schedules/suggestions/dict', { token, json: { content } })).status, 200);
  // The dictionary is looked at once a second at most, and result pages are cached for ten seconds.
  let found = 0;
  for (let attempt = 0; attempt < 40 && found === 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    found = (await search('starlight')).total;
  }
  t.true(found > 0);
});

test.serial('service: suggestions read the query the same way (an English word or a spelling suggests the Korean title)', async (t) => {
  const suggest = async (q: string) => {
    const response = await call(service.url, 'GET', `/api/schedules/suggestions/?q=${encodeURIComponent(q)}`);
    t.is(response.status, 200, q);
    return JSON.stringify(response.body);
  };
  t.regex(await suggest('fan club'), /팬클럽/);
  t.regex(await suggest('popup store'), /팝업스토어/);
  t.regex(await suggest('인스타그람'), /인스타그램 라이브/);
  t.regex(await suggest('season greetings'), /시즌 그리팅/);
  t.regex(await suggest('lumiland'), /루미랜드/);
});
