// A small dictionary-driven Korean tokenizer: no morphological model is available offline
// (see DEPENDENCIES.md), so it splits on spaces and punctuation, segments unspaced text by
// greedy longest dictionary match, and strips trailing particles and common endings.
import { normalizeText } from './normalize.ts';
import { CharClass, charClassOf } from './jamo.ts';

export interface AnalyzerWord {
  word: string;
  tag?: string;
}

export interface Token {
  /** Normalised token text (Latin lowercased). */
  text: string;
  /** Code-unit offset of the token in the normalised input. */
  start: number;
  /** True when the token is a dictionary word. */
  known: boolean;
}

// Particles (조사) and frequent endings (어미), stripped from the end of a chunk. Single
// syllables that often end ordinary nouns (고양이, 바나나, 첫사랑) need a longer remainder
// before they are stripped from a word the dictionary does not know.
const MULTI_SYLLABLE_SUFFIXES = [
  '에게서', '한테서', '으로서', '으로써', '이라도', '에서의',
  '에서', '에게', '으로', '까지', '부터', '이나', '이랑', '하고', '처럼', '보다', '께서', '한테',
  '로서', '로써', '마저', '조차', '밖에', '라도', '이며', '이고', '에다',
  '했습니다', '입니다', '합니다', '됩니다', '이에요', '예요', '에요', '이다', '했다', '한다', '된다',
  '해요', '하는', '했던', '하기', '하며',
];
const AMBIGUOUS_SYLLABLES = ['이', '도', '만', '나', '로', '와', '과', '랑'];
const PLAIN_SYLLABLES = ['은', '는', '을', '를', '의', '에', '가'];

const SUFFIXES = [...MULTI_SYLLABLE_SUFFIXES, ...AMBIGUOUS_SYLLABLES, ...PLAIN_SYLLABLES].sort(
  (a, b) => b.length - a.length,
);
const SUFFIX_SET: ReadonlySet<string> = new Set(SUFFIXES);
const AMBIGUOUS_SET: ReadonlySet<string> = new Set(AMBIGUOUS_SYLLABLES);
const LONGEST_SUFFIX = SUFFIXES[0]?.length ?? 0;
const MAX_SUFFIX_STRIPS = 3;

/** Syllables that must remain when `suffix` is stripped from a word the dictionary lacks. */
function minimumUnknownRemainder(suffix: string): number {
  if (suffix.length >= 2) return 1;
  return AMBIGUOUS_SET.has(suffix) ? 3 : 2;
}

/** True when the text is one or more particles/endings in a row (에서도, 까지만). */
function isSuffixSequence(text: string): boolean {
  if (text.length === 0 || text.length > LONGEST_SUFFIX * 3) return false;
  const reachable = new Array<boolean>(text.length + 1).fill(false);
  reachable[0] = true;
  for (let i = 0; i < text.length; i++) {
    if (!reachable[i]) continue;
    for (let length = 1; length <= LONGEST_SUFFIX && i + length <= text.length; length++) {
      if (SUFFIX_SET.has(text.slice(i, i + length))) reachable[i + length] = true;
    }
  }
  return reachable[text.length] === true;
}

/**
 * The word without its trailing particles or endings (`나침반이` → 나침반, `루미네에서도` → 루미네),
 * or undefined when it has none: a query word that needs not match with them. A one-syllable
 * particle leaves at least two syllables (고양이 keeps its 이), a longer one at least one.
 */
export function withoutTrailingParticles(word: string): string | undefined {
  let rest = word;
  for (let strips = 0; strips < MAX_SUFFIX_STRIPS; strips++) {
    let stripped: string | undefined;
    for (let length = Math.min(LONGEST_SUFFIX, rest.length - 1); length >= 1 && stripped === undefined; length--) {
      const suffix = rest.slice(rest.length - length);
      if (!SUFFIX_SET.has(suffix) || !/^[가-힣]+$/.test(rest)) continue;
      if (rest.length - length >= (length >= 2 ? 1 : 2)) stripped = rest.slice(0, rest.length - length);
    }
    if (stripped === undefined) break;
    rest = stripped;
  }
  return rest === word ? undefined : rest;
}

