// Hangul ⇄ Latin for words in titles, by rule: a Latin word read as Hangul by the common patterns of
// English loanwords (`lumiland` → 루미랜드, `lumilog` → 루미로그, `luminous` → 루미너스) and of romanised
// Korean (`daon` → 다온, `seoa` → 서아); a Hangul loanword read as Latin, letter names first (`오에스티` →
// ost, `엠브이` → mv), else syllable by syllable with the vowel ㅡ that Korean adds between consonants
// left out (`루미로그` → lumilog); and loanword spellings that are one word (`그리팅스`, `그리팅`;
// `어워드`, `어워즈`). At most two readings a word, best first: each is one more search, only when the
// words as typed match nothing well. Irregular words (`behind`, `radio`, `selfie`) are the lexicon's.
import { disassembleCompleteCharacter } from 'es-hangul';

/** Readings of one word. */
export const MAX_READINGS = 2;

const HANGUL_WORD = /^[가-힣]+$/;
const LATIN_WORD = /^[a-z]+$/;

// ---------------------------------------------------------------- Latin → Hangul

type Sound = { kind: 'c'; jamo: string; final?: string; glide?: 'w' | 'y' } | { kind: 'v'; jamo: string[] };

/** Vowel spellings, longest first; two alternatives where English spells one sound two ways (a: ㅐ/ㅏ). */
const VOWELS: [string, string[][]][] = [
  ['ous', [['ㅓ']]],
  ['eo', [['ㅓ']]],
  ['ae', [['ㅐ']]],
  ['eu', [['ㅡ']]],
  ['ee', [['ㅣ']]],
  ['ea', [['ㅣ']]],
  ['oo', [['ㅜ']]],
  ['ou', [['ㅏ', 'ㅜ'], ['ㅜ']]],
  ['ai', [['ㅔ', 'ㅣ'], ['ㅏ', 'ㅣ']]],
  ['ay', [['ㅔ', 'ㅣ']]],
  ['ei', [['ㅔ', 'ㅣ']]],
  ['ey', [['ㅔ', 'ㅣ']]],
  ['oa', [['ㅗ']]],
  ['ow', [['ㅏ', 'ㅜ'], ['ㅗ', 'ㅜ']]],
  ['au', [['ㅗ']]],
  ['ui', [['ㅟ']]],
  ['a', [['ㅐ'], ['ㅏ']]],
  ['e', [['ㅔ']]],
  ['i', [['ㅣ']]],
  ['o', [['ㅗ'], ['ㅓ']]],
  ['u', [['ㅜ'], ['ㅓ']]],
];
/** Consonant spellings, longest first: the initial jamo, and the final it may close a syllable with. */
const CONSONANTS: [string, string, string?][] = [
  ['tch', 'ㅊ'],
  ['sch', 'ㅅ'],
  ['ch', 'ㅊ'],
  ['sh', 'ㅅ'],
  ['th', 'ㅅ'],
  ['ph', 'ㅍ'],
  ['ck', 'ㅋ', 'ㄱ'],
  ['ng', 'ㅇ', 'ㅇ'],
  ['ll', 'ㄹ', 'ㄹ'],
  ['ss', 'ㅅ'],
  ['b', 'ㅂ'],
  ['c', 'ㅋ', 'ㄱ'],
  ['d', 'ㄷ'],
  ['f', 'ㅍ'],
  ['g', 'ㄱ'],
  ['h', 'ㅎ'],
  ['j', 'ㅈ'],
  ['k', 'ㅋ', 'ㄱ'],
  ['l', 'ㄹ', 'ㄹ'],
  ['m', 'ㅁ', 'ㅁ'],
  ['n', 'ㄴ', 'ㄴ'],
  ['p', 'ㅍ', 'ㅂ'],
  ['q', 'ㅋ'],
  ['r', 'ㄹ'],
  ['s', 'ㅅ'],
  ['t', 'ㅌ', 'ㅅ'],
  ['v', 'ㅂ'],
  ['w', 'ㅇ'],
  ['x', 'ㅋ'],
  ['y', 'ㅇ'],
  ['z', 'ㅈ'],
];
const INITIALS = 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ';
const MEDIALS = 'ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ';
const FINALS = ['', 'ㄱ', 'ㄲ', 'ㄳ', 'ㄴ', 'ㄵ', 'ㄶ', 'ㄷ', 'ㄹ', 'ㄺ', 'ㄻ', 'ㄼ', 'ㄽ', 'ㄾ', 'ㄿ', 'ㅀ', 'ㅁ', 'ㅂ', 'ㅄ', 'ㅅ', 'ㅆ', 'ㅇ', 'ㅈ', 'ㅊ', 'ㅋ', 'ㅌ', 'ㅍ', 'ㅎ'];
/** Glides: w or y before a vowel makes one compound vowel (`wa` → ㅘ, `yu` → ㅠ). */
const GLIDES: Record<string, Record<string, string>> = {
  w: { ㅏ: 'ㅘ', ㅐ: 'ㅙ', ㅓ: 'ㅝ', ㅔ: 'ㅞ', ㅣ: 'ㅟ', ㅗ: 'ㅝ', ㅜ: 'ㅜ' },
  y: { ㅏ: 'ㅑ', ㅐ: 'ㅒ', ㅓ: 'ㅕ', ㅔ: 'ㅖ', ㅗ: 'ㅛ', ㅜ: 'ㅠ', ㅣ: 'ㅣ' },
};

