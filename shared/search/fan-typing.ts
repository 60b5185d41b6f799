// One search, as fans type (issue 41), over either engine's primitives: the query's own words
// first (exact, best first); when nothing matches well, the bounded rewrites of
// shared/korean/query-rewrites.ts (a keyboard-layout slip, fan shorthand, particles, a half-typed
// last syllable, letters and digits run together) follow the exact matches, then the typo matches;
// and when no document matches every word, words are left out (those matching nothing, then one
// at most MAX_DROP_ATTEMPTS more searches) and named in `ignoredWords`. Every step is one
// engine search of at most eight words: a query costs at most a fixed number of them.
import { isTypoCandidate } from '../korean/typo.ts';
import type { QueryRewrite } from '../korean/query-rewrites.ts';
import type { SearchPage } from './search-index.ts';

/** Weak results of the words and of their rewrites are merged up to about this many. */
export const MERGE_LIMIT = 200;
/** Searches leaving words out, tried when no document matches every word. */
export const MAX_DROP_ATTEMPTS = 4;

type Page = { offset: number; limit: number };

/** What an engine offers the fan-typing search. */
export interface WordSearchEngine {
  /** Documents matching every word exactly, best first; `strong` when one matches every word outside the description. */
  exact(words: string[], page: Page): Promise<SearchPage & { strong: boolean }>;
  /** Documents matching every word, some within a typo (not every word exactly when `someExact`), best first. */
  typos(words: string[], someExact: boolean): Promise<number[]>;
  /** Per word: whether some document matches it alone (exactly, or its typo skeleton). */
  present(words: string[]): Promise<boolean[]>;
}

/** The search of `words`; `rewrites` are asked for only when the words match nothing well. */
export async function searchAsFansType(engine: WordSearchEngine, words: string[], page: Page, rewrites: () => Promise<QueryRewrite[]>): Promise<SearchPage> {
  const head = await engine.exact(words, page);
  // More exact matches than are counted: anything else would only come after all of them.
  if (head.hasMore !== undefined) return { ids: head.ids, total: head.total, hasMore: head.hasMore };
  if (head.strong) return { ids: head.ids, total: head.total };
  const end = page.offset + page.limit;
  if (head.total > MERGE_LIMIT || end > MERGE_LIMIT) {
    // Far pages of a weak query: its typo matches after its exact ones, as before rewrites.
    const typos = words.some(isTypoCandidate) ? await engine.typos(words, head.total > 0) : [];
    const from = Math.max(0, page.offset - head.total);
    const room = page.limit - head.ids.length;
    const ids = room > 0 && end > head.total ? [...head.ids, ...typos.slice(from, from + room)] : head.ids;
    return { ids, total: head.total + typos.length };
  }
  const headIds = head.total <= head.ids.length && page.offset === 0 ? head.ids : (await engine.exact(words, { offset: 0, limit: MERGE_LIMIT })).ids;
  const merged = new Set<number>();
  const add = (ids: number[]) => {
    for (const id of ids) merged.add(id);
  };
  // A rewrite matching well (every word outside the description) ranks above the words' own weak
  // matches (only in a description); a rewrite matching weakly ranks below them.
  const rewritten = await rewrites();
  const weakRewrites: number[][] = [];
  for (const rewrite of rewritten) {
    const found = await engine.exact(rewrite.words, { offset: 0, limit: MERGE_LIMIT });
    if (found.strong) add(found.ids);
    else weakRewrites.push(found.ids);
  }
  add(headIds);
  for (const ids of weakRewrites) add(ids);
  if (words.some(isTypoCandidate)) add(await engine.typos(words, head.total > 0));
  if (merged.size === 0) {
    // The first rewrite that may hold a typo, within one more search.
    const typoRewrite = rewritten.find((rewrite) => rewrite.words.some(isTypoCandidate));
    if (typoRewrite) add(await engine.typos(typoRewrite.words, false));
  }
  if (merged.size > 0 || words.length < 2) return pageOf([...merged], page);
  return leaveWordsOut(engine, words, page);
}

const pageOf = (ids: number[], page: Page, ignoredWords?: string[]): SearchPage => ({
  ids: ids.slice(page.offset, page.offset + page.limit),
  total: ids.length,
  ...(ignoredWords && ignoredWords.length > 0 ? { ignoredWords } : {}),
});

/** A search's matches, exact then typos: what a subset of the words finds. */
async function matchesOf(engine: WordSearchEngine, words: string[]): Promise<number[]> {
  const exact = await engine.exact(words, { offset: 0, limit: MERGE_LIMIT });
  if (exact.strong || !words.some(isTypoCandidate)) return exact.ids;
  const typos = await engine.typos(words, exact.total > 0);
  return [...new Set([...exact.ids, ...typos])];
}

/**
 * No document matches every word: the words matching nothing are left out, then (when the rest
 * still match nothing together) more words, at most MAX_DROP_ATTEMPTS searches: in the order words
 * with digits first (a month or a year beside a name), then the shortest, the last typed first;
 * the first word, or else the second, then the first two together, then the first three.
 */
async function leaveWordsOut(engine: WordSearchEngine, words: string[], page: Page): Promise<SearchPage> {
  const present = await engine.present(words);
  const kept = words.filter((_, i) => present[i]);
  const ignored = words.filter((_, i) => !present[i]);
  if (kept.length === 0) return { ids: [], total: 0 };
  if (ignored.length > 0) {
    const found = await matchesOf(engine, kept);
    if (found.length > 0 || kept.length < 2) return pageOf(found, page, ignored);
  }
  const order = kept
    .map((word, i) => ({ word, i, digits: /[0-9]/.test(word) ? 0 : 1 }))
    .sort((a, b) => a.digits - b.digits || [...a.word].length - [...b.word].length || b.i - a.i)
    .map(({ word }) => word);
  const attempts = [[order[0]!], [order[1]!], ...(order.length > 2 ? [order.slice(0, 2)] : []), ...(order.length > 3 ? [order.slice(0, 3)] : [])];
  for (const left of attempts.slice(0, MAX_DROP_ATTEMPTS)) {
    const found = await matchesOf(engine, kept.filter((word) => !left.includes(word)));
    if (found.length > 0) return pageOf(found, page, [...ignored, ...left]);
  }
  return { ids: [], total: 0 };
}
