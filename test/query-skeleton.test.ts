// The stored form of saved, popular and blocked queries (shared/korean/normalize.ts,
// `normalizeQuery`): the confusable skeleton of Unicode TS #39 over the normal form. Every
// look-alike spelling of a blocked query has the blocked query's stored form; Hangul, ASCII and
// digits are their own; the skeleton of a stored form is itself. Pure functions, no server.
import test from 'ava';
import { CONFUSABLE_ROWS } from '../shared/korean/confusables-data.ts';
import { normalizeQuery, normalizeText, SuggestionIndex } from '../shared/korean/index.ts';
import { BLOCKED_LOOK_ALIKES } from './helpers/look-alikes.ts';

test('the table of look-alikes: each of at least 50 spellings is stored as the query it imitates', (t) => {
  t.true(BLOCKED_LOOK_ALIKES.length >= 50);
  for (const { blocked, variant, why } of BLOCKED_LOOK_ALIKES) {
    t.not(variant, blocked);
    t.is(normalizeQuery(variant), normalizeQuery(blocked), why);
  }
});

test('strings that do not look alike stay apart: digits, ASCII look-alikes and distinct Hangul syllables', (t) => {
  for (const [a, b] of [
    ['2024 콘서트', '2O24 콘서트'],
    ['fromis_9', 'fromis_g'],
    ['l', '1'],
    ['rn', 'm'],
    ['개', '가丨'],
    ['ㅐ', 'ㅏ'],
    ['외', '오ㅣ'],
  ]) {
    t.not(normalizeQuery(a!), normalizeQuery(b!), `${a} / ${b}`);
  }
});

test('Hangul and printable ASCII are their own stored form (in lower case): every syllable, every compatibility jamo', (t) => {
  const syllables: string[] = [];
  for (let code = 0xac00; code <= 0xd7a3; code++) syllables.push(String.fromCharCode(code));
  const text = syllables.join('');
  t.is(normalizeQuery(`\u0441 ${text}`), `c ${text}`, 'syllables untouched on the slow path too');
  for (let code = 0x3131; code <= 0x318e; code++) {
    if (code === 0x3164) continue; // the Hangul filler draws nothing and goes
    const jamo = String.fromCharCode(code);
    t.is(normalizeQuery(`\u0441${jamo}`), `c${jamo}`, `U+${code.toString(16)}`);
  }
  t.is(normalizeQuery('Fromis_9 COMEBACK 2024!'), 'fromis_9 comeback 2024!');
});

test('the stored form of a stored form is itself, for every entry of the confusables table', (t) => {
  let checked = 0;
  for (const row of CONFUSABLE_ROWS) {
    for (const entry of row.split(',')) {
      const source = String.fromCodePoint(Number.parseInt(entry.split('>')[0]!, 16));
      for (const text of [source, `a${source}b`, `가${source}`, source.toUpperCase()]) {
        const stored = normalizeQuery(text);
        if (normalizeQuery(stored) !== stored) t.fail(`${entry}: ${JSON.stringify(stored)}`);
        checked++;
      }
    }
  }
  t.true(checked > 20_000);
});

test('a candidate taken out of the suggestion index completes and corrects nothing; its words stay for candidates that still hold them', (t) => {
  const index = new SuggestionIndex([
    { text: '별빛다리 쇼케이스', popularity: 0, lastUsedAt: 2 },
    { text: '별빛다리 팬미팅', popularity: 0, lastUsedAt: 1 },
    { text: '달무리 쇼케이스', popularity: 0, lastUsedAt: 0 },
  ]);
  t.deepEqual(index.suggest('별빛'), ['별빛다리 쇼케이스', '별빛다리 팬미팅']);
  t.true(index.remove('별빛다리  쇼케이스'));
  t.false(index.remove('별빛다리 쇼케이스'), 'already gone');
  t.is(index.size, 2);
  t.deepEqual(index.suggest('별빛'), ['별빛다리 팬미팅']);
  t.deepEqual(index.suggest('ㅂㅂㄷㄹ'), ['별빛다리 팬미팅']);
  t.deepEqual(index.suggest('쇼케'), ['달무리 쇼케이스']);
  t.is(index.correct('벌빛다리'), '별빛다리', 'a word another candidate holds still corrects');
  t.is(index.correct('쇼캐이스'), '쇼케이스');
  t.true(index.remove('달무리 쇼케이스'));
  t.deepEqual(index.suggest('쇼케'), []);
  t.is(index.correct('쇼캐이스'), undefined, 'a word no candidate holds any more corrects nothing');
  index.add({ text: '별빛다리 쇼케이스', popularity: 0, lastUsedAt: 3 });
  t.deepEqual(index.suggest('별빛'), ['별빛다리 쇼케이스', '별빛다리 팬미팅'], 'added again after its removal');
  t.is(normalizeText('별빛다리\u2800쇼케이스'), '별빛다리 쇼케이스', 'a blank braille cell is a space in the normal form too');
});