const syllable = (initial: string, medial: string, final = '') =>
  String.fromCharCode(0xac00 + (INITIALS.indexOf(initial) * 21 + MEDIALS.indexOf(medial)) * 28 + FINALS.indexOf(final));

/** The sounds of a Latin word, reading each vowel spelling by its `choice`-th alternative (or its only one). */
function sounds(word: string, choice: number): Sound[] {
  const out: Sound[] = [];
  let i = 0;
  // A silent e at the end after a consonant (`live`, `stage`): not a syllable of its own.
  const end = word.length > 3 && word.endsWith('e') && !/[aeiou]/.test(word[word.length - 2]!) ? word.length - 1 : word.length;
  while (i < end) {
    const vowel = VOWELS.find(([spelling]) => word.startsWith(spelling, i) && i + spelling.length <= end);
    if (vowel) {
      const alternatives = vowel[1];
      out.push({ kind: 'v', jamo: alternatives[Math.min(choice, alternatives.length - 1)]! });
      // `ous` keeps its s.
      i += vowel[0] === 'ous' ? 2 : vowel[0].length;
      continue;
    }
    const consonant = CONSONANTS.find(([spelling]) => word.startsWith(spelling, i));
    if (!consonant) return [];
    const [spelling, jamo, final] = consonant;
    // c and g before e, i, y are soft (`dance`, `stage`): ㅅ and ㅈ.
    const next = word[i + spelling.length] ?? (end < word.length ? 'e' : '');
    const soft = (spelling === 'c' && /[eiy]/.test(next)) || (spelling === 'g' && end < word.length && i + 1 === end);
    if (spelling === 'x') out.push({ kind: 'c', jamo: 'ㅋ', final: 'ㄱ' }, { kind: 'c', jamo: 'ㅅ' });
    else if (spelling === 'w' || spelling === 'y') out.push({ kind: 'c', jamo: 'ㅇ', glide: spelling });
    else out.push({ kind: 'c', jamo: soft ? (spelling === 'c' ? 'ㅅ' : 'ㅈ') : jamo, ...(final && !soft ? { final } : {}) });
    i += spelling.length;
  }
  return out;
}

/** Syllables of the sounds: a consonant before a vowel opens its syllable, a consonant that can close one does, any other takes ㅡ (ㅣ after ㅊ, ㅈ, ㅅ of sh). */
function assemble(list: Sound[]): string {
  let out = '';
  for (let i = 0; i < list.length; i++) {
    const sound = list[i]!;
    if (sound.kind === 'v') {
      // A vowel with no consonant before it: ㅇ.
      out += vowels('ㅇ', sound.jamo);
      i = skipFinal(list, i, (final) => (out = withFinal(out, final)));
      continue;
    }
    const next = list[i + 1];
    if (next?.kind === 'v') {
      out += vowels(sound.jamo, next.jamo);
      i = skipFinal(list, i + 1, (final) => (out = withFinal(out, final)));
      continue;
    }
    out += syllable(sound.jamo, sound.jamo === 'ㅊ' || sound.jamo === 'ㅈ' ? 'ㅣ' : 'ㅡ');
  }
  return out;
}

