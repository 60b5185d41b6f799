// How fans actually type: the shared rules in shared/korean/ that both search engines
// apply. Pure functions, no server; the engines' behaviour is in test/search-contract.ts and its
// quality table, and over HTTP in test/suggestions.test.ts.
import test from 'ava';
import { convertLayoutSlips, hangulFromLatinKeys } from '../shared/korean/layout.ts';
import { DEFAULT_SYNONYM_TABLE, parseSynonymLine, SynonymTable } from '../shared/korean/synonyms.ts';
import { parseUserDictionary } from '../shared/korean/dictionary.ts';
import { withoutTrailingParticles } from '../shared/korean/analyzer.ts';
import { MAX_REWRITES, MAX_VARIANTS_PER_WORD, queryRewrites, wordVariants } from '../shared/korean/query-rewrites.ts';
import { jamoEdits, matchesWithTypo, maxTypoEdits, typoSkeleton, typoSkeletons } from '../shared/korean/typo.ts';
import { synonymEntries } from '../shared/search/synonym-source.ts';
import { SuggestionIndex } from '../shared/korean/suggestion-index.ts';

test('layout: Latin keys of the 2-set layout read as the Hangul they spell; other Latin words are left alone', (t) => {
  t.is(hangulFromLatinKeys('fnalsp'), '루미네');
  t.is(hangulFromLatinKeys('dkssud'), '안녕');
  // Shifted keys keep their doubled consonant.
  t.is(hangulFromLatinKeys('Rkr'), '깍');
  // A half-typed last jamo is allowed; keys that spell no syllable are not Hangul.
  t.is(hangulFromLatinKeys('fnalsr'), '루민ㄱ');
  t.is(hangulFromLatinKeys('rrrr'), undefined);
  // Key runs es-hangul cannot assemble (it throws on them) are no Hangul word either.
  for (const keys of ['mlz', 'nnp', 'rnnp', 'qkqnnpz']) t.is(hangulFromLatinKeys(keys), undefined, keys);
  t.is(hangulFromLatinKeys('in'), undefined);
  t.is(hangulFromLatinKeys('mv'), undefined);
  t.is(hangulFromLatinKeys('a'), undefined, 'one letter');
  t.is(hangulFromLatinKeys('루미네'), undefined);
  t.is(convertLayoutSlips('fnalsp vosalxld'), '루미네 팬미팅');
  t.is(convertLayoutSlips('MV 루미네'), undefined);
});

test('synonyms: shipped fan shorthand, and the line format administrators write', (t) => {
  t.deepEqual(DEFAULT_SYNONYM_TABLE.alternativesOf('뮤비'), [['mv'], ['뮤직비디오']]);
  t.deepEqual(DEFAULT_SYNONYM_TABLE.alternativesOf('생카'), [['생일', '카페']]);
  for (const word of ['음방', '팬싸', '쇼케', '팬콘', '자컨']) t.true(DEFAULT_SYNONYM_TABLE.alternativesOf(word).length > 0, word);
  t.deepEqual(parseSynonymLine('  직캠 =>  직접 촬영 | Fancam '), { word: '직캠', alternatives: [['직접', '촬영'], ['fancam']] });
  t.regex(parseSynonymLine('=> MV') as string, /줄임말이 비어/);
  t.regex(parseSynonymLine('뮤 비 => MV') as string, /공백/);
  t.regex(parseSynonymLine('뮤비 =>  ') as string, /뜻이 비어/);
  t.regex(parseSynonymLine('뮤비 => a | b | c | d') as string, /3개까지/);
  t.regex(parseSynonymLine('뮤비 => a b c d') as string, /3단어까지/);
  t.regex(parseSynonymLine('뮤비 => MV => 뮤직비디오') as string, /하나만/);
  // An administrator's line replaces the shipped one for the same word; others stay.
  const table = new SynonymTable(synonymEntries('# 줄임말\n뮤비 => 뮤직비디오\n직캠 => fancam\n잘못된 줄 =>\n'));
  t.deepEqual(table.alternativesOf('뮤비'), [['뮤직비디오']]);
  t.deepEqual(table.alternativesOf('직캠'), [['fancam']]);
  t.deepEqual(table.alternativesOf('생카'), [['생일', '카페']]);
});

