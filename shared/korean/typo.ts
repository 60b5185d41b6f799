// Jamo-level typo tolerance, counted in keystrokes on the 2-set (두벌식) layout. A slip changes
// one keystroke of a word: a similar vowel (ㅔ/ㅐ, ㅓ/ㅕ, ㅗ/ㅛ …), a doubled consonant (ㄷ/ㄸ, one
// shifted key), a final consonant missing or extra, or one key of a compound vowel or clustered
// final missing or extra (ㅘ is ㅗ then ㅏ, ㄺ is ㄹ then ㄱ: two keystrokes each).
// Each syllable maps to its *skeleton*: the syllable with its initial undoubled, its vowel folded
// to its class and no final. A compound vowel folds to the class of its second key, so a missing
// first key (ㅘ typed ㅏ, ㅢ typed ㅣ) leaves the skeleton as it is. A typo leaves the skeleton
// unchanged, and the skeleton has one character per character, so a skeleton match is aligned
// with the text and the keystrokes that differ can be counted syllable by syllable (`jamoEdits`).
// A text with a compound vowel has a second skeleton, its compounds folded to the class of their
// *first* key instead (화보 → 호보, `typoSkeletons`): a compound missing its second key (ㅘ typed ㅗ)
// finds that one, and a query word with a compound is looked for by both of its own, so an extra
// second key (ㅗ typed ㅘ) finds the text's first skeleton.
// Searches and suggestions accept a word whose skeletons meet within `maxTypoEdits` keystrokes:
// one, or two for a word of five syllables or more.
import { jamoKeyOfNormalized } from './jamo.ts';

const SYLLABLE_FIRST = 0xac00;
const SYLLABLE_LAST = 0xd7a3;
const VOWELS = 21;
const FINALS = 28;

// Initial consonant indices (ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ): doubled → plain.
const INITIAL_FOLD = [0, 0, 2, 3, 3, 5, 6, 7, 7, 9, 9, 11, 12, 12, 14, 15, 16, 17, 18];
// A compound vowel's first key (ㅘ ㅙ ㅚ: ㅗ, ㅝ ㅞ ㅟ: ㅜ, ㅢ: ㅡ): dropping its second key is one edit.
const FIRST_KEY: Record<number, number> = { 9: 8, 10: 8, 11: 8, 14: 13, 15: 13, 16: 13, 19: 18 };
// Vowel indices (ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ) → class: ㅏㅑㅘ, ㅐㅒㅔㅖ, ㅓㅕㅝ, ㅗㅛ,
// ㅜㅠ, ㅙㅚㅞ (said alike), ㅟㅢㅣ; ㅡ stands alone. ㅘ, ㅝ, ㅟ and ㅢ go with their second key:
// typed without their first (ㅗ, ㅜ or ㅡ) they keep their skeleton. Any two vowels of one class
// are one edit apart (a neighbouring or missing key, or a vowel said alike).
const VOWEL_FOLD = [0, 5, 0, 5, 4, 5, 4, 5, 8, 0, 11, 11, 8, 13, 4, 11, 20, 13, 18, 20, 20];
// The second skeleton's fold: a compound vowel goes with its first key (ㅘ ㅙ ㅚ → ㅗ, ㅝ ㅞ ㅟ → ㅜ,
// ㅢ → ㅡ), any other vowel as in VOWEL_FOLD.
const FIRST_KEY_FOLD = VOWEL_FOLD.map((fold, vowel) => FIRST_KEY[vowel] ?? fold);
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

/** Each Hangul syllable's skeleton, its vowel folded by `vowelFold`, by offset from 가. */
function skeletonTable(vowelFold: readonly number[]): Uint16Array {
  const table = new Uint16Array(SYLLABLE_LAST - SYLLABLE_FIRST + 1);
  for (let offset = 0; offset < table.length; offset++) {
    const initial = Math.floor(offset / (VOWELS * FINALS));
    const vowel = Math.floor(offset / FINALS) % VOWELS;
    table[offset] = SYLLABLE_FIRST + (INITIAL_FOLD[initial]! * VOWELS + vowelFold[vowel]!) * FINALS;
  }
  return table;
}
// Looked up rather than computed: a typo search takes the skeletons of up to 300 candidates'
// fields: computed and appended a code unit at a time, both skeletons of a field took 1.7 µs.
const SKELETON = skeletonTable(VOWEL_FOLD);
const FIRST_KEY_SKELETON = skeletonTable(FIRST_KEY_FOLD);
/** Code units converted per String.fromCharCode call (its arguments are bounded). */
const CHUNK = 4096;