/** The syllables of one vowel sound (a diphthong is two: ㅏ+ㅜ → 아우) after `initial`. */
function vowels(initial: string, jamo: string[]): string {
  return jamo.map((medial, i) => syllable(i === 0 ? initial : 'ㅇ', medial)).join('');
}

/**
 * After the vowel at `at`: a consonant that can close the syllable (m, n, ng, l, and the voiceless
 * stops k, p, t) and is not followed by a vowel is added as its final through `close`; returns the
 * index of the last sound used.
 */
function skipFinal(list: Sound[], at: number, close: (final: string) => void): number {
  const next = list[at + 1];
  if (next?.kind !== 'c' || next.final === undefined) return at;
  const after = list[at + 2];
  if (after?.kind === 'v') return at;
  // A voiceless stop or a sonorant closes the syllable (`pop` → 팝, `land` → 랜드); b, d, g and the
  // other consonants take ㅡ (`log` → 로그), which `assemble` adds.
  close(next.final);
  return at + 1;
}

function withFinal(text: string, final: string): string {
  const last = text.charCodeAt(text.length - 1) - 0xac00;
  if (last < 0 || last % 28 !== 0) return text;
  return text.slice(0, -1) + String.fromCharCode(0xac00 + last + FINALS.indexOf(final));
}

/** Letter names, for a Latin word without vowels (`mv`, `ost` has one: both read). */
const LETTER_NAMES: Record<string, string> = {
  a: '에이', b: '비', c: '씨', d: '디', e: '이', f: '에프', g: '지', h: '에이치', i: '아이', j: '제이', k: '케이', l: '엘', m: '엠',
  n: '엔', o: '오', p: '피', q: '큐', r: '알', s: '에스', t: '티', u: '유', v: '브이', w: '더블유', x: '엑스', y: '와이', z: '지',
};

/** Hangul readings of a Latin word (lowercase letters), best first, at most MAX_READINGS. */
export function latinToHangul(word: string): string[] {
  if (!LATIN_WORD.test(word) || word.length < 2 || word.length > 30) return [];
  const readings: string[] = [];
  const add = (reading: string) => {
    if (reading !== '' && !readings.includes(reading) && readings.length < MAX_READINGS) readings.push(reading);
  };
  // A word without vowels is spelled out (`mv` → 엠브이); one of three letters is read, then spelled (`ost`: 오스트, 오에스티).
  const spelled = [...word].map((letter) => LETTER_NAMES[letter]).join('');
  if (!/[aeiouy]/.test(word)) add(spelled);
  for (let choice = 0; choice < 2; choice++) {
    const list = glided(sounds(word, choice));
    if (list.length > 0) add(assemble(list));
    if (word.length <= 3) add(spelled);
  }
  return readings;
}

/** w and y before a vowel join it as one compound vowel (`wa` → 와, `yu` → 유). */
function glided(list: Sound[]): Sound[] {
  const out: Sound[] = [];
  for (let i = 0; i < list.length; i++) {
    const sound = list[i]!;
    const next = list[i + 1];
    const glide = sound.kind === 'c' && sound.glide !== undefined ? GLIDES[sound.glide] : undefined;
    if (glide && next?.kind === 'v' && glide[next.jamo[0]!]) {
      out.push({ kind: 'v', jamo: [glide[next.jamo[0]!]!, ...next.jamo.slice(1)] });
      i++;
      continue;
    }
    out.push(sound);
  }
  return out;
}

// ---------------------------------------------------------------- Hangul → Latin

const HANGUL_LETTERS: [string, string][] = Object.entries(LETTER_NAMES)
  .map(([letter, name]): [string, string] => [name, letter])
  .concat([['시', 'c'], ['쥐', 'g'], ['에치', 'h'], ['제트', 'z'], ['비', 'v'], ['더블류', 'w']])
  .sort((a, b) => b[0].length - a[0].length);