test('dictionary: synonym lines sit beside word lines; a bad one is reported with its line number', (t) => {
  const parsed = parseUserDictionary('# 사전\n루미네\tNNP\n뮤비 => MV\n팬 싸 => 팬사인회\n');
  t.deepEqual(parsed.entries, [{ word: '루미네', tag: 'NNP' }]);
  t.deepEqual(parsed.synonyms, [{ word: '뮤비', alternatives: [['mv']] }]);
  t.is(parsed.errors.length, 1);
  t.is(parsed.errors[0]!.line, 4);
  t.regex(parsed.errors[0]!.message, /^4번째 줄: /);
});

test('particles: trailing particles and endings are not required; a word keeps a syllable that ends it', (t) => {
  t.is(withoutTrailingParticles('나침반의'), '나침반');
  t.is(withoutTrailingParticles('팬미팅에서'), '팬미팅');
  t.is(withoutTrailingParticles('루미네에서도'), '루미네');
  t.is(withoutTrailingParticles('강서아가'), '강서아');
  t.is(withoutTrailingParticles('서아는'), '서아');
  t.is(withoutTrailingParticles('빛의'), undefined, 'one syllable would be left');
  t.is(withoutTrailingParticles('챌린지'), undefined);
  t.is(withoutTrailingParticles('mv를'), undefined, 'only Hangul words');
});

test('typos in keystrokes: a compound vowel missing its first key, a cluster final, two edits from five syllables', (t) => {
  // ㅘ typed ㅏ (the ㅗ dropped), ㅟ typed ㅣ, ㅝ typed ㅓ, ㅢ typed ㅣ: one edit each.
  for (const [word, slip] of [['화보', '하보'], ['퀴즈쇼', '키즈쇼'], ['월간', '얼간'], ['의자', '이자'], ['외대', '왜대']] as const) {
    t.is(typoSkeleton(slip), typoSkeleton(word), `${slip} → ${word}`);
    t.true(matchesWithTypo(`봄${word}축제`, slip), `${slip} in ${word}`);
  }
  // ㅘ typed ㅗ, ㅚ typed ㅗ, ㅟ typed ㅜ, ㅢ typed ㅡ (the second key missing), and the reverse
  // (an extra second key): one edit each, found through a text's or a word's second skeleton.
  for (const [word, slip] of [['화보', '호보'], ['퇴근길', '토근길'], ['퀴즈쇼', '쿠즈쇼'], ['의자', '으자'], ['콘서트', '콴서트'], ['무대', '뭐대'], ['월간', '울간'], ['화괴', '화고']] as const) {
    t.not(typoSkeleton(slip), typoSkeleton(word), `${slip} → ${word}`);
    t.true(matchesWithTypo(`봄${word}축제`, slip), `${slip} in ${word}`);
  }
  t.deepEqual(typoSkeletons('화보'), ['하보', '호보'], 'a compound also folds to its first key');
  t.deepEqual(typoSkeletons('대동제'), ['데도제'], 'no compound, one skeleton');
  t.false(matchesWithTypo('화보', '효보'), 'ㅘ/ㅛ: the second key dropped and the first changed');
  t.false(matchesWithTypo('화보', '호봐'), 'two keys moved in a short word');
  t.true(matchesWithTypo('화보촬영현장', '호보촐영현장'), 'a long word: two compounds missing their second key');
  // A missing cluster final is two keystrokes (ㄺ = ㄹ + ㄱ); one of its keys missing is one.
  t.is(jamoEdits('닭', 0, '다', 2), 2);
  t.is(jamoEdits('닭', 0, '달', 2), 1);
  t.false(matchesWithTypo('닭갈비', '다갈비'));
  t.true(matchesWithTypo('닭갈비', '달갈비'));
  // Five syllables or more forgive two keystrokes; fewer, one.
  t.is(maxTypoEdits('가요대축제'), 2);
  t.is(maxTypoEdits('대축제'), 1);
  t.true(matchesWithTypo('2026가요대축제', '가요데축재'));
  t.false(matchesWithTypo('가요대축제', '가요데축재데'), 'two edits and a syllable more');
  t.false(matchesWithTypo('축하공연', '축하궁언'), 'two edits in four syllables');
  t.false(matchesWithTypo('인스타그램', '인쓰타그렘그'), 'not the same length');
  t.true(matchesWithTypo('인스타그램', '인쓰타그렘'));
  t.false(matchesWithTypo('인스타그램라이브', '인쓰타그렘라이부'), 'three edits');
});