/** `normalized` with each Hangul syllable replaced by its entry of `table`; anything else is itself. */
function skeletonOf(normalized: string, table: Uint16Array): string {
  const codes: number[] = new Array(normalized.length);
  for (let i = 0; i < normalized.length; i++) {
    const code = normalized.charCodeAt(i);
    codes[i] = isSyllable(code) ? table[code - SYLLABLE_FIRST]! : code;
  }
  if (codes.length <= CHUNK) return String.fromCharCode.apply(null, codes);
  let skeleton = '';
  for (let at = 0; at < codes.length; at += CHUNK) skeleton += String.fromCharCode.apply(null, codes.slice(at, at + CHUNK));
  return skeleton;
}

/** The skeleton of a normalised text, one code unit per code unit: `대동재` → `데도제`, `노천극장` → `노처그자`. */
export const typoSkeleton = (normalized: string) => skeletonOf(normalized, SKELETON);

/** Whether a normalised text has a compound vowel (its two skeletons differ). */
function hasCompound(normalized: string): boolean {
  for (let i = 0; i < normalized.length; i++) {
    const code = normalized.charCodeAt(i);
    if (isSyllable(code) && SKELETON[code - SYLLABLE_FIRST] !== FIRST_KEY_SKELETON[code - SYLLABLE_FIRST]) return true;
  }
  return false;
}

/**
 * The skeletons a normalised text is found by and looked for by: `typoSkeleton`, then, when the
 * text has a compound vowel, the one folding compounds to their first key (`화보` → `하보`, `호보`).
 */
export function typoSkeletons(normalized: string): string[] {
  const skeleton = typoSkeleton(normalized);
  return hasCompound(normalized) ? [skeleton, skeletonOf(normalized, FIRST_KEY_SKELETON)] : [skeleton];
}

/**
 * Keystrokes between two code units of equal skeleton (one's `typoSkeleton`, the other's either):
 * 0 when equal; a doubled initial 1; another vowel of the class, or a compound and its first key,
 * 1; a final missing or extra its keys (a cluster 2), or 1 when one key of it differs (doubled, or
 * one consonant of a cluster); any other vowel or final (ㅘ for ㅛ, ㄴ for ㅇ) too many.
 */
function editsBetween(a: number, b: number): number {
  if (a === b) return 0;
  if (!isSyllable(a) || !isSyllable(b)) return Number.POSITIVE_INFINITY;
  const x = a - SYLLABLE_FIRST;
  const y = b - SYLLABLE_FIRST;
  let edits = 0;
  if (Math.floor(x / (VOWELS * FINALS)) !== Math.floor(y / (VOWELS * FINALS))) edits++;
  const vowelA = Math.floor(x / FINALS) % VOWELS;
  const vowelB = Math.floor(y / FINALS) % VOWELS;
  if (vowelA !== vowelB) edits += VOWEL_FOLD[vowelA] === VOWEL_FOLD[vowelB] || FIRST_KEY[vowelA] === vowelB || FIRST_KEY[vowelB] === vowelA ? 1 : Number.POSITIVE_INFINITY;
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
 * normalised, spaces removed), one of the word's skeletons found in one of the text's.
 * `textSkeletons` and `wordSkeletons` are their `typoSkeletons` when the caller has them.
 */
export function matchesWithTypo(text: string, word: string, textSkeletons = typoSkeletons(text), wordSkeletons = typoSkeletons(word)): boolean {
  const limit = maxTypoEdits(word);
  for (const textSkeleton of textSkeletons) {
    for (const wordSkeleton of wordSkeletons) {
      for (let at = textSkeleton.indexOf(wordSkeleton); at >= 0; at = textSkeleton.indexOf(wordSkeleton, at + 1)) {
        const edits = jamoEdits(text, at, word, limit);
        if (edits >= 1 && edits <= limit) return true;
      }
    }
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