/** The letters a Hangul word spells by their names (`오에스티` → ost), or undefined. */
function letterNames(word: string): string | undefined {
  let out = '';
  for (let i = 0; i < word.length; ) {
    const name = HANGUL_LETTERS.find(([hangul]) => word.startsWith(hangul, i));
    if (!name) return undefined;
    out += name[1];
    i += name[0].length;
  }
  return out.length >= 2 ? out : undefined;
}

const INITIAL_LATIN: Record<string, [string, string]> = {
  ㄱ: ['g', 'g'], ㄲ: ['k', 'kk'], ㄴ: ['n', 'n'], ㄷ: ['d', 'd'], ㄸ: ['t', 'tt'], ㄹ: ['l', 'l'], ㅁ: ['m', 'm'], ㅂ: ['b', 'v'],
  ㅃ: ['p', 'pp'], ㅅ: ['s', 's'], ㅆ: ['s', 'ss'], ㅇ: ['', ''], ㅈ: ['j', 'z'], ㅉ: ['j', 'jj'], ㅊ: ['ch', 'ch'], ㅋ: ['k', 'c'],
  ㅌ: ['t', 't'], ㅍ: ['p', 'f'], ㅎ: ['h', 'h'],
};
const MEDIAL_LATIN: Record<string, [string, string]> = {
  ㅏ: ['a', 'a'], ㅐ: ['a', 'ae'], ㅑ: ['ya', 'ya'], ㅒ: ['ya', 'yae'], ㅓ: ['o', 'u'], ㅔ: ['e', 'e'], ㅕ: ['yeo', 'yo'], ㅖ: ['ye', 'ye'],
  ㅗ: ['o', 'o'], ㅘ: ['wa', 'wa'], ㅙ: ['wae', 'we'], ㅚ: ['oe', 'we'], ㅛ: ['yo', 'yo'], ㅜ: ['u', 'u'], ㅝ: ['wo', 'wo'], ㅞ: ['we', 'we'],
  ㅟ: ['wi', 'wi'], ㅠ: ['yu', 'u'], ㅡ: ['eu', 'u'], ㅢ: ['ui', 'ui'], ㅣ: ['i', 'i'],
};
const FINAL_LATIN: Record<string, string> = {
  ㄱ: 'k', ㄲ: 'k', ㄴ: 'n', ㄷ: 't', ㄹ: 'l', ㅁ: 'm', ㅂ: 'p', ㅅ: 't', ㅆ: 't', ㅇ: 'ng', ㅈ: 't', ㅊ: 't', ㅋ: 'k', ㅌ: 't', ㅍ: 'p', ㅎ: '',
};

/** The syllables with ㅡ that loanwords add after a consonant (그, 스, 드, 트, 크, 프, 즈, 브; 치 and 지 at the end). */
const EPENTHETIC = /[그느드르므브스즈츠크트프흐]$|[그느드르므브스즈츠크트프흐][가-힣]/;

/** Whether a Hangul word looks like a loanword: a syllable of consonant and ㅡ after the first, or only letter names. */
export function looksLikeLoanword(word: string): boolean {
  return HANGUL_WORD.test(word) && word.length >= 2 && (EPENTHETIC.test(word.slice(1)) || letterNames(word) !== undefined);
}

/** Latin readings of a Hangul loanword, best first, at most MAX_READINGS. */
export function hangulToLatin(word: string): string[] {
  if (!looksLikeLoanword(word) || word.length > 20) return [];
  const readings: string[] = [];
  const letters = letterNames(word);
  if (letters) readings.push(letters);
  for (let choice = 0; choice < 2 && readings.length < MAX_READINGS; choice++) {
    let out = '';
    const chars = [...word];
    for (const char of chars) {
      const { choseong, jungseong, jongseong } = disassembleCompleteCharacter(char)!;
      // ㄹ is read l, as in most coined titles (`lumi`, `log`); r words (`radio`) are the lexicon's.
      const initial = INITIAL_LATIN[choseong]?.[choice] ?? '';
      // ㅡ without a final after the first syllable is the vowel Korean adds between consonants.
      const silent = jungseong === 'ㅡ' && jongseong === '' && chars.length > 1 && choseong !== 'ㅇ';
      const medial = silent ? '' : (MEDIAL_LATIN[jungseong]?.[choice] ?? '');
      out += initial + medial + (jongseong ? (FINAL_LATIN[jongseong] ?? '') : '');
    }
    if (choice === 1) out = out.replace(/us$/, 'ous');
    if (out.length >= 2 && !readings.includes(out)) readings.push(out);
  }
  return readings;
}