interface TrieNode {
  next: Map<number, TrieNode> | undefined;
  tag: string | undefined;
  terminal: boolean;
}

function newNode(): TrieNode {
  return { next: undefined, tag: undefined, terminal: false };
}

// Character class of every code unit of the text being segmented (low surrogates get the
// class of their pair); grown on demand and reused so segmenting allocates little.
let classes = new Uint8Array(256);

function classify(text: string): Uint8Array {
  if (classes.length < text.length) classes = new Uint8Array(Math.max(text.length, classes.length * 2));
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xac00 && code <= 0xd7a3) {
      classes[i] = CharClass.Hangul;
    } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      classes[i] = classes[i + 1] = charClassOf(text.codePointAt(i)!);
      i++;
    } else {
      classes[i] = charClassOf(code);
    }
  }
  return classes;
}

export class KoreanAnalyzer {
  readonly #root: TrieNode = newNode();
  #size = 0;

  constructor(words: Iterable<AnalyzerWord> = []) {
    for (const word of words) this.add(word);
  }

  /** Number of distinct dictionary words. */
  get size(): number {
    return this.#size;
  }

  /** Adds a word; a word with spaces (a romanised full name) adds each part. */
  add(entry: AnalyzerWord): void {
    const normalized = normalizeText(entry.word);
    for (const part of normalized.split(' ')) {
      if (part === '') continue;
      let node = this.#root;
      for (let i = 0; i < part.length; i++) {
        const code = part.charCodeAt(i);
        node.next ??= new Map();
        let child = node.next.get(code);
        if (!child) {
          child = newNode();
          node.next.set(code, child);
        }
        node = child;
      }
      if (!node.terminal) this.#size++;
      node.terminal = true;
      if (entry.tag !== undefined) node.tag = entry.tag;
    }
  }

  has(word: string): boolean {
    return this.#find(normalizeText(word))?.terminal === true;
  }

  tagOf(word: string): string | undefined {
    const node = this.#find(normalizeText(word));
    return node?.terminal ? node.tag : undefined;
  }

  /** Search tokens of the text, e.g. `프로미스나인콘서트에서` → [프로미스나인, 콘서트]. */
  tokens(text: string): string[] {
    return this.segment(normalizeText(text)).map((token) => token.text);
  }

  /** Tokens with their offsets; the input must already be normalised (`normalizeText`). */
  segment(normalized: string): Token[] {
    const tokens: Token[] = [];
    const charClasses = classify(normalized);
    let chunkStart = 0;
    while (chunkStart < normalized.length) {
      let chunkEnd = normalized.indexOf(' ', chunkStart);
      if (chunkEnd < 0) chunkEnd = normalized.length;
      if (chunkEnd > chunkStart) this.#segmentChunk(normalized, charClasses, chunkStart, chunkEnd, tokens);
      chunkStart = chunkEnd + 1;
    }
    return tokens;
  }

