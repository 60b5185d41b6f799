// Jamo-level typo tolerance. A phone-keyboard slip changes one jamo of a word: a similar vowel
// (ㅔ/ㅐ, ㅓ/ㅕ, ㅗ/ㅛ …), a doubled consonant (ㄷ/ㄸ), a final consonant missing or extra.
// Each syllable maps to its *skeleton*: the syllable with its initial undoubled, its vowel folded
// to its class and no final. A typo leaves the skeleton unchanged, and the skeleton has one
// character per character, so a skeleton match is aligned with the text and the jamo that differ
// can be counted syllable by syllable (`jamoEdits`). Searches and suggestions accept a word
// whose skeleton matches and which differs by at most one such edit.
import { jamoKeyOfNormalized } from './jamo.ts';

const SYLLABLE_FIRST = 0xac00;
const SYLLABLE_LAST = 0xd7a3;
const VOWELS = 21;
const FINALS = 28;

// Initial consonant indices (ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ): doubled → plain.
const INITIAL_FOLD = [0, 0, 2, 3, 3, 5, 6, 7, 7, 9, 9, 11, 12, 12, 14, 15, 16, 17, 18];
// Vowel indices (ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ) → class: ㅏㅑ, ㅐㅒㅔㅖ, ㅓㅕ, ㅗㅛ, ㅜㅠ,
// ㅙㅚㅞ, ㅢㅣ; ㅘ, ㅝ, ㅟ and ㅡ stand alone.
const VOWEL_FOLD = [0, 5, 0, 5, 4, 5, 4, 5, 8, 9, 11, 11, 8, 13, 14, 11, 16, 13, 18, 20, 20];
// Final indices ( ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ): the finals a final
// may be mistyped as with one key: itself doubled or undoubled, or one consonant of a cluster.
const FINAL_NEIGHBOURS: Record<number, number[]> = {
  1: [2, 3, 9], // ㄱ: ㄲ ㄳ ㄺ
  2: [1],
  3: [1, 19],
  4: [5, 6],
  5: [4, 22],
  6: [4, 27],
  8: [9, 10, 11, 12, 13, 14, 15],
  9: [8, 1],
  10: [8, 16],
  11: [8, 17],
  12: [8, 19],
  13: [8, 25],
  14: [8, 26],
  15: [8, 27],
  16: [10],
  17: [11, 18],
  18: [17, 19],
  19: [12, 18, 20],
  20: [19],
};

const isSyllable = (code: number) => code >= SYLLABLE_FIRST && code <= SYLLABLE_LAST;

/** The skeleton of one code unit; anything but a Hangul syllable is itself. */
function skeletonCode(code: number): number {
  if (!isSyllable(code)) return code;
  const offset = code - SYLLABLE_FIRST;
  const initial = Math.floor(offset / (VOWELS * FINALS));
  const vowel = Math.floor(offset / FINALS) % VOWELS;
  return SYLLABLE_FIRST + (INITIAL_FOLD[initial]! * VOWELS + VOWEL_FOLD[vowel]!) * FINALS;
}

/** The skeleton of a normalised text, one code unit per code unit: `대동재` → `데도제`, `노천극장` → `노처그자`. */
export function typoSkeleton(normalized: string): string {
  let skeleton = '';
  for (let i = 0; i < normalized.length; i++) skeleton += String.fromCharCode(skeletonCode(normalized.charCodeAt(i)));
  return skeleton;
}

/**
 * Jamo edits between two code units of equal skeleton: 0 when equal, 1 per differing initial,
 * vowel or final; a final that is not one keystroke away (ㄴ for ㅇ) counts as too many.
 */
function editsBetween(a: number, b: number): number {
  if (a === b) return 0;
  if (!isSyllable(a) || !isSyllable(b)) return Number.POSITIVE_INFINITY;
  const x = a - SYLLABLE_FIRST;
  const y = b - SYLLABLE_FIRST;
  let edits = 0;
  if (Math.floor(x / (VOWELS * FINALS)) !== Math.floor(y / (VOWELS * FINALS))) edits++;
  if (Math.floor(x / FINALS) % VOWELS !== Math.floor(y / FINALS) % VOWELS) edits++;
  const finalA = x % FINALS;
  const finalB = y % FINALS;
  if (finalA !== finalB) {
    const oneKey = finalA === 0 || finalB === 0 || FINAL_NEIGHBOURS[finalA]?.includes(finalB) || FINAL_NEIGHBOURS[finalB]?.includes(finalA);
    edits += oneKey ? 1 : Number.POSITIVE_INFINITY;
  }
  return edits;
}

/** Jamo edits between `word` and the same-length run of `text` at `start` (equal skeletons assumed). */
export function jamoEdits(text: string, start: number, word: string): number {
  let edits = 0;
  for (let i = 0; i < word.length && edits <= 1; i++) edits += editsBetween(text.charCodeAt(start + i), word.charCodeAt(i));
  return edits;
}

/** The most jamo edits a word may need to match. */
export const MAX_TYPO_EDITS = 1;

/** A word worth correcting: at least two Hangul syllables (one syllable's neighbours are too many). */
export function isTypoCandidate(word: string): boolean {
  let syllables = 0;
  for (let i = 0; i < word.length; i++) if (isSyllable(word.charCodeAt(i))) syllables++;
  return syllables >= 2;
}

/**
 * Whether `word` occurs in `text` within one jamo edit, and not exactly (both normalised, spaces
 * removed). `textSkeleton` is `typoSkeleton(text)` when the caller has it.
 */
export function matchesWithTypo(text: string, word: string, textSkeleton = typoSkeleton(text), wordSkeleton = typoSkeleton(word)): boolean {
  for (let at = textSkeleton.indexOf(wordSkeleton); at >= 0; at = textSkeleton.indexOf(wordSkeleton, at + 1)) {
    const edits = jamoEdits(text, at, word);
    if (edits >= 1 && edits <= MAX_TYPO_EDITS) return true;
  }
  return false;
}

/** Skeleton bigrams of a normalised, space-free text (one character gives itself). */
export function skeletonBigrams(compact: string): string[] {
  const skeleton = typoSkeleton(compact);
  const chars = [...skeleton];
  if (chars.length === 1) return chars;
  const grams: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) grams.push(chars[i]! + chars[i + 1]!);
  return grams;
}

/** Fully decomposed jamo of a word (OpenSearch fuzzy matching counts edits on these). */
export function jamoWord(normalized: string): string {
  return jamoKeyOfNormalized(normalized);
}