// ---------------------------------------------------------------- loanword spellings

/**
 * Other usual spellings of a Hangul loanword, at most MAX_READINGS: a plural or possessive 스/즈 left
 * off (`그리팅스` → 그리팅), the 드/즈 of an ending swapped (`어워드` ⇄ 어워즈), and ㅏ/ㅐ of the last
 * syllable but one (`인스타그람` ⇄ 인스타그램, `페스티발`/`페스티벌` are the typo search's: ㅏ/ㅓ).
 */
export function loanwordSpellings(word: string): string[] {
  if (!HANGUL_WORD.test(word) || word.length < 3 || !looksLikeLoanword(word)) return [];
  const spellings: string[] = [];
  const add = (spelling: string) => {
    if (spelling !== word && !spellings.includes(spelling) && spellings.length < MAX_READINGS) spellings.push(spelling);
  };
  const last = word[word.length - 1]!;
  // After a syllable with a final only (`팅스`, `굿즈`): 루미너스 is not a plural.
  if ((last === '스' || last === '즈') && (word.charCodeAt(word.length - 2) - 0xac00) % 28 !== 0) add(word.slice(0, -1));
  if (last === '드') add(word.slice(0, -1) + '즈');
  if (last === '즈') add(word.slice(0, -1) + '드');
  // ㅏ ⇄ ㅐ in the last syllable (그람/그램) or, before a final ㅡ syllable, the one before it (랜드/란드).
  const at = /[그느드르므브스즈츠크트프흐]$/.test(word) ? word.length - 2 : word.length - 1;
  const code = word.charCodeAt(at) - 0xac00;
  const medial = Math.floor(code / 28) % 21;
  if (medial === 0 || medial === 1) add(word.slice(0, at) + String.fromCharCode(0xac00 + code + (medial === 0 ? 28 : -28)) + word.slice(at + 1));
  return spellings;
}

// Initial consonant indices of the tense consonants (ㄲ ㄸ ㅃ ㅆ ㅉ) → the aspirated or plain consonant
// the standard spelling has there (ㅆ has no aspirated one).
const TENSE_AS_ASPIRATED: Readonly<Record<number, number>> = { 1: 15, 4: 16, 8: 17, 10: 9, 13: 14 };
const TENSE_AS_PLAIN: Readonly<Record<number, number>> = { 1: 0, 4: 3, 8: 7, 10: 9, 13: 12 };
const INITIAL_SPAN = 21 * 28;

/**
 * A word spelled with tense consonants for emphasis, as fans write loanwords (`까페`, `쑈케이스`,
 * `빠리`, `께임`), in its standard spellings: every tense initial as the aspirated consonant first
 * (the usual spelling of a voiceless stop: 카페, 파리), then as the plain one (게임). Only the
 * initials: a tense final is grammar (했다), not emphasis. A reading of its own, so the typo search
 * of a reading finds a slip inside the emphatic spelling (`쑈캐이스` → 쇼캐이스, one vowel from
 * 쇼케이스).
 */
export function tenseSpellings(word: string): string[] {
  if (!HANGUL_WORD.test(word) || word.length < 2) return [];
  const spellings: string[] = [];
  for (const table of [TENSE_AS_ASPIRATED, TENSE_AS_PLAIN]) {
    let out = '';
    for (let i = 0; i < word.length; i++) {
      const offset = word.charCodeAt(i) - 0xac00;
      const initial = Math.floor(offset / INITIAL_SPAN);
      const softened = table[initial];
      out += softened === undefined ? word[i] : String.fromCharCode(0xac00 + softened * INITIAL_SPAN + (offset % INITIAL_SPAN));
    }
    if (out !== word && !spellings.includes(out)) spellings.push(out);
  }
  return spellings;
}

