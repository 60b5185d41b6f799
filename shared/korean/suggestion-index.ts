// In-memory completion index: whole-text and word-start prefixes over jamo keys (half-typed
// input) and choseong keys (`ㅍㄹㅁ`), plus a character-bigram inverted index for infixes.
// Every lookup is a binary search or a walk of a rank-ordered list, so work stays bounded
// however many candidates share a prefix and however long the query is.
// Typos: a word of the query that no candidate contains is looked up by its typo skeletons among
// the words (runs of Hangul syllables) of all candidates, each held under its own skeletons
// (shared/korean/typo.ts); the likeliest one within its keystrokes replaces it, and the corrected
// query comes first among the suggestions.
import { foldLatinCase, normalizeText, tidyText } from './normalize.ts';
import { CharClass, charClassOf, choseongCodeOf, hangulJamoOfCode, isChoseongQuery, jamoKeyOfNormalized } from './jamo.ts';
import type { KoreanAnalyzer } from './analyzer.ts';
import { convertLayoutSlips } from './layout.ts';
import { DEFAULT_LEXICON_TABLE, type Lexicon } from './lexicon.ts';
import { queryReadings, understandQuery, withTitleSpellings } from './query-understanding.ts';
import { isTypoCandidate, jamoEdits, maxTypoEdits, typoSkeletons } from './typo.ts';

const HANGUL_WORD = /[가-힣]{2,}/g;
const ONLY_HANGUL = /^[가-힣]+$/;

export interface SuggestionCandidate {
  text: string;
  popularity: number;
  /** Epoch milliseconds. */
  lastUsedAt: number;
}

export interface SuggestionIndexOptions {
  /** Adds word starts inside unspaced text (`프로미스나인콘서트` → `콘서트`). */
  analyzer?: KoreanAnalyzer;
  /** The bilingual lexicon a query that completes nothing is read with (default: the shipped one). */
  lexicon?: Lexicon;
}

/** Words of a query a suggestion must all hold (`#everyWord`); longer queries: their first ones. */
const MAX_EVERY_WORDS = 6;
/** Characters of a query read for a keyboard-layout slip. */
const MAX_LAYOUT_QUERY = 100;

/** Words of a query that completes nothing read as the search reads them (`#completeReadings`). */
const MAX_READ_WORDS = 4;

/** Largest `limit` honoured by `suggest`. */
export const MAX_SUGGESTIONS = 50;

// Ranges of the sorted key arrays larger than this answer from a cached top list.
const HEAVY_RANGE = 512;
// Tier 1 asks for `limit` plus the tier-0 hits it may repeat, so caches keep twice the limit.
const CACHED_TOP = 2 * MAX_SUGGESTIONS;
const MAX_WORD_STARTS = 24;
// Inserted keys wait in a small sorted list until this many, then merge into the main arrays.
const PENDING_LIMIT = 2048;
const MAX_QUERY_BIGRAMS = 24;
// For queries with more than this many bigrams, 80% of them are enough to match.
const EXACT_BIGRAM_QUERY = 6;
const BIGRAM_MATCH_RATIO = 0.8;
// Bound on `includes` checks per query in the bigram walk; only a pathological query reaches
// it, and then gets the matches found so far rather than the exact best ones.
const BIGRAM_CHECK_BUDGET = 20_000;

type Compare = (a: number, b: number) => number;

/** Keeps the `count` best ids (distinct) in rank order. */
function selectTop(ids: Iterable<number>, count: number, compare: Compare, exclude?: ReadonlySet<number>): number[] {
  const best: number[] = [];
  const taken = new Set<number>();
  for (const id of ids) {
    if (taken.has(id) || exclude?.has(id)) continue;
    if (best.length === count && compare(id, best[count - 1]!) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(best[mid]!, id) < 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, id);
    taken.add(id);
    if (best.length > count) taken.delete(best.pop()!);
  }
  return best;
}

/** Inserts or moves `id` in a rank-ordered list, keeping at most `capacity` entries. */
function upsertRanked(list: number[], id: number, compare: Compare, capacity: number): void {
  const existing = list.indexOf(id);
  if (existing >= 0) list.splice(existing, 1);
  insertRanked(list, id, compare, capacity);
}

/** Inserts `id` (not yet in the list) at its rank, keeping at most `capacity` entries. */
function insertRanked(list: number[], id: number, compare: Compare, capacity = Number.POSITIVE_INFINITY): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(list[mid]!, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= capacity) return;
  list.splice(lo, 0, id);
  if (list.length > capacity) list.pop();
}

