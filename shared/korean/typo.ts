// Jamo-level typo tolerance, counted in keystrokes on the 2-set (두벌식) layout. A slip changes
// one keystroke of a word: a similar vowel (ㅔ/ㅐ, ㅓ/ㅕ, ㅗ/ㅛ …), a doubled consonant (ㄷ/ㄸ, one
// shifted key), a final consonant missing or extra, or one key of a compound vowel or clustered
// final missing or extra (ㅘ is ㅗ then ㅏ, ㄺ is ㄹ then ㄱ: two keystrokes each).
// Each syllable maps to its *skeleton*: the syllable with its initial undoubled, its vowel folded
// to its class and no final. A compound vowel folds to the class of its second key, so a missing
// first key (ㅘ typed ㅏ, ㅢ typed ㅣ) leaves the skeleton as it is. A typo leaves the skeleton
// unchanged, and the skeleton has one character per character, so a skeleton match is aligned
// with the text and the keystrokes that differ can be counted syllable by syllable (`jamoEdits`).
// Searches and suggestions accept a word whose skeleton matches within `maxTypoEdits` keystrokes:
// one, or two for a word of five syllables or more.
import { jamoKeyOfNormalized } from './jamo.ts';

const SYLLABLE_FIRST = 0xac00;
const SYLLABLE_LAST = 0xd7a3;
const VOWELS = 21;
const FINALS = 28;

// Initial consonant indices (ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ): doubled → plain.
const INITIAL_FOLD = [0, 0, 2, 3, 3, 5, 6, 7, 7, 9, 9, 11, 12, 12, 14, 15, 16, 17, 18];
// Vowel indices (ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ) → class: ㅏㅑㅘ, ㅐㅒㅔㅖ, ㅓㅕㅝ, ㅗㅛ,
// ㅜㅠ, ㅙㅚㅞ (said alike), ㅟㅢㅣ; ㅡ stands alone. ㅘ, ㅝ, ㅟ and ㅢ go with their second key:
// typed without their first (ㅗ, ㅜ or ㅡ) they keep their skeleton. Any two vowels of one class
// are one edit apart (a neighbouring or missing key, or a vowel said alike).
const VOWEL_FOLD = [0, 5, 0, 5, 4, 5, 4, 5, 8, 0, 11, 11, 8, 13, 4, 11, 20, 13, 18, 20, 20];
// Finals that are two keys (clusters): ㄳㄵㄶㄺㄻㄼㄽㄾㄿㅀㅄ.
const CLUSTER_FINALS: ReadonlySet<number> = new Set([3, 5, 6, 9, 10, 11, 12, 13, 14, 15, 18]);
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
 * Keystrokes between two code units of equal skeleton: 0 when equal; a doubled initial 1; another
 * vowel of the class 1; a final missing or extra its keys (a cluster 2), or 1 when one key
 * of it differs (doubled, or one consonant of a cluster); any other final (ㄴ for ㅇ) too many.
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
    if (finalA === 0 || finalB === 0) edits += CLUSTER_FINALS.has(finalA + finalB) ? 2 : 1;
    else edits += FINAL_NEIGHBOURS[finalA]?.includes(finalB) || FINAL_NEIGHBOURS[finalB]?.includes(finalA) ? 1 : Number.POSITIVE_INFINITY;
  }
  return edits;
}

/** Keystrokes between `word` and the same-length run of `text` at `start` (equal skeletons assumed), counted up to `limit` + 1. */
export function jamoEdits(text: string, start: number, word: string, limit = MAX_TYPO_EDITS): number {
  let edits = 0;
  for (let i = 0; i < word.length && edits <= limit; i++) edits += editsBetween(text.charCodeAt(start + i), word.charCodeAt(i));
  return edits;
}

/** The most keystrokes a word of fewer than LONG_WORD_SYLLABLES syllables may be off by. */
export const MAX_TYPO_EDITS = 1;
/** Words of this many syllables or more may be off by LONG_WORD_EDITS keystrokes. */
export const LONG_WORD_SYLLABLES = 5;
export const LONG_WORD_EDITS = 2;

/** How many keystrokes `word` may be off by: two for five syllables or more, else one. */
export function maxTypoEdits(word: string): number {
  let syllables = 0;
  for (let i = 0; i < word.length; i++) if (isSyllable(word.charCodeAt(i))) syllables++;
  return syllables >= LONG_WORD_SYLLABLES ? LONG_WORD_EDITS : MAX_TYPO_EDITS;
}

/** A word worth correcting: at least two Hangul syllables (one syllable's neighbours are too many). */
export function isTypoCandidate(word: string): boolean {
  let syllables = 0;
  for (let i = 0; i < word.length; i++) if (isSyllable(word.charCodeAt(i))) syllables++;
  return syllables >= 2;
}

/**
 * Whether `word` occurs in `text` within `maxTypoEdits(word)` keystrokes, and not exactly (both
 * normalised, spaces removed). `textSkeleton` is `typoSkeleton(text)` when the caller has it.
 */
export function matchesWithTypo(text: string, word: string, textSkeleton = typoSkeleton(text), wordSkeleton = typoSkeleton(word)): boolean {
  const limit = maxTypoEdits(word);
  for (let at = textSkeleton.indexOf(wordSkeleton); at >= 0; at = textSkeleton.indexOf(wordSkeleton, at + 1)) {
    const edits = jamoEdits(text, at, word, limit);
    if (edits >= 1 && edits <= limit) return true;
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
