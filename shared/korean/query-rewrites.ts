// How fans actually type, as bounded rewrites of a query's words, shared by both search
// engines: fan shorthand (synonyms), trailing particles, a half-typed last syllable, letters and
// digits run together, and the keyboard left in English mode (layout.ts). Each word has at most
// MAX_VARIANTS_PER_WORD variants and a query at most MAX_REWRITES rewrites, built rank by rank
// (the r-th variant of every word at once), never as combinations of the words' variants: the
// work stays linear in the words.
import { withoutTrailingParticles } from './analyzer.ts';
import { choseongOfNormalized } from './jamo.ts';
import type { SynonymTable } from './synonyms.ts';

export type RewriteKind = 'layout' | 'reading' | 'synonym' | 'particle' | 'prefix' | 'spacing';

export interface QueryRewrite {
  kind: RewriteKind;
  words: string[];
}

export const MAX_VARIANTS_PER_WORD = 3;
export const MAX_REWRITES = 3;
/** Words of one rewrite (as many as a query may have). */
export const MAX_REWRITE_WORDS = 8;

interface WordVariant {
  kind: RewriteKind;
  words: string[];
}

const LONE_CONSONANT_END = /^(.*[가-힣])([ㄱ-ㅎ])$/;
// Finals that are also initial consonants, by final index (ㄱ ㄲ ㄴ ㄷ ㄹ ㅁ ㅂ ㅅ ㅆ ㅇ ㅈ ㅊ ㅋ ㅌ ㅍ ㅎ).
const FINAL_AS_INITIAL: Record<number, string> = { 1: 'ㄱ', 2: 'ㄲ', 4: 'ㄴ', 7: 'ㄷ', 8: 'ㄹ', 16: 'ㅁ', 17: 'ㅂ', 19: 'ㅅ', 20: 'ㅆ', 21: 'ㅇ', 22: 'ㅈ', 23: 'ㅊ', 24: 'ㅋ', 25: 'ㅌ', 26: 'ㅍ', 27: 'ㅎ' };
const LETTERS_DIGITS = /[a-z]+|[0-9]+|[가-힣]+/g;
const LONE_SYLLABLE = /^[가-힣]$/;
const SYLLABLE_FIRST = 0xac00;
const FINALS = 28;

/**
 * A half-typed last syllable as what was typed before it and the initials so far: `팬미ㅌ` and
 * `팬밑` (the ㅌ of 팅 taken as 미's final) → [팬미, ㅍㅁㅌ]: the syllables as a substring, the
 * initials as a choseong word, so 팬미팅 matches and 팬미네 does not.
 */
function halfTyped(word: string): string[] | undefined {
  const lone = LONE_CONSONANT_END.exec(word);
  if (lone) return [lone[1]!, choseongOfNormalized(lone[1]!) + lone[2]!];
  const code = word.charCodeAt(word.length - 1);
  if (word.length < 2 || code < SYLLABLE_FIRST || code > 0xd7a3 || !/^[가-힣]+$/.test(word)) return undefined;
  const initial = FINAL_AS_INITIAL[(code - SYLLABLE_FIRST) % FINALS];
  if (initial === undefined) return undefined;
  const typed = word.slice(0, -1) + String.fromCharCode(code - ((code - SYLLABLE_FIRST) % FINALS));
  return [typed, choseongOfNormalized(typed) + initial];
}

/**
 * An alternative of several words (생카 → 생일 카페) as the one spaceless word both engines match
 * it as: the phrase, wherever a field holds it (keys are spaceless). Also cheaper: a query of two
 * words is ranked level by level, where three are scored match by match (박지원 음방 as
 * 박지원 컴백 무대 scored 3,000 matches, 34 ms of the benchmark's 50,000 documents).
 */
const phrase = (alternative: readonly string[]) => (alternative.length > 1 ? [alternative.join('')] : [...alternative]);

/**
 * A normalised word's variants, best first, at most MAX_VARIANTS_PER_WORD: its synonyms, the word
 * without trailing particles (and that word's synonyms), letters and digits apart (`ep45` → ep 45).
 */
export function wordVariants(word: string, synonyms: SynonymTable): WordVariant[] {
  const variants: WordVariant[] = [];
  const add = (kind: RewriteKind, words: string[]) => {
    if (variants.length >= MAX_VARIANTS_PER_WORD || words.length === 0 || (words.length === 1 && words[0] === word)) return;
    if (!variants.some((variant) => variant.words.join(' ') === words.join(' '))) variants.push({ kind, words });
  };
  for (const alternative of synonyms.alternativesOf(word)) add('synonym', phrase(alternative));
  const bare = withoutTrailingParticles(word);
  if (bare !== undefined) {
    add('particle', [bare]);
    for (const alternative of synonyms.alternativesOf(bare)) add('synonym', phrase(alternative));
  }
  // A number and the counter after it (5월, 2회, 3차) are one word in Korean: split, the lone
  // syllable would match nearly every document.
  const runs = word.match(LETTERS_DIGITS) ?? [];
  if (runs.length >= 2 && runs.length <= 3 && !runs.some((run) => LONE_SYLLABLE.test(run))) add('spacing', runs);
  return variants;
}

/**
 * The rewrites of a query's words, at most MAX_REWRITES: the keyboard-layout reading first (the
 * analysed words of `convertLayoutSlips(query)`, when given); then the words' readings (lexicon,
 * Hangul ⇄ Latin, loanword spellings: query-understanding.ts); then each word's first variant in
 * place of the word (words without one stay); then the last word read as half-typed (`팬미ㅌ`,
 * `팬밑`: a prefix) alone; then the words' second and third variants.
 */
export function queryRewrites(words: string[], synonyms: SynonymTable, layoutWords?: string[], readings: string[][] = []): QueryRewrite[] {
  const rewrites: QueryRewrite[] = [];
  const seen = new Set([words.join(' ')]);
  const add = (kind: RewriteKind, rewritten: string[]) => {
    const unique = [...new Set(rewritten)].slice(0, MAX_REWRITE_WORDS);
    const key = unique.join(' ');
    if (rewrites.length >= MAX_REWRITES || unique.length === 0 || seen.has(key)) return;
    seen.add(key);
    rewrites.push({ kind, words: unique });
  };
  if (layoutWords !== undefined) add('layout', layoutWords);
  for (const reading of readings) add('reading', reading);
  const variants = words.map((word) => wordVariants(word, synonyms));
  const rank = (r: number) => {
    let kind: RewriteKind | undefined;
    const rewritten = words.flatMap((word, i) => {
      const variant = variants[i]![r] ?? variants[i]![variants[i]!.length - 1];
      if (variant === undefined) return [word];
      kind ??= variant.kind;
      return variant.words;
    });
    if (kind !== undefined) add(kind, rewritten);
  };
  rank(0);
  const typed = words.length > 0 ? halfTyped(words[words.length - 1]!) : undefined;
  if (typed !== undefined) add('prefix', [...words.slice(0, -1), ...typed]);
  for (let r = 1; r < MAX_VARIANTS_PER_WORD; r++) rank(r);
  return rewrites;
}
