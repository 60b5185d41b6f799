// Queries typed as fans type, one generator per kind, for the search and suggestion
// benchmarks: each kind's p99 is printed apart. Deterministic (own seed): the benchmarks' other
// query mixes stay as they were.
import { convertQwertyToHangul, disassemble } from 'es-hangul';
import { seededRandom } from '../../shared/db/demo-data.ts';

export type FanTypingKind =
  | 'layout slip' | 'shorthand' | 'particle' | 'spacing' | 'ignored word' | 'keystroke typo' | 'long word typo' | 'half-typed' | 'latin order' | 'several words' | 'english word' | 'date' | 'decorated'
  // What the service knows beside the words (entities, gazetteer, numbers, kana, Latin slips).
  | 'place' | 'member role' | 'english date' | 'ordinal' | 'kana' | 'latin slip'
  // Spellings that compose with other readings.
  | 'tense spelling' | 'season' | 'title slip';

/** The Latin keys that type `hangul` on the 2-set layout (`루미네` → fnalsp). */
export function latinKeysOf(hangul: string): string {
  return [...disassemble(hangul)].map((jamo) => KEY_OF.get(jamo) ?? jamo).join('');
}
const KEY_OF = new Map<string, string>();
for (const key of 'qwertyuiopasdfghjklzxcvbnmQWERTOP') KEY_OF.set(convertQwertyToHangul(key), key);

const SYLLABLE_FIRST = 0xac00;
/** `word` with its last syllable half-typed: the syllables before it and its initial (`팬사인회` → 팬사인ㅎ). */
export function halfTyped(word: string): string {
  const last = word.charCodeAt(word.length - 1) - SYLLABLE_FIRST;
  if (last < 0 || last > 11171 || word.length < 2) return word;
  return word.slice(0, -1) + 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ'[Math.floor(last / 588)];
}

/** `word` with the compound vowel of one syllable typed without its first key (화 → 하, 희 → 히); undefined without one. */
export function compoundVowelSlip(word: string): string | undefined {
  const chars = [...word];
  // ㅘ → ㅏ, ㅝ → ㅓ, ㅟ → ㅣ, ㅢ → ㅣ (vowel indices).
  const dropFirst: Record<number, number> = { 9: 0, 14: 4, 16: 20, 19: 20 };
  for (let i = 0; i < chars.length; i++) {
    const code = chars[i]!.charCodeAt(0) - SYLLABLE_FIRST;
    if (code < 0 || code > 11171) continue;
    const vowel = Math.floor(code / 28) % 21;
    if (dropFirst[vowel] === undefined) continue;
    chars[i] = String.fromCharCode(SYLLABLE_FIRST + code + (dropFirst[vowel]! - vowel) * 28);
    return chars.join('');
  }
  return undefined;
}

/**
 * `word` with its first plain or aspirated initial written tense for emphasis (`콘서트` → 꼰서트),
 * and with `slip` an ㅔ/ㅐ of it swapped too; undefined without such an initial.
 */
export function tenseSpelling(word: string, slip: boolean): string | undefined {
  // Initial indices: ㄱ ㄷ ㅂ ㅅ ㅈ ㅋ ㅌ ㅍ ㅊ → ㄲ ㄸ ㅃ ㅆ ㅉ.
  const TENSE: Record<number, number> = { 0: 1, 3: 4, 7: 8, 9: 10, 12: 13, 15: 1, 16: 4, 17: 8, 14: 13 };
  const chars = [...word];
  let tensed = false;
  for (let i = 0; i < chars.length; i++) {
    const code = chars[i]!.charCodeAt(0) - SYLLABLE_FIRST;
    if (code < 0 || code > 11171) continue;
    const initial = Math.floor(code / 588);
    if (!tensed && TENSE[initial] !== undefined) {
      chars[i] = String.fromCharCode(SYLLABLE_FIRST + TENSE[initial]! * 588 + (code % 588));
      tensed = true;
    } else if (slip && tensed) {
      const vowel = Math.floor(code / 28) % 21;
      if (vowel !== 1 && vowel !== 5) continue;
      chars[i] = String.fromCharCode(SYLLABLE_FIRST + code + (vowel === 1 ? 4 : -4) * 28);
      return chars.join('');
    }
  }
  return tensed && !slip ? chars.join('') : undefined;
}