test('rewrites: variants per word and rewrites per query are capped, built rank by rank (linear in the words)', (t) => {
  t.deepEqual(queryRewrites(['나침반', '뮤비'], DEFAULT_SYNONYM_TABLE), [
    { kind: 'synonym', words: ['나침반', 'mv'] },
    { kind: 'synonym', words: ['나침반', '뮤직비디오'] },
  ]);
  t.deepEqual(queryRewrites(['팬미ㅌ'], DEFAULT_SYNONYM_TABLE), [{ kind: 'prefix', words: ['팬미', 'ㅍㅁㅌ'] }]);
  t.deepEqual(queryRewrites(['팬밑'], DEFAULT_SYNONYM_TABLE), [{ kind: 'prefix', words: ['팬미', 'ㅍㅁㅌ'] }]);
  t.deepEqual(queryRewrites(['루미랜드', 'ep45'], DEFAULT_SYNONYM_TABLE), [{ kind: 'spacing', words: ['루미랜드', 'ep', '45'] }]);
  // A number and its counter stay one word; shorthand for a phrase is searched as the phrase.
  t.deepEqual(queryRewrites(['대동제', '5월'], DEFAULT_SYNONYM_TABLE), []);
  t.deepEqual(queryRewrites(['서아', '생카'], DEFAULT_SYNONYM_TABLE), [{ kind: 'synonym', words: ['서아', '생일카페'] }]);
  t.deepEqual(queryRewrites(['fnalsp'], DEFAULT_SYNONYM_TABLE, ['루미네'])[0], { kind: 'layout', words: ['루미네'] });
  // Eight words, each with the most variants: still at most MAX_REWRITES rewrites of at most eight words.
  const greedy = new SynonymTable([{ word: '가나', alternatives: [['다라'], ['마바'], ['사아']] }], false);
  const words = Array.from({ length: 8 }, () => '가나');
  t.is(wordVariants('가나', greedy).length, MAX_VARIANTS_PER_WORD);
  const rewrites = queryRewrites(words.map((word, i) => `${word}${'가나다라마바사아'[i]}의`), greedy);
  t.true(rewrites.length <= MAX_REWRITES);
  for (const rewrite of rewrites) t.true(rewrite.words.length <= 8);
});

test('suggestions: several words complete in any order; Latin keys for Hangul suggest the Hangul first', (t) => {
  const index = new SuggestionIndex(
    ["루미네 '나침반' MV", '#강서아 #류채이 #가을 정류장 챌린지', '루미네 자체 예능 〈루미랜드〉 EP.45', '루미네 팬미팅 in 도쿄'].map((text) => ({ text, popularity: 0, lastUsedAt: 0 })),
  );
  t.deepEqual(index.suggest('루미네 MV'), ["루미네 '나침반' MV"]);
  t.deepEqual(index.suggest('챌린지 가을'), ['#강서아 #류채이 #가을 정류장 챌린지']);
  t.deepEqual(index.suggest('루미랜드 EP'), ['루미네 자체 예능 〈루미랜드〉 EP.45']);
  t.deepEqual(index.suggest('도쿄 팬밑'), ['루미네 팬미팅 in 도쿄'], 'the last word half-typed');
  t.is(index.suggest('fnalsp')[0], '루미네');
  t.true(index.suggest('fnalsp').includes('루미네 팬미팅 in 도쿄'));
  t.is(index.suggest('ep')[0], '루미네 자체 예능 〈루미랜드〉 EP.45', 'Latin that completes comes before its Hangul reading');
});
