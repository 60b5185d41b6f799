// In-memory completion index: whole-text and word-start prefixes over jamo keys (half-typed
// input) and choseong keys (`ㅍㄹㅁ`), plus a character-bigram inverted index for infixes.
// Every lookup is a binary search or a walk of a rank-ordered list, so work stays bounded
// however many candidates share a prefix and however long the query is.
// Typos: a word of the query that no candidate contains is looked up by its typo skeletons among
// the words (runs of Hangul syllables) of all candidates, each held under its own skeletons
// (shared/korean/typo.ts); the likeliest one within its keystrokes replaces it, and the corrected
// query comes first among the suggestions.
// Beside it: the rank-ordered prefix tables and list helpers (suggestion-prefix-table.ts) and the
// keys and bigrams a candidate is found by (suggestion-keys.ts).
import { foldLatinCase, normalizeText, tidyText } from './normalize.ts';
import { isChoseongQuery, jamoKeyOfNormalized } from './jamo.ts';
import { withoutTrailingParticles, type KoreanAnalyzer } from './analyzer.ts';
import { convertLayoutSlips } from './layout.ts';
import { DEFAULT_LEXICON_TABLE, type Lexicon } from './lexicon.ts';
import { queryReadings, understandQuery, withTitleSpellings } from './query-understanding.ts';
import { isTypoCandidate, jamoEdits, maxTypoEdits, typoSkeletons } from './typo.ts';
import { CACHED_TOP, MAX_SUGGESTIONS, PrefixTable, insertRanked, selectTop, upsertRanked, type Compare } from './suggestion-prefix-table.ts';
import { computeKeys, forEachBigram, queryBigrams, type CandidateKeys } from './suggestion-keys.ts';

export { MAX_SUGGESTIONS };

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

// For queries with more than this many bigrams, 80% of them are enough to match.
const EXACT_BIGRAM_QUERY = 6;
const BIGRAM_MATCH_RATIO = 0.8;
// Bound on `includes` checks per query in the bigram walk; only a pathological query reaches
// it, and then gets the matches found so far rather than the exact best ones.
const BIGRAM_CHECK_BUDGET = 20_000;

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
    return this.#idByText.size;
  }

  /**
   * Takes a candidate out (a schedule renamed or deleted): no lookup finds it again, and its words
   * no longer correct a typo. Its slot stays, unreachable, until the next build. False when absent.
   */
  remove(text: string): boolean {
    const normalized = normalizeText(text);
    const id = this.#idByText.get(normalized);
    if (id === undefined) return false;
    this.#idByText.delete(normalized);
    this.#rank = undefined;
    const keys = this.#keys[id]!;
    this.#wholeJamo.remove([keys.jamo], id);
    if (keys.choseong !== undefined) this.#wholeChoseong.remove([keys.choseong], id);
    this.#wordJamo.remove(keys.wordJamo, id);
    this.#wordChoseong.remove(keys.wordChoseong, id);
    forEachBigram(this.#compact[id]!, (first, second) => {
      const list = this.#postingList(first, second, false);
      const at = list ? list.indexOf(id) : -1;
      if (at >= 0) list!.splice(at, 1);
    });
    this.#learnWords(normalized, -(1 + Math.max(0, this.#popularity[id]!)));
    return true;
  }

  /** Adds a candidate, or merges it into an existing one with the same normalised text. */
  add(candidate: SuggestionCandidate): void {
    this.#rank = undefined;
    const before = this.#idByText.get(normalizeText(candidate.text));
    if (before === undefined) {
      const id = this.#merge(candidate);
      if (id === undefined) return;
      const keys = computeKeys(this.#normalized[id]!, this.#analyzer);
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
   * decorations dropped, a spelling the lexicon knows as the title's, trailing particles off each
   * Hangul word (`나침반의` → 나침반, `루미네에서` → 루미네), then the words' readings (an English
   * word's Korean term, a loanword's other script): the first reading that completes something,
   * its completions.
   */
  #completeReadings(query: string, count: number): string[] {
    const understood = understandQuery(query.slice(0, MAX_LAYOUT_QUERY)).text;
    const spelled = withTitleSpellings(understood, this.#lexicon);
    const words = spelled.split(' ').filter(Boolean).map((word) => withoutTrailingParticles(word) ?? word);
    const text = words.join(' ');
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
        const total = (words.get(word) ?? 0) + weight;
        // A negative weight unlearns a removed candidate's words; a word no candidate holds goes.
        if (total > 0) words.set(word, total);
        else words.delete(word);
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
      const keys = computeKeys(this.#normalized[id]!, this.#analyzer);
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