function commonPrefixLength(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * Order of `keys` by UTF-16 code units (the order of `<`), by multikey quicksort: keys share
 * long prefixes (every title starting with 프로미스나인), which a comparison sort re-reads on
 * every comparison. The code units are copied into one typed array first, which is faster to
 * read than many (sliced) strings.
 */
function sortedOrder(keys: readonly string[]): Int32Array {
  let total = 0;
  for (const key of keys) total += key.length;
  const units = new Uint16Array(total);
  const begin = new Int32Array(keys.length);
  const end = new Int32Array(keys.length);
  let at = 0;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    begin[k] = at;
    for (let i = 0; i < key.length; i++) units[at++] = key.charCodeAt(i);
    end[k] = at;
  }
  // Code unit of key `k` at `depth`, or -1 past its end (shorter keys sort first).
  const codeAt = (k: number, depth: number): number => {
    const position = begin[k]! + depth;
    return position < end[k]! ? units[position]! : -1;
  };
  const compareFrom = (a: number, b: number, depth: number): number => {
    let pa = begin[a]! + depth;
    let pb = begin[b]! + depth;
    const endA = end[a]!;
    const endB = end[b]!;
    for (; pa < endA && pb < endB; pa++, pb++) {
      const difference = units[pa]! - units[pb]!;
      if (difference !== 0) return difference;
    }
    return endA - pa - (endB - pb);
  };

  const order = new Int32Array(keys.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const stack = [0, keys.length, 0];
  while (stack.length > 0) {
    const depth = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    if (hi - lo < 16) {
      for (let i = lo + 1; i < hi; i++) {
        const moving = order[i]!;
        let j = i;
        while (j > lo && compareFrom(order[j - 1]!, moving, depth) > 0) {
          order[j] = order[j - 1]!;
          j--;
        }
        order[j] = moving;
      }
      continue;
    }
    const pivot = codeAt(order[(lo + hi) >>> 1]!, depth);
    let lt = lo;
    let gt = hi - 1;
    let i = lo;
    while (i <= gt) {
      const current = order[i]!;
      const code = codeAt(current, depth);
      if (code < pivot) {
        order[i++] = order[lt]!;
        order[lt++] = current;
      } else if (code > pivot) {
        order[i] = order[gt]!;
        order[gt--] = current;
      } else {
        i++;
      }
    }
    stack.push(lo, lt, depth);
    if (pivot >= 0) stack.push(lt, gt + 1, depth + 1);
    stack.push(gt + 1, hi, depth);
  }
  return order;
}

function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index from `from` whose key sorts after `key`. */
function upperBound(keys: readonly string[], key: string, from: number): number {
  let lo = from;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index from `from` whose key neither precedes nor starts with `prefix`. */
function prefixEnd(keys: readonly string[], prefix: string, from: number): number {
  let lo = from;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]!.startsWith(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Sorted (key, candidate) pairs. A prefix query is two binary searches; when the matching
 * range is large its best candidates come from a cache keyed by the range's common prefix
 * (built bottom-up at load, recomputed lazily when missing). Inserts go to a small sorted
 * pending list, scanned on every query and merged into the main arrays when it fills up,
 * so an insert does not shift 300,000-entry arrays.
 */
class PrefixTable {
  #keys: string[] = [];
  #ids: number[] = [];
  #pendingKeys: string[] = [];
  #pendingIds: number[] = [];
  readonly #topByPrefix = new Map<string, number[]>();
  #longestCachedPrefix = 0;
  readonly #compare: Compare;
  readonly #rankSnapshot: () => Compare;

  /** `rankSnapshot` gives a comparator equal to `compare` but cheaper, for bulk rebuilds. */
  constructor(compare: Compare, rankSnapshot: () => Compare) {
    this.#compare = compare;
    this.#rankSnapshot = rankSnapshot;
  }

  get size(): number {
    return this.#keys.length + this.#pendingKeys.length;
  }

  /** Replaces the contents. */
  load(keys: readonly string[], ids: readonly number[]): void {
    const order = sortedOrder(keys);
    this.#keys = Array.from(order, (i) => keys[i]!);
    this.#ids = Array.from(order, (i) => ids[i]!);
    this.#pendingKeys = [];
    this.#pendingIds = [];
    this.#rebuildCache(this.#rankSnapshot());
  }

  insert(key: string, id: number): void {
    const at = lowerBound(this.#pendingKeys, key);
    this.#pendingKeys.splice(at, 0, key);
    this.#pendingIds.splice(at, 0, id);
    if (this.#pendingKeys.length >= PENDING_LIMIT) this.#mergePending();
  }

  /** The candidate's rank improved: move it up in every cached list along its keys. */
  promote(keys: readonly string[], id: number): void {
    for (const key of keys) {
      this.#forEachCachedPrefix(key, (prefix, list) => upsertRanked(list, id, this.#compare, CACHED_TOP));
    }
  }

  /** The candidate's rank got worse: drop cached lists along its keys (rebuilt on demand). */
  invalidate(keys: readonly string[]): void {
    for (const key of keys) this.#forEachCachedPrefix(key, (prefix) => this.#topByPrefix.delete(prefix));
  }

  /** Best `count` (≤ CACHED_TOP) candidates having a key that starts with `prefix`; a fresh array. */
  top(prefix: string, count: number): number[] {
    const main = this.#mainTop(prefix, count);
    if (this.#pendingKeys.length === 0) return main;
    const lo = lowerBound(this.#pendingKeys, prefix);
    const hi = prefixEnd(this.#pendingKeys, prefix, lo);
    if (lo === hi) return main;
    return selectTop([...main, ...this.#pendingIds.slice(lo, hi)], count, this.#compare);
  }

  #mainTop(prefix: string, count: number): number[] {
    const keys = this.#keys;
    const lo = lowerBound(keys, prefix);
    const hi = prefixEnd(keys, prefix, lo);
    if (hi - lo <= HEAVY_RANGE) return selectTop(this.#ids.slice(lo, hi), count, this.#compare);
    const common = keys[lo]!.slice(0, commonPrefixLength(keys[lo]!, keys[hi - 1]!));
    let list = this.#topByPrefix.get(common);
    if (!list) {
      list = selectTop(this.#ids.slice(lo, hi), CACHED_TOP, this.#compare);
      this.#cache(common, list);
    }
    return list.slice(0, count);
  }

  #mergePending(): void {
    // Few pending keys against many main keys: binary-search each and copy the runs between.
    const keys: string[] = [];
    const ids: number[] = [];
    let copied = 0;
    for (let p = 0; p < this.#pendingKeys.length; p++) {
      const key = this.#pendingKeys[p]!;
      const at = upperBound(this.#keys, key, copied);
      for (let i = copied; i < at; i++) {
        keys.push(this.#keys[i]!);
        ids.push(this.#ids[i]!);
      }
      copied = at;
      keys.push(key);
      ids.push(this.#pendingIds[p]!);
    }
    for (let i = copied; i < this.#keys.length; i++) {
      keys.push(this.#keys[i]!);
      ids.push(this.#ids[i]!);
    }
    this.#keys = keys;
    this.#ids = ids;
    this.#pendingKeys = [];
    this.#pendingIds = [];
    this.#rebuildCache(this.#rankSnapshot());
  }

  #rebuildCache(compare: Compare): void {
    this.#topByPrefix.clear();
    this.#longestCachedPrefix = 0;
    if (this.#keys.length > HEAVY_RANGE) this.#buildCache(0, this.#keys.length, compare);
  }

  #cache(prefix: string, list: number[]): void {
    this.#topByPrefix.set(prefix, list);
    if (prefix.length > this.#longestCachedPrefix) this.#longestCachedPrefix = prefix.length;
  }

  #forEachCachedPrefix(key: string, visit: (prefix: string, list: number[]) => void): void {
    const longest = Math.min(key.length, this.#longestCachedPrefix);
    for (let length = 1; length <= longest; length++) {
      const prefix = key.slice(0, length);
      const list = this.#topByPrefix.get(prefix);
      if (list) visit(prefix, list);
    }
  }

  /** Caches the top list of every heavy range under [lo, hi), children first. */
  #buildCache(lo: number, hi: number, compare: Compare): number[] {
    if (hi - lo <= HEAVY_RANGE) return selectTop(this.#ids.slice(lo, hi), CACHED_TOP, compare);
    const keys = this.#keys;
    const depth = commonPrefixLength(keys[lo]!, keys[hi - 1]!);
    const parts: number[] = [];
    let i = lo;
    // A key equal to the common prefix sorts before every longer key sharing it.
    while (i < hi && keys[i]!.length === depth) parts.push(this.#ids[i++]!);
    while (i < hi) {
      const code = keys[i]!.charCodeAt(depth);
      let a = i + 1;
      let b = hi;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if (keys[mid]!.charCodeAt(depth) === code) a = mid + 1;
        else b = mid;
      }
      for (const id of this.#buildCache(i, a, compare)) parts.push(id);
      i = a;
    }
    const list = selectTop(parts, CACHED_TOP, compare);
    this.#cache(keys[lo]!.slice(0, depth), list);
    return list;
  }
}

interface CandidateKeys {
  jamo: string;
  /** Undefined when the text does not start with Hangul: no choseong query can match it. */
  choseong: string | undefined;
  wordJamo: string[];
  wordChoseong: string[];
}

/** Only keys starting with Hangul go into the choseong tables: a choseong query is all jamo. */
function startsWithHangul(text: string, offset: number): boolean {
  const code = text.charCodeAt(offset);
  return (code >= 0xac00 && code <= 0xd7a3) || (code >= 0x3131 && code <= 0x318e);
}

function unitsToString(units: Uint16Array, length: number): string {
  let text = '';
  // Chunked: `apply` has an argument limit.
  for (let start = 0; start < length; start += 8192) {
    const chunk = units.subarray(start, Math.min(length, start + 8192));
    text += String.fromCharCode.apply(null, chunk as unknown as number[]);
  }
  return text;
}

// Scratch space for #computeKeys (offsets of every code unit, the key code units), reused.
let jamoOffsets = new Int32Array(256);
let choseongOffsets = new Int32Array(256);
let jamoUnits = new Uint16Array(1024);
let choseongUnits = new Uint16Array(256);

/** Calls `visit` with the two code points of every bigram of a text without spaces. */
function forEachBigram(compact: string, visit: (first: number, second: number) => void): void {
  let previous = -1;
  for (let i = 0; i < compact.length; ) {
    const code = compact.codePointAt(i)!;
    if (previous >= 0) visit(previous, code);
    previous = code;
    i += code > 0xffff ? 2 : 1;
  }
}

/** Distinct bigrams of the query; a long query is sampled evenly. */
function queryBigrams(compactQuery: string): string[] {
  const chars = Array.from(compactQuery);
  const seen = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) seen.add(chars[i]! + chars[i + 1]!);
  const distinct = [...seen];
  if (distinct.length <= MAX_QUERY_BIGRAMS) return distinct;
  const step = distinct.length / MAX_QUERY_BIGRAMS;
  return Array.from({ length: MAX_QUERY_BIGRAMS }, (_, i) => distinct[Math.floor(i * step)]!);
}

export class SuggestionIndex {
  readonly #analyzer: KoreanAnalyzer | undefined;
  readonly #lexicon: Lexicon;
  readonly #idByText = new Map<string, number>();
  readonly #display: string[] = [];
  readonly #normalized: string[] = [];
  readonly #compact: string[] = [];
  readonly #popularity: number[] = [];
  readonly #lastUsedAt: number[] = [];
  readonly #keys: CandidateKeys[] = [];
  readonly #compare: Compare = (a, b) =>
    this.#popularity[b]! - this.#popularity[a]! ||
    this.#lastUsedAt[b]! - this.#lastUsedAt[a]! ||
    this.#normalized[a]!.length - this.#normalized[b]!.length ||
    a - b;
  // Rank positions for bulk work; dropped whenever a candidate is added or re-ranked.
  #rank: Int32Array | undefined;
  readonly #rankCompare = (): Compare => {
    if (!this.#rank) {
      const byRank = Array.from({ length: this.#display.length }, (_, id) => id).sort(this.#compare);
      const rank = new Int32Array(byRank.length);
      byRank.forEach((id, position) => (rank[id] = position));
      this.#rank = rank;
    }
    const rank = this.#rank;
    return (a, b) => rank[a]! - rank[b]!;
  };
  // Tier 0: the whole text starts with the query. Tier 1: a later word does (or bigrams).
  readonly #wholeJamo = new PrefixTable(this.#compare, this.#rankCompare);
  readonly #wholeChoseong = new PrefixTable(this.#compare, this.#rankCompare);
  readonly #wordJamo = new PrefixTable(this.#compare, this.#rankCompare);
  readonly #wordChoseong = new PrefixTable(this.#compare, this.#rankCompare);
  // First code point → second code point → ids of candidates containing that bigram, in
  // rank order. Nested maps keep keys small integers; no string is made per bigram.
  readonly #postings = new Map<number, Map<number, number[]>>();
  // Skeleton → words of the candidates with that skeleton → weight (candidates holding the word,
  // plus their popularity): the corrections of a mistyped word.
  readonly #wordsBySkeleton = new Map<string, Map<string, number>>();

  constructor(candidates: Iterable<SuggestionCandidate> = [], options: SuggestionIndexOptions = {}) {
    this.#analyzer = options.analyzer;
    this.#lexicon = options.lexicon ?? DEFAULT_LEXICON_TABLE;
    for (const candidate of candidates) this.#merge(candidate);
    this.#buildAll();
  }

  /** Number of distinct (normalised) candidates. */
  get size(): number {
    return this.#display.length;
  }

  /** Adds a candidate, or merges it into an existing one with the same normalised text. */
  add(candidate: SuggestionCandidate): void {
    this.#rank = undefined;
    const before = this.#idByText.get(normalizeText(candidate.text));
    if (before === undefined) {
      const id = this.#merge(candidate);
      if (id === undefined) return;
      const keys = this.#computeKeys(this.#normalized[id]!);
      this.#keys[id] = keys;
      this.#wholeJamo.insert(keys.jamo, id);
      if (keys.choseong !== undefined) this.#wholeChoseong.insert(keys.choseong, id);
      for (const key of keys.wordJamo) this.#wordJamo.insert(key, id);
      for (const key of keys.wordChoseong) this.#wordChoseong.insert(key, id);
      const touched = new Set<number[]>();
      forEachBigram(this.#compact[id]!, (first, second) => {
        const list = this.#postingList(first, second, true)!;
        if (!touched.has(list)) insertRanked(list, id, this.#compare);
        touched.add(list);
      });
      return;
    }
    const oldPopularity = this.#popularity[before]!;
    const oldLastUsedAt = this.#lastUsedAt[before]!;
    this.#merge(candidate);
    const improved = this.#popularity[before]! >= oldPopularity && this.#lastUsedAt[before]! >= oldLastUsedAt;
    const keys = this.#keys[before]!;
    const tables: [PrefixTable, string[]][] = [
      [this.#wholeJamo, [keys.jamo]],
      [this.#wholeChoseong, keys.choseong === undefined ? [] : [keys.choseong]],
      [this.#wordJamo, keys.wordJamo],
      [this.#wordChoseong, keys.wordChoseong],
    ];
    for (const [table, tableKeys] of tables) {
      if (improved) table.promote(tableKeys, before);
      else table.invalidate(tableKeys);
    }
    const moved = new Set<number[]>();
    forEachBigram(this.#compact[before]!, (first, second) => {
      const list = this.#postingList(first, second, false);
      if (list && !moved.has(list)) upsertRanked(list, before, this.#compare, Number.POSITIVE_INFINITY);
      if (list) moved.add(list);
    });
  }

  /**
   * Completions of what was typed: candidates whose whole text starts with the query come
   * first, then those where a later word starts with it or that contain all its bigrams;
   * within each group by popularity, then recency, then shorter text.
   */
  suggest(query: string, limit = 10): string[] {
    const count = Math.min(MAX_SUGGESTIONS, Math.floor(Number.isFinite(limit) ? limit : 0));
    if (count <= 0) return [];
    // Latin keys typed for Hangul (`fnalsp`): its Hangul reading, when something completes it,
    // first if what was typed completes nothing, else after those completions (`ep` → EP.45).
    const layout = convertLayoutSlips(tidyText(query).slice(0, MAX_LAYOUT_QUERY));
    const layoutCompletions = layout === undefined ? [] : this.#complete(layout, count);
    const corrected = layoutCompletions.length > 0 ? undefined : this.correct(query);
    if (corrected === undefined && layoutCompletions.length === 0) {
      const typed = this.#complete(query, count);
      return typed.length > 0 ? typed : this.#completeReadings(query, count);
    }
    // The corrected (or Hangul) query first, then its completions, then those of what was typed.
    const seen = new Set<string>();
    const suggestions: string[] = [];
    const typed = this.#complete(query, count);
    const texts = corrected !== undefined
      ? [corrected, ...this.#complete(corrected, count), ...typed]
      : typed.length > 0 ? [...typed, layout!, ...layoutCompletions] : [layout!, ...layoutCompletions];
    for (const text of texts) {
      const key = normalizeText(text);
      if (seen.has(key)) continue;
      seen.add(key);
      suggestions.push(text);
      if (suggestions.length === count) break;
    }
    return suggestions;
  }

  /**
   * What a query that completes nothing means, as the search reads it (query-understanding.ts):
   * decorations dropped, a spelling the lexicon knows as the title's, then the words' readings (an
   * English word's Korean term, a loanword's other script): the first reading that completes
   * something, its completions.
   */
  #completeReadings(query: string, count: number): string[] {
    const understood = understandQuery(query.slice(0, MAX_LAYOUT_QUERY)).text;
    const text = withTitleSpellings(understood, this.#lexicon);
    const words = text.split(' ').filter(Boolean);
    // Fans type a few words; a longer run is pasted text or noise, not read further.
    if (words.length === 0 || words.length > MAX_READ_WORDS) return [];
    const readings = text === understood ? queryReadings(words, this.#lexicon) : [words, ...queryReadings(words, this.#lexicon)];
    for (const reading of readings) {
      const readingText = reading.join(' ');
      const found = this.#complete(readingText, count);
      if (found.length > 0) return found;
    }
    return [];
  }

  /**
   * The query with every word that no candidate contains (two Hangul syllables or more) replaced
   * by the word of the candidates one jamo edit away held by the most (and most popular)
   * candidates; undefined when no word changes.
   */
  correct(query: string): string | undefined {
    const words = tidyText(query).split(' ');
    let changed = false;
    const corrected = words.map((word) => {
      const normalized = foldLatinCase(word);
      if (!ONLY_HANGUL.test(normalized) || !isTypoCandidate(normalized)) return word;
      const skeletons = typoSkeletons(normalized);
      if (this.#wordsBySkeleton.get(skeletons[0]!)?.has(normalized) || this.#contains(normalized)) return word;
      const limit = maxTypoEdits(normalized);
      let best: string | undefined;
      let bestWeight = -1;
      for (const skeleton of skeletons) {
        for (const [candidate, weight] of this.#wordsBySkeleton.get(skeleton) ?? []) {
          if (candidate.length !== normalized.length || jamoEdits(candidate, 0, normalized, limit) > limit) continue;
          if (weight > bestWeight || (weight === bestWeight && candidate < best!)) {
            best = candidate;
            bestWeight = weight;
          }
        }
      }
      if (best === undefined) return word;
      changed = true;
      return best;
    });
    return changed ? corrected.join(' ') : undefined;
  }

  /** Whether some candidate's text contains the word (a short word: all its bigrams are checked). */
  #contains(word: string): boolean {
    return this.#bigramTop(word, 1).some((id) => this.#compact[id]!.includes(word));
  }

  #learnWords(normalized: string, weight: number): void {
    for (const [word] of normalized.matchAll(HANGUL_WORD)) {
      for (const skeleton of typoSkeletons(word)) {
        let words = this.#wordsBySkeleton.get(skeleton);
        if (!words) this.#wordsBySkeleton.set(skeleton, (words = new Map()));
        words.set(word, (words.get(word) ?? 0) + weight);
      }
    }
  }

  #complete(query: string, count: number): string[] {
    const normalized = normalizeText(query);
    if (normalized === '') return [];
    const jamo = jamoKeyOfNormalized(normalized);
    if (jamo === '') return [];
    const choseongQuery = isChoseongQuery(normalized) ? normalized.replaceAll(' ', '') : undefined;

    let tier0 = this.#wholeJamo.top(jamo, count);
    if (choseongQuery !== undefined) {
      tier0 = selectTop([...tier0, ...this.#wholeChoseong.top(choseongQuery, count)], count, this.#compare);
    }
    if (tier0.length < count) {
      const fetch = count + tier0.length;
      const sources = this.#wordJamo.top(jamo, fetch);
      if (choseongQuery !== undefined) {
        sources.push(...this.#wordChoseong.top(choseongQuery, fetch));
      } else {
        sources.push(...this.#bigramTop(normalized.replaceAll(' ', ''), fetch));
      }
      tier0.push(...selectTop(sources, count - tier0.length, this.#compare, new Set(tier0)));
    }
    // Nothing completes the words as typed together: candidates holding each of them.
    if (tier0.length === 0 && choseongQuery === undefined && normalized.includes(' ')) {
      tier0.push(...selectTop(this.#everyWord(normalized), count - tier0.length, this.#compare, new Set(tier0)));
    }
    return tier0.map((id) => this.#display[id]!);
  }

  /**
   * Candidates holding every word of a query of several words that completes nothing else,
   * anywhere and in any order (`루미네 MV` → 루미네 '나침반' MV), the last word possibly half-typed
   * (its jamo): seeded by the
   * candidates holding the longest word (`#bigramTop`, bounded), then checked word by word.
   */
  #everyWord(normalized: string): number[] {
    const words = [...new Set(normalized.split(' ').filter(Boolean))].slice(0, MAX_EVERY_WORDS);
    const last = words[words.length - 1]!;
    const whole = words.slice(0, -1);
    const seed = words.reduce((longest, word) => (word.length > longest.length ? word : longest));
    if (seed.length < 2) return [];
    const lastJamo = jamoKeyOfNormalized(last);
    return this.#bigramTop(seed, CACHED_TOP).filter((id) => {
      const text = this.#compact[id]!;
      return whole.every((word) => text.includes(word)) && (text.includes(last) || jamoKeyOfNormalized(text).includes(lastJamo));
    });
  }

  /** Records the candidate (or merges it); returns its id, undefined for empty text. */
  #merge(candidate: SuggestionCandidate): number | undefined {
    const display = tidyText(candidate.text);
    const normalized = foldLatinCase(display);
    if (normalized === '') return undefined;
    const popularity = Number.isFinite(candidate.popularity) ? candidate.popularity : 0;
    const lastUsedAt = Number.isFinite(candidate.lastUsedAt) ? candidate.lastUsedAt : 0;
    const existing = this.#idByText.get(normalized);
    if (existing !== undefined) {
      if (popularity > 0) this.#learnWords(normalized, popularity);
      this.#popularity[existing]! += popularity;
      if (lastUsedAt > this.#lastUsedAt[existing]!) this.#lastUsedAt[existing] = lastUsedAt;
      return existing;
    }
    const id = this.#display.length;
    this.#learnWords(normalized, 1 + Math.max(0, popularity));
    this.#idByText.set(normalized, id);
    this.#display.push(display);
    this.#normalized.push(normalized);
    this.#compact.push(normalized.replaceAll(' ', ''));
    this.#popularity.push(popularity);
    this.#lastUsedAt.push(lastUsedAt);
    return id;
  }

  #buildAll(): void {
    const total = this.#display.length;

    const wholeJamo: string[] = [];
    const ids: number[] = [];
    const wholeChoseong: string[] = [];
    const wholeChoseongIds: number[] = [];
    const wordJamo: string[] = [];
    const wordJamoIds: number[] = [];
    const wordChoseong: string[] = [];
    const wordChoseongIds: number[] = [];
    for (let id = 0; id < total; id++) {
      const keys = this.#computeKeys(this.#normalized[id]!);
      this.#keys[id] = keys;
      wholeJamo.push(keys.jamo);
      ids.push(id);
      if (keys.choseong !== undefined) {
        wholeChoseong.push(keys.choseong);
        wholeChoseongIds.push(id);
      }
      for (const key of keys.wordJamo) {
        wordJamo.push(key);
        wordJamoIds.push(id);
      }
      for (const key of keys.wordChoseong) {
        wordChoseong.push(key);
        wordChoseongIds.push(id);
      }
    }
    this.#wholeJamo.load(wholeJamo, ids);
    this.#wholeChoseong.load(wholeChoseong, wholeChoseongIds);
    this.#wordJamo.load(wordJamo, wordJamoIds);
    this.#wordChoseong.load(wordChoseong, wordChoseongIds);

    // Visiting candidates in rank order leaves every posting list rank-ordered.
    const byRank = Array.from({ length: total }, (_, id) => id).sort(this.#rankCompare());
    for (const id of byRank) {
      forEachBigram(this.#compact[id]!, (first, second) => {
        const list = this.#postingList(first, second, true)!;
        if (list[list.length - 1] !== id) list.push(id);
      });
    }
  }

  #postingList(first: number, second: number, create: boolean): number[] | undefined {
    let bySecond = this.#postings.get(first);
    if (!bySecond) {
      if (!create) return undefined;
      this.#postings.set(first, (bySecond = new Map()));
    }
    let list = bySecond.get(second);
    if (!list && create) bySecond.set(second, (list = []));
    return list;
  }

  /** Whole-text keys and the keys from each later word start. */
  #computeKeys(normalized: string): CandidateKeys {
    const length = normalized.length;
    // A code unit disassembles into at most 5 jamo (뛁 → ㄸㅜㅣㄹㄱ).
    if (jamoOffsets.length < length + 1) {
      jamoOffsets = new Int32Array((length + 1) * 2);
      choseongOffsets = new Int32Array((length + 1) * 2);
    }
    if (jamoUnits.length < length * 5) jamoUnits = new Uint16Array(length * 10);
    if (choseongUnits.length < length) choseongUnits = new Uint16Array(length * 2);
    const starts: number[] = [];
    let jamoLength = 0;
    let choseongLength = 0;
    let previousClass: CharClass = CharClass.Separator;
    let lastWordClass: CharClass = CharClass.Separator;
    let spaceSinceWord = false;
    for (let i = 0; i < length; ) {
      const code = normalized.charCodeAt(i);
      if (code === 0x20) {
        previousClass = CharClass.Separator;
        spaceSinceWord = true;
        i++;
        continue;
      }
      const width = code >= 0xd800 && code <= 0xdbff && i + 1 < length ? 2 : 1;
      const charClass =
        code >= 0xac00 && code <= 0xd7a3 ? CharClass.Hangul : charClassOf(width === 2 ? normalized.codePointAt(i)! : code);
      if (charClass !== CharClass.Separator) {
        // A word starts after a space or punctuation and where the script changes
        // (fromis9콘서트), but not at punctuation inside a Latin/digit run (2024.05.12, fromis_9).
        const afterSeparator =
          previousClass === CharClass.Separator &&
          (spaceSinceWord || !(lastWordClass === CharClass.LetterOrDigit && charClass === CharClass.LetterOrDigit));
        const scriptChange = previousClass !== CharClass.Separator && previousClass !== charClass;
        if (i > 0 && (afterSeparator || scriptChange)) starts.push(i);
        lastWordClass = charClass;
        spaceSinceWord = false;
      }
      previousClass = charClass;
      jamoOffsets[i] = jamoLength;
      choseongOffsets[i] = choseongLength;
      const jamo = hangulJamoOfCode(code);
      if (jamo !== undefined) {
        for (let j = 0; j < jamo.length; j++) jamoUnits[jamoLength++] = jamo.charCodeAt(j);
        choseongUnits[choseongLength++] = choseongCodeOf(code);
      } else {
        for (let j = i; j < i + width; j++) {
          jamoUnits[jamoLength++] = normalized.charCodeAt(j);
          choseongUnits[choseongLength++] = normalized.charCodeAt(j);
        }
      }
      i += width;
    }
    const jamo = unitsToString(jamoUnits, jamoLength);
    const choseong = unitsToString(choseongUnits, choseongLength);
    if (this.#analyzer) {
      for (const token of this.#analyzer.segment(normalized)) {
        if (token.start > 0 && !starts.includes(token.start)) starts.push(token.start);
      }
      starts.sort((a, b) => a - b);
    }
    const wordJamo: string[] = [];
    const wordChoseong: string[] = [];
    for (let s = 0; s < starts.length && s < MAX_WORD_STARTS; s++) {
      const start = starts[s]!;
      const offset = jamoOffsets[start]!;
      if (offset <= 0) continue;
      const jamoKey = jamo.slice(offset);
      if (wordJamo.includes(jamoKey)) continue;
      wordJamo.push(jamoKey);
      const choseongOffset = choseongOffsets[start]!;
      if (startsWithHangul(choseong, choseongOffset)) wordChoseong.push(choseong.slice(choseongOffset));
    }
    return { jamo, choseong: startsWithHangul(choseong, 0) ? choseong : undefined, wordJamo, wordChoseong };
  }

  /** Candidates containing all the query's bigrams (80% of them for longer queries). */
  #bigramTop(compactQuery: string, count: number): number[] {
    const grams = queryBigrams(compactQuery);
    if (grams.length === 0) return [];
    const lists = grams.map((text) => {
      const first = text.codePointAt(0)!;
      const second = text.codePointAt(first > 0xffff ? 2 : 1)!;
      return { text, ids: this.#postingList(first, second, false) ?? [] };
    });
    lists.sort((a, b) => a.ids.length - b.ids.length);
    const required = grams.length <= EXACT_BIGRAM_QUERY ? grams.length : Math.ceil(grams.length * BIGRAM_MATCH_RATIO);
    const allowedMissing = grams.length - required;
    // Any match holds at least one of the (allowedMissing + 1) rarest bigrams.
    const seeds = lists.slice(0, allowedMissing + 1);
    const found: number[] = [];
    const seen = new Set<number>();
    let budget = BIGRAM_CHECK_BUDGET;
    for (const seed of seeds) {
      let accepted = 0;
      for (const id of seed.ids) {
        if (seen.has(id)) continue;
        seen.add(id);
        const text = this.#compact[id]!;
        let missing = 0;
        for (const gram of lists) {
          if (gram !== seed && !text.includes(gram.text) && ++missing > allowedMissing) break;
        }
        budget -= grams.length;
        if (missing <= allowedMissing) {
          found.push(id);
          if (++accepted >= count) break;
        }
        if (budget <= 0) break;
      }
      if (budget <= 0) break;
    }
    return selectTop(found, count, this.#compare);
  }
}
