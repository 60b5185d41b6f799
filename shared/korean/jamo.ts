// Hangul decomposition for matching: initial consonants (choseong), full jamo keys for
// half-typed prefixes, and character bigrams. The `...OfNormalized` variants skip
// normalisation for callers (the suggestion index) that have already normalised.
import { disassemble } from 'es-hangul';
import { normalizeText } from './normalize.ts';

const SYLLABLE_FIRST = 0xac00;
const SYLLABLE_LAST = 0xd7a3;
const SYLLABLES_PER_INITIAL = 21 * 28;
const COMPAT_JAMO_FIRST = 0x3131; // ㄱ
const COMPAT_JAMO_LAST = 0x318e;
const COMPAT_CONSONANT_LAST = 0x314e; // ㅎ
const INITIAL_CODES = Array.from('ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ', (char) => char.charCodeAt(0));

/** Character classes used to find word boundaries. */
export const CharClass = { Separator: 0, Hangul: 1, LetterOrDigit: 2 } as const;
export type CharClass = (typeof CharClass)[keyof typeof CharClass];

const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

export function isHangulSyllable(codePoint: number): boolean {
  return codePoint >= SYLLABLE_FIRST && codePoint <= SYLLABLE_LAST;
}

export function charClassOf(codePoint: number): CharClass {
  if (codePoint >= SYLLABLE_FIRST && codePoint <= SYLLABLE_LAST) return CharClass.Hangul;
  if (codePoint >= COMPAT_JAMO_FIRST && codePoint <= COMPAT_JAMO_LAST) return CharClass.Hangul;
  if (codePoint >= 0x1100 && codePoint <= 0x11ff) return CharClass.Hangul;
  if (codePoint < 0x80) {
    const isDigit = codePoint >= 0x30 && codePoint <= 0x39;
    const isLetter = (codePoint | 0x20) >= 0x61 && (codePoint | 0x20) <= 0x7a;
    return isDigit || isLetter ? CharClass.LetterOrDigit : CharClass.Separator;
  }
  return LETTER_OR_DIGIT.test(String.fromCodePoint(codePoint)) ? CharClass.LetterOrDigit : CharClass.Separator;
}

// es-hangul splits compound vowels and finals (ㅘ → ㅗㅏ, ㄺ → ㄹㄱ); memoised per code point
// because a title set only uses a few thousand distinct syllables.
const syllableJamo: (string | undefined)[] = new Array(SYLLABLE_LAST - SYLLABLE_FIRST + 1);
const compatJamo: (string | undefined)[] = new Array(COMPAT_JAMO_LAST - COMPAT_JAMO_FIRST + 1);

/** Jamo of a Hangul syllable or compatibility jamo; undefined for any other code unit. */
export function hangulJamoOfCode(code: number): string | undefined {
  if (code >= SYLLABLE_FIRST && code <= SYLLABLE_LAST) {
    return (syllableJamo[code - SYLLABLE_FIRST] ??= disassemble(String.fromCharCode(code)));
  }
  if (code >= COMPAT_JAMO_FIRST && code <= COMPAT_JAMO_LAST) {
    return (compatJamo[code - COMPAT_JAMO_FIRST] ??= disassemble(String.fromCharCode(code)));
  }
  return undefined;
}

/** Initial consonant (as a code unit) of a Hangul syllable; other code units unchanged. */
export function choseongCodeOf(code: number): number {
  if (code >= SYLLABLE_FIRST && code <= SYLLABLE_LAST) {
    return INITIAL_CODES[Math.floor((code - SYLLABLE_FIRST) / SYLLABLES_PER_INITIAL)]!;
  }
  return code;
}

/** Jamo of one character: Hangul is fully disassembled, anything else is returned unchanged. */
export function jamoOfChar(char: string): string {
  return hangulJamoOfCode(char.charCodeAt(0)) ?? char;
}

/** Initial consonant of one character; non-syllables are returned unchanged. */
export function choseongOfChar(char: string): string {
  const code = char.charCodeAt(0);
  const initial = choseongCodeOf(code);
  return initial === code ? char : String.fromCharCode(initial);
}

export function jamoKeyOfNormalized(normalized: string): string {
  let key = '';
  for (const char of normalized) {
    if (char !== ' ') key += jamoOfChar(char);
  }
  return key;
}

export function choseongOfNormalized(normalized: string): string {
  let key = '';
  for (const char of normalized) {
    if (char !== ' ') key += choseongOfChar(char);
  }
  return key;
}

export function bigramsOfNormalized(normalized: string): string[] {
  const chars: string[] = [];
  for (const char of normalized) {
    if (char !== ' ') chars.push(char);
  }
  if (chars.length === 1) return chars;
  const grams: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) grams.push(chars[i]! + chars[i + 1]!);
  return grams;
}

/** Initial consonants of each syllable; other characters kept (lowercased), spaces removed. */
export function choseong(text: string): string {
  return choseongOfNormalized(normalizeText(text));
}

const CONSONANT_RUN = new RegExp(`[${String.fromCodePoint(COMPAT_JAMO_FIRST)}-${String.fromCodePoint(COMPAT_CONSONANT_LAST)}]+`, 'g');

/** The runs of consonant jamo in a text: the only parts of an initials key a choseong query can match. */
export function consonantRuns(text: string): string[] {
  return text.match(CONSONANT_RUN) ?? [];
}

/** True when the text is only compatibility consonants ㄱ–ㅎ (spaces allowed), e.g. `ㅍㄹㅁ`. */
export function isChoseongQuery(text: string): boolean {
  let consonants = 0;
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (codePoint >= COMPAT_JAMO_FIRST && codePoint <= COMPAT_CONSONANT_LAST) consonants++;
    else if (char.trim() !== '') return false;
  }
  return consonants > 0;
}

/** Fully disassembled jamo without spaces: `프롬` → `ㅍㅡㄹㅗㅁ`, a prefix of `프로미스나인`'s key. */
export function jamoKey(text: string): string {
  return jamoKeyOfNormalized(normalizeText(text));
}

/** Character bigrams of the normalised text with spaces removed; one character gives itself. */
export function bigrams(text: string): string[] {
  return bigramsOfNormalized(normalizeText(text));
}