  #find(word: string): TrieNode | undefined {
    let node: TrieNode | undefined = this.#root;
    for (let i = 0; i < word.length && node; i++) node = node.next?.get(word.charCodeAt(i));
    return node;
  }

  #isKnown(word: string): boolean {
    return this.#find(word)?.terminal === true;
  }

  /** Greedy longest match, left to right; unmatched stretches are handled by #emitUnknown. */
  #segmentChunk(text: string, charClasses: Uint8Array, start: number, end: number, tokens: Token[]): void {
    const firstToken = tokens.length;
    let unknownStart = -1;
    let i = start;
    while (i < end) {
      // A Latin word must not start or end inside a Latin/digit run (`kbs` in `kbsworld`).
      const insideLatinRun =
        i > start && charClasses[i - 1] === CharClass.LetterOrDigit && charClasses[i] === CharClass.LetterOrDigit;
      const matchEnd = insideLatinRun ? -1 : this.#longestMatch(text, charClasses, i, end);
      if (matchEnd > i) {
        if (unknownStart >= 0) this.#emitUnknown(text, charClasses, unknownStart, i, tokens, tokens.length > firstToken);
        unknownStart = -1;
        tokens.push({ text: text.slice(i, matchEnd), start: i, known: true });
        i = matchEnd;
      } else {
        if (unknownStart < 0) unknownStart = i;
        const code = text.charCodeAt(i);
        i += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
      }
    }
    if (unknownStart >= 0) this.#emitUnknown(text, charClasses, unknownStart, end, tokens, tokens.length > firstToken);
  }

  #longestMatch(text: string, charClasses: Uint8Array, start: number, end: number): number {
    let node: TrieNode | undefined = this.#root;
    let matchEnd = -1;
    for (let j = start; j < end; j++) {
      node = node.next?.get(text.charCodeAt(j));
      if (!node) break;
      const splitsLatinRun =
        j + 1 < end && charClasses[j] === CharClass.LetterOrDigit && charClasses[j + 1] === CharClass.LetterOrDigit;
      if (node.terminal && !splitsLatinRun) matchEnd = j + 1;
    }
    return matchEnd;
  }

  /** Splits an unknown stretch into Hangul and Latin/digit runs; punctuation and emoji drop. */
  #emitUnknown(text: string, charClasses: Uint8Array, start: number, end: number, tokens: Token[], preceded: boolean): void {
    let i = start;
    while (i < end) {
      const runClass = charClasses[i]!;
      let runEnd = i + 1;
      while (runEnd < end && charClasses[runEnd] === runClass) runEnd++;
      if (runClass === CharClass.Hangul) {
        this.#emitHangul(text.slice(i, runEnd), i, tokens, preceded);
        preceded = true;
      } else if (runClass === CharClass.LetterOrDigit) {
        tokens.push({ text: text.slice(i, runEnd), start: i, known: false });
        preceded = true;
      }
      i = runEnd;
    }
  }

  #emitHangul(run: string, start: number, tokens: Token[], preceded: boolean): void {
    // Particles right after a word (`콘서트` + `에서도`) are not tokens of their own.
    if (preceded && isSuffixSequence(run)) return;
    let word = run;
    let known = this.#isKnown(word);
    for (let strips = 0; strips < MAX_SUFFIX_STRIPS && !known; strips++) {
      const suffix = this.#strippableSuffix(word);
      if (suffix === undefined) break;
      word = word.slice(0, word.length - suffix.length);
      known = this.#isKnown(word);
    }
    tokens.push({ text: word, start, known });
  }

  #strippableSuffix(word: string): string | undefined {
    // Prefer a strip that leaves a dictionary word; otherwise require a longer remainder.
    const longest = Math.min(LONGEST_SUFFIX, word.length - 1);
    let fallback: string | undefined;
    for (let length = longest; length >= 1; length--) {
      const suffix = word.slice(word.length - length);
      if (!SUFFIX_SET.has(suffix)) continue;
      const remainder = word.length - length;
      if (this.#isKnown(word.slice(0, remainder))) return suffix;
      if (fallback === undefined && remainder >= minimumUnknownRemainder(suffix)) fallback = suffix;
    }
    return fallback;
  }
}

/** Title words shorter than this are not learnt (one syllable would split every unknown word). */
export const MIN_HARVESTED_WORD = 2;

/** Teaches the analyser the Hangul words of schedule titles, so run-together queries split at them. */
export function harvestTitleWords(analyzer: KoreanAnalyzer, titles: Iterable<string>): void {
  for (const title of titles) {
    for (const word of normalizeText(title).split(' ')) {
      if ([...word].length >= MIN_HARVESTED_WORD && /[가-힣]/.test(word)) analyzer.add({ word, tag: 'NNG' });
    }
  }
}