/** `word` with two syllables one keystroke off each (a vowel said alike or a doubled initial). */
export function twoKeystrokesOff(word: string, random: () => number): string | undefined {
  const chars = [...word];
  const SIMILAR: Record<number, number> = { 0: 2, 2: 0, 1: 5, 5: 1, 4: 6, 6: 4, 8: 12, 12: 8, 13: 17, 17: 13 };
  const TWIN: Record<number, number> = { 0: 1, 3: 4, 7: 8, 9: 10, 12: 13 };
  const changed = new Set<number>();
  for (let tries = 0; tries < 20 && changed.size < 2; tries++) {
    const at = Math.floor(random() * chars.length);
    const code = chars[at]!.charCodeAt(0) - SYLLABLE_FIRST;
    if (changed.has(at) || code < 0 || code > 11171) continue;
    const initial = Math.floor(code / 588);
    const vowel = Math.floor(code / 28) % 21;
    const final = code % 28;
    if (SIMILAR[vowel] !== undefined) chars[at] = String.fromCharCode(SYLLABLE_FIRST + (initial * 21 + SIMILAR[vowel]!) * 28 + final);
    else if (TWIN[initial] !== undefined) chars[at] = String.fromCharCode(SYLLABLE_FIRST + (TWIN[initial]! * 21 + vowel) * 28 + final);
    else continue;
    changed.add(at);
  }
  return changed.size === 2 ? chars.join('') : undefined;
}

export interface FanTypingVocabulary {
  /** Names and words of the data: Hangul, two syllables or more. */
  hangulWords: string[];
  /** Words of five syllables or more. */
  longWords: string[];
  /** Words holding ㅘ, ㅝ, ㅟ or ㅢ. */
  compoundWords: string[];
  /** Two words that appear together in titles, in title order. */
  pairs: [string, string][];
  /** Romanised names (`Song Hayoung`). */
  romanised: string[];
  /** Shorthand (in the shipped synonym list) with a word it goes with. */
  shorthand: string[];
}