// ---------------------------------------------------------------- romanised Korean → Hangul

const RR_INITIALS: [string, string][] = [
  ['kk', 'ㄲ'], ['tt', 'ㄸ'], ['pp', 'ㅃ'], ['ss', 'ㅆ'], ['jj', 'ㅉ'], ['ch', 'ㅊ'], ['g', 'ㄱ'], ['k', 'ㅋ'], ['n', 'ㄴ'], ['d', 'ㄷ'],
  ['t', 'ㅌ'], ['r', 'ㄹ'], ['l', 'ㄹ'], ['m', 'ㅁ'], ['b', 'ㅂ'], ['p', 'ㅍ'], ['s', 'ㅅ'], ['j', 'ㅈ'], ['h', 'ㅎ'], ['', 'ㅇ'],
];
const RR_VOWELS: [string, string][] = [
  ['yae', 'ㅒ'], ['yeo', 'ㅕ'], ['wae', 'ㅙ'], ['ae', 'ㅐ'], ['ya', 'ㅑ'], ['eo', 'ㅓ'], ['ye', 'ㅖ'], ['wa', 'ㅘ'], ['oe', 'ㅚ'], ['yo', 'ㅛ'],
  ['wo', 'ㅝ'], ['we', 'ㅞ'], ['wi', 'ㅟ'], ['yu', 'ㅠ'], ['eu', 'ㅡ'], ['ui', 'ㅢ'], ['a', 'ㅏ'], ['e', 'ㅔ'], ['o', 'ㅗ'], ['u', 'ㅜ'], ['i', 'ㅣ'],
];
const RR_FINALS: [string, string][] = [['ng', 'ㅇ'], ['k', 'ㄱ'], ['g', 'ㄱ'], ['n', 'ㄴ'], ['t', 'ㅅ'], ['d', 'ㄷ'], ['l', 'ㄹ'], ['m', 'ㅁ'], ['p', 'ㅂ'], ['b', 'ㅂ']];
const RR_VOWEL_START = /^[aeiouwy]/;

/**
 * Hangul readings of a romanised Korean word (Revised Romanisation, as fans write names and titles:
 * `nachimban` → 나침반, `daon` → 다온, `jeongryujang` → 정류장): the parses into the fewest syllables,
 * a consonant before a vowel opening the next one; at most MAX_READINGS, none when no parse exists.
 */
export function romanizedToHangul(word: string): string[] {
  if (!LATIN_WORD.test(word) || word.length > 30) return [];
  // Per position, the parses of the rest with the fewest syllables (at most MAX_READINGS each).
  const best: (string[] | undefined)[] = new Array(word.length + 1);
  best[word.length] = [''];
  for (let i = word.length - 1; i >= 0; i--) {
    let found: string[] = [];
    let fewest = Number.POSITIVE_INFINITY;
    for (const [initial, initialJamo] of RR_INITIALS) {
      if (!word.startsWith(initial, i)) continue;
      for (const [vowel, vowelJamo] of RR_VOWELS) {
        const afterVowel = i + initial.length + vowel.length;
        if (!word.startsWith(vowel, i + initial.length)) continue;
        const endings: [number, string][] = [[afterVowel, '']];
        for (const [final, finalJamo] of RR_FINALS) {
          // A consonant before a vowel opens the next syllable (ng closes this one either way).
          if (word.startsWith(final, afterVowel) && (final === 'ng' || !RR_VOWEL_START.test(word.slice(afterVowel + final.length)))) endings.push([afterVowel + final.length, finalJamo]);
        }
        for (const [next, finalJamo] of endings) {
          const rest = best[next];
          if (!rest) continue;
          const count = syllableCount(rest[0]!) + 1;
          const head = syllable(initialJamo, vowelJamo, finalJamo);
          if (count < fewest) {
            fewest = count;
            found = [];
          }
          if (count === fewest) for (const tail of rest) if (found.length < MAX_READINGS && !found.includes(head + tail)) found.push(head + tail);
        }
      }
    }
    best[i] = found.length > 0 ? found : undefined;
  }
  return best[0] ?? [];
}
/** Syllables of a parse: one character each. */
const syllableCount = (text: string) => text.length;