/** `count` queries of each kind over a vocabulary. */
export function fanTypingQueries(vocabulary: FanTypingVocabulary, count: number, seed = 0xfa7): { kind: FanTypingKind; text: string }[] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const PARTICLES = ['의', '에서', '를', '은', '이', '도', '와', '에게'];
  const UNSEEN = ['오사카공연', '티켓팅', '다시보기', '직캠', '후기', '5월', '풀버전', '하이라이트'];
  const generators: Record<FanTypingKind, () => string | undefined> = {
    'layout slip': () => latinKeysOf(pick(vocabulary.hangulWords)),
    shorthand: () => (random() < 0.5 ? pick(vocabulary.shorthand) : `${pick(vocabulary.hangulWords)} ${pick(vocabulary.shorthand)}`),
    particle: () => `${pick(vocabulary.hangulWords)}${pick(PARTICLES)}`,
    spacing: () => {
      const [a, b] = pick(vocabulary.pairs);
      return random() < 0.5 ? `${a}${b}` : `${[...a].slice(0, 2).join('')} ${[...a].slice(2).join('')}`.trim();
    },
    'ignored word': () => `${pick(vocabulary.hangulWords)} ${pick(UNSEEN)}`,
    'keystroke typo': () => compoundVowelSlip(pick(vocabulary.compoundWords)),
    'long word typo': () => twoKeystrokesOff(pick(vocabulary.longWords), random),
    'half-typed': () => halfTyped(pick(vocabulary.hangulWords)),
    'latin order': () => {
      const name = pick(vocabulary.romanised).split(' ');
      return (random() < 0.5 ? name.reverse() : name).join(' ').toLowerCase();
    },
    'several words': () => {
      const [a, b] = pick(vocabulary.pairs);
      return `${b} ${a}`;
    },
    // The lexicon's English words for the data's Korean ones, alone or beside a name.
    'english word': () => {
      const english = pick(['concert', 'fansign', 'showcase', 'fan meeting', 'popup store', 'festival', 'radio', 'music video', 'birthday cafe', 'awards']);
      return random() < 0.5 ? english : `${pick(vocabulary.hangulWords)} ${english}`;
    },
    // A day as fans write it, beside a word.
    'date': () => {
      const [month, day] = [1 + Math.floor(random() * 12), 1 + Math.floor(random() * 28)];
      return `${pick(vocabulary.hangulWords)} ${pick([`${month}/${day}`, `${month}.${day}`, `${month}월 ${day}일`, `${day}일`])}`;
    },
    // A place at another level or in another script, alone or beside an event word.
    place: () => {
      const place = pick(['japan', '일본', 'tokyo', '東京', 'usa', '미국', 'seoul', 'busan', 'gangnam', '잠실', 'bangkok', 'ロサンゼルス']);
      return random() < 0.5 ? place : `${place} ${pick(['concert', '팬미팅', 'fansign', '콘서트'])}`;
    },
    // A member by position or age, in three languages.
    'member role': () => {
      const role = pick(['main dancer', '메인보컬', 'maknae', 'leader', '막내', 'visual', 'メインダンサー', 'main rapper']);
      return random() < 0.5 ? role : `${role} ${pick(['birthday', '생일', 'live', '화보'])}`;
    },
    // English and Japanese dates beside a word.
    'english date': () => {
      const [month, day] = [1 + Math.floor(random() * 12), 1 + Math.floor(random() * 28)];
      const name = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'][month - 1]!;
      return `${pick(vocabulary.hangulWords)} ${pick([`${name} ${day}`, `${day}th of ${name}`, `${month}月${day}日`, `the ${day}th`])}`;
    },
    // Ordinals and anniversaries beside an event word.
    ordinal: () => `${pick(['1st', '2nd', '3rd', 'first', 'second', '세 번째', '두돌', '3rd anniversary'])} ${pick(['concert', '팬미팅', '콘서트', 'fan meeting'])}`,
    // Kana for names and event words.
    kana: () => {
      const kana = pick(['ショーケース', 'ファンミーティング', 'ハリン', 'ソア', 'コンサート', 'ライブ', 'はりん']);
      return random() < 0.5 ? kana : `${pick(vocabulary.hangulWords)} ${kana}`;
    },
    // A Latin word one letter off a known term.
    'latin slip': () => pick(['fanmeting', 'showcsae', 'concret', 'birtday', 'challange', 'tokio', 'festivl', 'fansing']),
    // A word written with a tense initial for emphasis, half of them with a vowel slip inside too.
    'tense spelling': () => tenseSpelling(pick(vocabulary.hangulWords), random() < 0.5),
    // A season beside an event word, in English or Korean.
    season: () => `${pick(['summer', 'winter', 'spring', 'autumn', '여름', '겨울'])} ${pick(['fan meeting', 'concert', 'festival', '팬미팅', '콘서트', 'fansign'])}`,
    // A Latin word of the titles (the group's name) one letter off, alone or beside an event word.
    'title slip': () => {
      const slip = pick(['fromsi', 'formis', 'frommis', 'fromi']);
      return random() < 0.5 ? slip : `${slip} ${pick(['콘서트', '팬사인회', '팬미팅'])}`;
    },
    // Brackets, emoji and full-width letters pasted around a word.
    'decorated': () => {
      const word = pick(vocabulary.hangulWords);
      return pick([`〈${word}〉`, `💜${word}💜`, `[${word}]`, `'${word}'!!`, `${word}\u200b`]);
    },
  };
  const queries: { kind: FanTypingKind; text: string }[] = [];
  for (const kind of Object.keys(generators) as FanTypingKind[]) {
    for (let made = 0, tries = 0; made < count && tries < count * 20; tries++) {
      const text = generators[kind]();
      if (text === undefined || text.trim() === '') continue;
      queries.push({ kind, text });
      made++;
    }
  }
  return queries;
}
