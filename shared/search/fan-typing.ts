// One search, as fans type, over either engine's primitives: the query's own words
// first (exact, best first); when nothing matches well, the bounded rewrites of
// shared/korean/query-rewrites.ts (a keyboard-layout slip, fan shorthand, particles, a half-typed
// last syllable, letters and digits run together) follow the exact matches, then the typo matches;
// and when no document matches every word, words are left out (those matching nothing, then each
// word in turn, then at most MAX_DROP_ATTEMPTS more searches) and named in `ignoredWords`; a word
// naming a month (5월) is first read as the schedules' month instead. Words are left out heaviest
// first (`WordSearchEngine.weights`), and a word in most documents (a group name) beside others is
// the weakest signal from the start (`searchWeighted`). A date the query-understanding step read
// (shared/korean/query-understanding.ts) filters by that day (`searchOnDate`). Every step is one
// engine search of at most eight words: a query costs at most a fixed number of them.
import { isTypoCandidate } from '../korean/typo.ts';
import type { QueryRewrite } from '../korean/query-rewrites.ts';
import type { QueryDate } from '../korean/query-dates.ts';
import { SEARCH_TOTAL_CAP, type SearchPage } from './search-index.ts';

/** Weak results of the words and of their rewrites are merged up to about this many. */
export const MERGE_LIMIT = 200;
/** Queries of at most this many words get rewrites and words left out (what fans type runs two to five words). */
export const MAX_FAN_TYPING_WORDS = 6;
/** Queries of at most this many words also look for typos in a rewrite. */
const MAX_TYPO_REWRITE_WORDS = 3;
/** Searches leaving words out one after another (after the all-but-one searches of three words or more). */
export const MAX_DROP_ATTEMPTS = 2;

type Page = { offset: number; limit: number };

/** An exact search's answer; `matches` when every match's id was asked for. */
type ExactPage = SearchPage & { strong: boolean; matches?: number[] };

/** What an engine offers the fan-typing search. */
export interface WordSearchEngine {
  /**
   * Documents matching every word exactly, best first; `strong` when one matches every word outside
   * the description. With `all`, also every match's id (`matches`, in any order) when there are
   * more than the page holds and no more than SEARCH_TOTAL_CAP: lists merged from several searches
   * count a document once.
   */
  exact(words: string[], page: Page, all?: boolean): Promise<ExactPage>;
  /** Documents matching every word, some within a typo (not every word exactly when `someExact`), best first. */
  typos(words: string[], someExact: boolean): Promise<number[]>;
  /** Per word: whether some document matches it alone (exactly, or its typo skeleton). */
  present(words: string[]): Promise<boolean[]>;
  /** Documents dated in `month` (1-12, of any year) matching every word exactly, best first. */
  inMonth(words: string[], month: number, page: Page): Promise<SearchPage>;
  /**
   * Whether the words probably match nothing together, known without a search (a sample of the
   * documents): the searches that would follow a weak exact search then start beside it. Only
   * how long a query takes depends on it, never what it answers.
   */
  likelyUnmatched?(words: string[]): Promise<boolean>;
  /** Per word: whether it probably matches nothing alone, not even within a typo (the same sample). */
  likelyAbsent?(words: string[]): Promise<boolean[]>;
  /** Whether the words' typo search probably finds nothing (the same sample). */
  likelyNoTypos?(words: string[]): Promise<boolean>;
  /**
   * Per word: the share of documents it names (holding it in the title, a source or the venue; a
   * member's name a tenth of that), estimated from a sample or counted; undefined when unknown. A
   * group name is in most documents, an event kind in some, and a member is the most specific.
   */
  weights?(words: string[]): Promise<WordWeights | undefined>;
  /**
   * The documents dated on `date` (a day, a day of any month, a month; of any year unless it names
   * one), ranked by how many of the words each matches (a word by any of its forms), then by their
   * score, then newest first; only those matching one word or more when words are given. `missing`:
   * the words the first document on the page does not match.
   */
  onDate(forms: string[][], date: QueryDate, page: Page): Promise<SearchPage & { missing?: number[] }>;
  /** The readings of some words (the query-understanding step's), best first, when the search has them. */
  readings?(words: string[]): Promise<string[][]>;
  /** Per word, its forms (itself first, its lexicon terms, its readings), when the search has them. */
  forms?(words: string[]): Promise<string[][]>;
}

/** Per word the share of documents naming it, and how many documents the shares are of (about). */
export interface WordWeights {
  shares: number[];
  documents: number;
}

/** What the query-understanding step read beside the words: the date, and each word's forms (itself first). */
export interface Understood {
  date?: QueryDate;
  forms(words: string[]): Promise<string[][]>;
  /** Words as typed (spaces apart): a word the analyser split into pieces (티켓팅 → 티켓, 팅) is left out whole first. */
  typed?: string[];
  /** The readings of some words (lexicon terms, transliterations: query-understanding.ts), best first. */
  readings?(words: string[]): Promise<string[][]>;
}

/** A word naming this share of the documents or more (a group name) is the weakest of a query's signals. */
export const UBIQUITOUS_SHARE = 0.3;
/** ... in an index of at least this many documents: in a handful, every word names a third of them. */
export const UBIQUITOUS_MIN_DOCUMENTS = 100;

/** Searches started before the exact search answered, because it was expected to find nothing. */
interface EarlyStart {
  rewritten: Promise<QueryRewrite[]>;
  /** The rewrites' exact matches, read up to the page's end, with every match's id. */
  found?: Promise<ExactPage[]>;
  /** The typo matches, or undefined when a rewrite was expected to match (the search was not started). */
  typos?: Promise<number[] | undefined>;
  /** Which words match anything alone, or undefined when a rewrite was expected to match (the check was not started). */
  presence?: Promise<boolean[] | undefined>;
  /** The month's search (step 4) of a query with a month word. */
  month?: Promise<SearchPage>;
  /** The first search leaving a word out, of a two-word query expected to need one (`expectedLeaveOut`). */
  leaveOut?: Promise<LeftOut | undefined>;
}

/** A search of `kept`, the words but those `ignored`, started before the query reached it. */
interface LeftOut {
  kept: string[];
  ignored: string[];
  found: Promise<SearchPage | undefined>;
}

/** The searches `EarlyStart` names, started before the exact search of `words` answers. */
function startEarly(engine: WordSearchEngine, words: string[], page: Page, rewrites: () => Promise<QueryRewrite[]>, fragments: ReadonlySet<string>): EarlyStart {
  const window = { offset: 0, limit: page.offset + page.limit };
  const rewritten = quiet(rewrites());
  // A month word (5월) keeps every rewrite and typo search from matching: the month's search
  // almost always answers such a query, and is sent alone; the rest follow only when it finds
  // nothing (a season's three or six months beside the rewrites' and typo searches cost ten
  // statements a query, most of them for nothing).
  const inMonth = monthSearch(engine, words, page);
  if (inMonth) return { rewritten, month: quiet(inMonth) };
  const found = quiet(rewritten.then((list) => Promise.all(list.map((rewrite) => engine.exact(rewrite.words, window, true)))));
  const rewritesUnmatched = quiet(rewritten.then(async (list) => (await Promise.all(list.map((rewrite) => engine.likelyUnmatched!(rewrite.words)))).every(Boolean)));
  // The presence check and the typo search wait for what says they are needed: a rewrite expected
  // to match fills the page first, leaving no typo to look for and no word to leave out (이서연
  // 음방: 음방's typo skeleton is in thousands of the benchmark's documents, its check took 7-15 ms
  // of the second core beside the rewrites' scoring). The typo search also waits for a word that
  // no document holds even within a typo.
  const presence = words.length >= 2 ? quiet(rewritesUnmatched.then((unmatched) => (unmatched ? engine.present(words) : undefined))) : undefined;
  const typos = async () => {
    if (!(await rewritesUnmatched) || (await presence)?.includes(false)) return undefined;
    return engine.typos(words, false);
  };
  const leaveOut = inMonth ? undefined : expectedLeaveOut(engine, words, page, rewritesUnmatched, fragments);
  return {
    rewritten,
    found,
    ...(inMonth ? { month: quiet(inMonth) } : {}),
    ...(words.some(isTypoCandidate) ? { typos: quiet(typos()) } : {}),
    ...(presence ? { presence } : {}),
    ...(leaveOut ? { leaveOut } : {}),
  };
}

/**
 * Of two words expected to match nothing together (sampled), also not through a rewrite or within
 * a typo: the search leaving one out (step 5) starts beside the others, instead of after them (a
 * mistyped word beside fromis_9 waited for its exact, rewritten and typo searches to find nothing
 * first). The word left out is the one expected to match nothing alone, else the first in
 * `leaveOutOrder`. Used only when the query reaches that very search.
 */
function expectedLeaveOut(engine: WordSearchEngine, words: string[], page: Page, rewritesUnmatched: Promise<boolean>, fragments: ReadonlySet<string>): Promise<LeftOut | undefined> | undefined {
  const { likelyAbsent, likelyNoTypos } = engine;
  if (words.length !== 2 || words[0] === words[1] || !likelyAbsent || !likelyNoTypos) return undefined;
  return quiet(
    (async () => {
      if (!(await rewritesUnmatched)) return undefined;
      const absent = await likelyAbsent(words);
      let left: string;
      if (absent[0] !== absent[1]) left = words[absent.indexOf(true)]!;
      else if (absent[0] || (words.some(isTypoCandidate) && !(await likelyNoTypos(words)))) return undefined;
      else left = leaveOutOrder(words, await weightsOf(engine, words), fragments)[0]!;
      const kept = words.filter((word) => word !== left);
      return { kept, ignored: [left], found: quiet(subsetPage(engine, kept, page, [left])) };
    })(),
  );
}

/** A promise started early that may never be awaited: its failure is then not reported as unhandled. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

const MONTH_WORD = /^(1[0-2]|[1-9])월$/;
/** Season and period words, read as their months like a month word (`여름 팬미팅`: June to August). */
const PERIODS: Readonly<Record<string, readonly number[]>> = {
  봄: [3, 4, 5], 여름: [6, 7, 8], 가을: [9, 10, 11], 겨울: [12, 1, 2],
  연초: [1, 2], 연말: [11, 12], 상반기: [1, 2, 3, 4, 5, 6], 하반기: [7, 8, 9, 10, 11, 12],
  spring: [3, 4, 5], summer: [6, 7, 8], autumn: [9, 10, 11], fall: [9, 10, 11], winter: [12, 1, 2],
};

/** The other words' matches among the schedules of the month or period a word names (step 4), when one does. */
function monthSearch(engine: WordSearchEngine, words: string[], page: Page): Promise<SearchPage> | undefined {
  const months = words.map(monthsOf);
  const at = months.findIndex((month) => month !== undefined);
  if (at < 0 || words.length < 2) return undefined;
  const others = words.filter((_, i) => i !== at);
  const named = months[at]!;
  return named.length === 1 ? engine.inMonth(others, named[0]!, page) : periodSearch(engine, others, named, page);
}

/**
 * The words' matches in several months, month by month in the period's order (each month's best
 * first): one search a month, each read up to the page's end. A month holding more than that is
 * the last one listed (the page lies within it).
 */
async function periodSearch(engine: WordSearchEngine, words: string[], months: readonly number[], page: Page): Promise<SearchPage> {
  const window = { offset: 0, limit: page.offset + page.limit };
  const pages = await Promise.all(months.map((month) => engine.inMonth(words, month, window)));
  const ids: number[] = [];
  for (const found of pages) {
    ids.push(...found.ids);
    if (found.ids.length < found.total || found.hasMore) break;
  }
  const total = pages.reduce((sum, found) => sum + found.total, 0);
  return { ids: ids.slice(page.offset, page.offset + page.limit), total, ...(pages.some((found) => found.hasMore) ? { hasMore: true } : {}) };
}

/**
 * The engine with the query's readings and forms (for leaving words out), and a month's search
 * that reads the words when they match nothing in the month as typed (`summer fan meeting`: fan meeting is 팬미팅 in the titles; `autumn festival`: 축제 and
 * 페스티벌), each reading (at most MAX_READINGS) one more search of the month, their pages merged in
 * the readings' order. A reading filling the page is the month's answer and its total the total:
 * the next could only add to the total (a season beside a common event word scored thousands of
 * the benchmark's documents twice a month for one page). The readings are read once a query.
 */
function withReadings(engine: WordSearchEngine, readings: (words: string[]) => Promise<string[][]>, forms: (words: string[]) => Promise<string[][]>): WordSearchEngine {
  const read = new Map<string, Promise<string[][]>>();
  const readingsOf = (words: string[]) => {
    const key = words.join(' ');
    if (!read.has(key)) read.set(key, readings(words).catch(() => []));
    return read.get(key)!;
  };
  return {
    ...engine,
    readings: readingsOf,
    forms,
    inMonth: async (words, month, page) => {
      const found = await engine.inMonth(words, month, page);
      if (found.total > 0 || words.length === 0) return found;
      const window = { offset: 0, limit: page.offset + page.limit };
      const pages: SearchPage[] = [];
      for (const reading of await readingsOf(words)) {
        const other = await engine.inMonth(reading, month, window);
        pages.push(other);
        if (other.ids.length >= window.limit) break;
      }
      if (pages.length === 0) return found;
      const ids = [...new Set(pages.flatMap((other) => other.ids))];
      // Every list whole: the union is the total; else their sum, an over-count as for merged rewrites.
      const whole = pages.every((other) => other.ids.length === other.total && !other.hasMore);
      const total = whole ? ids.length : pages.reduce((sum, other) => sum + other.total, 0);
      return { ids: ids.slice(page.offset, page.offset + page.limit), total, ...(pages.some((other) => other.hasMore) ? { hasMore: true } : {}) };
    },
  };
}

/** The months a word names: a month word (`5월` → 5), or a season or period (`여름` → 6, 7, 8). */
export function monthsOf(word: string): readonly number[] | undefined {
  const month = monthOf(word);
  return month === undefined ? PERIODS[word] : [month];
}

/** The month a word names (`5월` → 5), or undefined. */
export function monthOf(word: string): number | undefined {
  const match = MONTH_WORD.exec(word);
  return match ? Number(match[1]) : undefined;
}

/**
 * The search of `words`; `rewrites` are asked for only when the words match nothing well. The
 * lists it merges (exact, rewritten, typo matches) may hold more than SEARCH_TOTAL_CAP together:
 * the total is then the cap with `hasMore`, as for one list matching more.
 */
export async function searchAsFansType(wordEngine: WordSearchEngine, words: string[], page: Page, rewrites: () => Promise<QueryRewrite[]>, understood?: Understood): Promise<SearchPage> {
  const engine = understood?.readings ? withReadings(wordEngine, understood.readings, understood.forms) : wordEngine;
  const typed = new Set(understood?.typed ?? words);
  const fragments = new Set(words.filter((word) => !typed.has(word)));
  const found = understood?.date ? await searchOnDate(engine, words, page, rewrites, understood, fragments) : await searchWeighted(engine, words, page, rewrites, fragments);
  if (found.total <= SEARCH_TOTAL_CAP) return found;
  return { ...found, total: SEARCH_TOTAL_CAP, hasMore: found.hasMore ?? page.offset + found.ids.length < found.total };
}

/**
 * A query naming a date: the documents of that date, ranked by how many of the words they match
 * (each word by any of its forms: lexicon terms, transliterations), the words the first leaves out
 * named in `ignoredWords`; when no document of that date matches any word, the words' own search
 * with the date named in `ignoredWords` instead.
 */
async function searchOnDate(engine: WordSearchEngine, words: string[], page: Page, rewrites: () => Promise<QueryRewrite[]>, understood: Understood, fragments: ReadonlySet<string>): Promise<SearchPage> {
  const date = understood.date!;
  const forms = words.length > 0 ? await understood.forms(words) : [];
  const found = await engine.onDate(forms, date, page);
  if (found.total > 0 || words.length === 0) {
    const missing = (found.missing ?? []).map((i) => words[i]!);
    return { ids: found.ids, total: found.total, ...(found.hasMore !== undefined ? { hasMore: found.hasMore } : {}), ...(missing.length > 0 ? { ignoredWords: missing } : {}) };
  }
  const rest = await searchWeighted(engine, words, page, rewrites, fragments);
  return rest.total === 0 ? rest : { ...rest, ignoredWords: [date.text, ...(rest.ignoredWords ?? [])] };
}

/**
 * A query holding a word in most documents (a group name, UBIQUITOUS_SHARE) beside others that are
 * not: the weakest signal. The other words are searched alone, beside the words' exact search; when
 * their best answer lacks the weak word (a member's live in her own title, against the group's stages
 * where she is one of five members), their answer is the query's, the weak word named in
 * `ignoredWords` when a document on the page does not hold it; otherwise the words' own search answers.
 */
async function searchWeighted(engine: WordSearchEngine, words: string[], page: Page, rewrites: () => Promise<QueryRewrite[]>, fragments: ReadonlySet<string>): Promise<SearchPage> {
  const end = page.offset + page.limit;
  if (words.length < 2 || words.length > MAX_FAN_TYPING_WORDS || end > MERGE_LIMIT || !engine.weights) return searchSteps(engine, words, page, rewrites, fragments);
  const weights = await engine.weights(words).catch(() => undefined);
  // A lone syllable split off a typed word (스 of 그리팅스) is a fragment, not a signal.
  const weak = weights && weights.documents >= UBIQUITOUS_MIN_DOCUMENTS ? words.filter((word, i) => weights.shares[i]! >= UBIQUITOUS_SHARE && !fragments.has(word)) : [];
  if (weak.length === 0 || weak.length === words.length) return searchSteps(engine, words, page, rewrites, fragments);
  const strong = words.filter((word) => !weak.includes(word));
  const without = async () => (await rewrites()).map((rewrite) => ({ ...rewrite, words: rewrite.words.filter((word) => !weak.includes(word)) })).filter((rewrite) => rewrite.words.length > 0);
  const [best, every] = await Promise.all([engine.exact(strong, { offset: 0, limit: 1 }), engine.exact(words, { offset: 0, limit: end }, true)]);
  const holding = new Set([...every.ids, ...(every.matches ?? [])]);
  // The best answer to the other words holds the weak one too (루미네 출연: the group's own
  // appearances come first either way): the words' own search answers, the weak word kept.
  // The other words match nothing alone either: the words' own search (typos, words left out).
  if (best.ids.length === 0 || (every.total > 0 && holding.has(best.ids[0]!))) {
    // The words' exact search is in hand: when it answers alone (a strong match, or more than are
    // counted), its page is the answer, as searchSteps would give it.
    if (every.hasMore !== undefined) return { ids: every.ids.slice(page.offset, end), total: every.total, hasMore: every.hasMore };
    if (every.strong) return { ids: every.ids.slice(page.offset, end), total: every.total };
    return searchSteps(engine, words, page, rewrites, fragments);
  }
  const found = await searchSteps(engine, strong, page, without, fragments);
  const complete = every.hasMore === undefined && every.total <= holding.size;
  const left = !complete || found.ids.some((id) => !holding.has(id)) ? weak : [];
  const ignored = [...left, ...(found.ignoredWords ?? [])];
  return { ...found, ...(ignored.length > 0 ? { ignoredWords: ignored } : {}) };
}

async function searchSteps(engine: WordSearchEngine, words: string[], page: Page, rewrites: () => Promise<QueryRewrite[]>, fragments: ReadonlySet<string> = new Set()): Promise<SearchPage> {
  // Words expected to match nothing together (a typo, shorthand, a word no schedule holds): the
  // rewrites' exact searches and the presence check start now, beside the exact search, and so
  // does the typo search when no rewrite is expected to match either, instead of one after another
  // once the exact search has answered (a typo's exact search, its rewrites' and its typo search
  // took 3.9 + 3.5 + 8.2 ms in a row). Work started for nothing when the guess is wrong.
  const early = words.length <= MAX_FAN_TYPING_WORDS && page.offset + page.limit <= MERGE_LIMIT && (await engine.likelyUnmatched?.(words))
    ? startEarly(engine, words, page, rewrites, fragments)
    : undefined;
  const head = await engine.exact(words, page);
  // More exact matches than are counted: anything else would only come after all of them.
  if (head.hasMore !== undefined) return { ids: head.ids, total: head.total, hasMore: head.hasMore };
  if (head.strong) return { ids: head.ids, total: head.total };
  const end = page.offset + page.limit;
  // No schedule's text holds a month word with the other words: the month's schedules answer
  // (step 4) before the words' other readings are searched.
  const month = head.total === 0 && words.length <= MAX_FAN_TYPING_WORDS && end <= MERGE_LIMIT ? (early?.month ?? monthSearch(engine, words, page)) : undefined;
  if (month) {
    const found = await month;
    if (found.total > 0) return found;
  }
  // Far pages, and queries longer than fans type them (a pasted paragraph, a hostile list of
  // words): exact then typo matches only.
  if (head.total > MERGE_LIMIT || end > MERGE_LIMIT || words.length > MAX_FAN_TYPING_WORDS) return withTypos(engine, words, page, head);
  // Each list is read up to the page's end: the merged page needs no more of any of them.
  const window = { offset: 0, limit: end };
  // Words matching nothing together: which of them match anything alone is asked at once, beside
  // the rewrites and typos (it decides which words are left out when those find nothing too).
  const presence = head.total === 0 && words.length >= 2 ? (early?.presence ?? quiet(engine.present(words))) : undefined;
  // The rewrites' exact searches (and the head's longer list) are independent: sent together,
  // a query costs the slowest of them rather than their sum.
  const rewritten = await (early?.rewritten ?? rewrites());
  const [headList, found] = await Promise.all([
    head.total <= head.ids.length && page.offset === 0 ? head : engine.exact(words, window, true),
    early?.found ?? Promise.all(rewritten.map((rewrite) => engine.exact(rewrite.words, window, true))),
  ]);
  const headIds = headList.ids;
  const merged = new Set<number>();
  const add = (ids: number[]) => {
    for (const id of ids) merged.add(id);
  };
  // A rewrite matching well (every word outside the description) ranks above the words' own weak
  // matches (only in a description); a rewrite matching weakly ranks below them.
  for (const list of found) if (list.strong) add(list.ids);
  add(headIds);
  for (const list of found) if (!list.strong) add(list.ids);
  // The total counts each document once: readings overlap (라방 as 라이브 and as 인스타그램 라이브;
  // 나침반의 and 나침반, its particle dropped, in the same descriptions).
  const counted = countedMatches([headList, ...found]);
  const total = () => (counted === undefined ? SEARCH_TOTAL_CAP + 1 : new Set([...counted.ids, ...merged]).size + counted.unlisted);
  // A rewrite matching well filled the page: the typo matches, which would come after it, are
  // not searched (the total then counts what the exact searches found).
  if (merged.size >= end && rewritten.length > 0 && merged.size > headIds.length) return { ids: [...merged].slice(page.offset, end), total: total() };
  // A word that no document holds, exactly or within a typo (the presence check looks at both),
  // leaves the typo search nothing to find. A check not started early starts now.
  const present = presence ? ((await presence.catch(() => undefined)) ?? (await engine.present(words).catch(() => undefined))) : undefined;
  if (words.some(isTypoCandidate) && !present?.includes(false)) add((head.total === 0 ? await early?.typos : undefined) ?? (await engine.typos(words, head.total > 0)));
  if (merged.size === 0 && words.length <= MAX_TYPO_REWRITE_WORDS) {
    // A short query's first rewrite that may hold a typo in a word of its own (가요데축재, split by
    // the analyser and read whole again; Latin keys of a mistyped word), within one more search;
    // not a half-typed reading (a typo in it would be a second slip), nor a rewrite whose mistyped
    // words are the query's (fromis_9 서우대학교 as fromis 9 서우대학교: the same typo search again,
    // two statements more before the words are left out).
    // Two readings of one spelling (an emphatic tense consonant as the aspirated one, then as the
    // plain one: 께엄 is 게엄 before it is one vowel from 게임) are both looked at, at once.
    const typoRewrites = rewritten.filter((rewrite) => rewrite.kind !== 'prefix' && rewrite.words.some((word) => isTypoCandidate(word) && !words.includes(word)));
    const searched = typoRewrites[0]?.kind === 'reading' && typoRewrites[1]?.kind === 'reading' ? typoRewrites.slice(0, 2) : typoRewrites.slice(0, 1);
    for (const ids of await Promise.all(searched.map((rewrite) => engine.typos(rewrite.words, false)))) add(ids);
  }
  if (merged.size > 0 || words.length < 2) return { ids: [...merged].slice(page.offset, end), total: total() };
  return leaveWordsOut(engine, words, page, present ?? (await engine.present(words)), month ?? early?.month, early?.leaveOut, fragments);
}

/**
 * Every match of the lists together, each document once (a list's `matches`, or its page when it
 * holds them all), and the matches of lists that listed neither (`unlisted`, counted as others: an
 * engine that did not list them over-counts rather than under-counts); undefined when a list holds
 * more than SEARCH_TOTAL_CAP (the total is then past the cap).
 */
function countedMatches(lists: ExactPage[]): { ids: Set<number>; unlisted: number } | undefined {
  const ids = new Set<number>();
  let unlisted = 0;
  for (const list of lists) {
    if (list.hasMore !== undefined || list.total > SEARCH_TOTAL_CAP) return undefined;
    const listed = list.matches ?? list.ids;
    for (const id of listed) ids.add(id);
    unlisted += Math.max(0, list.total - listed.length);
  }
  return { ids, unlisted };
}

/** A weak query's exact page followed by its typo matches (`started` already, for a head matching nothing), paged after them. */
async function withTypos(engine: WordSearchEngine, words: string[], page: Page, head: SearchPage, started?: Promise<number[]>): Promise<SearchPage> {
  const typos = words.some(isTypoCandidate) ? await (started ?? engine.typos(words, head.total > 0)) : [];
  const from = Math.max(0, page.offset - head.total);
  const room = page.limit - head.ids.length;
  const ids = room > 0 && page.offset + page.limit > head.total ? [...head.ids, ...typos.slice(from, from + room)] : head.ids;
  return { ids, total: head.total + typos.length };
}

/**
 * The page of what a subset of the words matches exactly, with the words left out. Typo searches
 * are not repeated for each subset (the presence check already looked at typo skeletons), only for
 * a last word left alone.
 */
async function subsetPage(engine: WordSearchEngine, words: string[], page: Page, ignoredWords: string[]): Promise<SearchPage | undefined> {
  const single = words.length === 1 && isTypoCandidate(words[0]!);
  // One word left that no sampled document holds: its typo search starts beside its exact one.
  const early = single && (await engine.likelyUnmatched?.(words)) ? quiet(engine.typos(words, false)) : undefined;
  let found: SearchPage = await engine.exact(words, page);
  // One word left, matching nothing exactly: its typo matches (5월 대동재 → 대동제).
  if (found.total === 0 && single) found = await withTypos(engine, words, page, found, early);
  if (found.total === 0) return undefined;
  return { ids: found.ids, total: found.total, ...(found.hasMore !== undefined ? { hasMore: found.hasMore } : {}), ignoredWords };
}

/**
 * The exact matches of some words, or when they have none, those of their first reading (`fan
 * meeting` is 팬미팅 in the titles): one search more, as each of the lists it makes is one.
 */
async function exactOrRead(engine: WordSearchEngine, words: string[], page: Page): Promise<SearchPage> {
  const found = await engine.exact(words, page);
  if (found.total > 0 || !engine.readings) return found;
  const [reading] = await engine.readings(words);
  if (reading === undefined) return found;
  const read = await engine.exact(reading, page);
  return read.total > 0 ? read : found;
}

/**
 * The documents matching all but one of three or more words (none matches all): one exact search
 * a word left out, sent together, listed in the leave-out order. The lists are disjoint (a
 * document in two would match every word), so the total is their sum. `ignoredWords` names the
 * words the documents on the page leave out (every list's, for a page past the end); undefined
 * when no list has a match.
 */
async function allButOne(engine: WordSearchEngine, kept: string[], order: string[], page: Page, ignored: string[]): Promise<SearchPage | undefined> {
  const end = page.offset + page.limit;
  const lists = await Promise.all(order.map((left) => exactOrRead(engine, kept.filter((word) => word !== left), { offset: 0, limit: end })));
  const merged: number[] = [];
  const onPage: string[] = [];
  const matching: string[] = [];
  let sum = 0;
  let uncounted = false;
  for (const [i, list] of lists.entries()) {
    if (list.total === 0) continue;
    matching.push(order[i]!);
    // A list holding more than was read fills the page: the ones after it start past its end.
    if (merged.length < end) {
      if (merged.length + list.ids.length > page.offset) onPage.push(order[i]!);
      merged.push(...list.ids.slice(0, end - merged.length));
    }
    sum += list.total;
    uncounted ||= list.hasMore !== undefined;
  }
  if (sum === 0) return undefined;
  const capped = uncounted || sum > SEARCH_TOTAL_CAP;
  return {
    ids: merged.slice(page.offset, end),
    total: Math.min(sum, SEARCH_TOTAL_CAP),
    ...(capped ? { hasMore: sum > end || lists.some((list) => list.hasMore) } : {}),
    ignoredWords: [...ignored, ...(onPage.length > 0 ? onPage : matching)],
  };
}

/**
 * No document matches every word: the words matching nothing are left out, then (when the rest
 * still match nothing together) more words, in the order words with digits first (a month or a
 * year beside a name), then the shortest, the last typed first. Of three words or more, each is
 * left out in turn at once (`allButOne`); then the first two together, then the first three. Of
 * two, the first, or else the second.
 */
async function leaveWordsOut(engine: WordSearchEngine, words: string[], page: Page, present: boolean[], month?: Promise<SearchPage>, started?: Promise<LeftOut | undefined>, fragments: ReadonlySet<string> = new Set()): Promise<SearchPage> {
  // A hint that failed only means nothing was started.
  const early = await started?.catch(() => undefined);
  /**
   * The page of `kept` with `ignored` left out: the search started early when it is the same one;
   * failing that, the readings of `kept`, one after another (`winter concert`: concert is 콘서트 in the titles).
   */
  const subset = async (kept: string[], ignored: string[]) => {
    const found = await (early && early.kept.join(' ') === kept.join(' ') && early.ignored.join(' ') === ignored.join(' ') ? early.found : subsetPage(engine, kept, page, ignored));
    if (found || !engine.readings) return found;
    for (const reading of await engine.readings(kept)) {
      const read = await subsetPage(engine, reading, page, ignored);
      if (read) return read;
    }
    return undefined;
  };
  // A word naming a month that no text holds with the others (5월 대동제): the other words among
  // the schedules of that month, nothing left out.
  const inMonth = month ?? monthSearch(engine, words, page);
  if (inMonth) {
    const found = await inMonth;
    if (found.total > 0) return found;
  }
  const found = await presentInForms(engine, words, present);
  const kept = words.filter((_, i) => found[i]);
  const ignored = words.filter((_, i) => !found[i]);
  if (kept.length === 0) return { ids: [], total: 0 };
  if (ignored.length > 0) {
    const found = await subset(kept, ignored);
    if (found) return found;
    if (kept.length < 2) return { ids: [], total: 0 };
  }
  const order = leaveOutOrder(kept, await weightsOf(engine, kept), fragments);
  if (kept.length >= 3) {
    const found = await allButOne(engine, kept, order, page, ignored);
    if (found) return found;
  }
  const attempts = kept.length >= 3 ? [order.slice(0, 2), ...(order.length > 3 ? [order.slice(0, 3)] : [])] : [[order[0]!], [order[1]!]];
  for (const left of attempts.slice(0, MAX_DROP_ATTEMPTS)) {
    const found = await subset(kept.filter((word) => !left.includes(word)), [...ignored, ...left]);
    if (found) return found;
  }
  return { ids: [], total: 0 };
}

/**
 * Per word, whether it or one of its other forms (its lexicon terms, its readings: `fan` is 팬)
 * matches anything alone: a word the titles hold only in another script is kept, and read when
 * the words kept are searched. One more presence request, for the absent words' forms only.
 */
async function presentInForms(engine: WordSearchEngine, words: string[], present: boolean[]): Promise<boolean[]> {
  const absent = words.filter((_, i) => !present[i]);
  if (absent.length === 0 || !engine.forms) return present;
  try {
    const others = (await engine.forms(absent)).map((forms, i) => forms.filter((form) => form !== absent[i]));
    const asked = [...new Set(others.flat())];
    if (asked.length === 0) return present;
    const answers = await engine.present(asked);
    const holds = new Set(asked.filter((_, i) => answers[i]));
    let at = 0;
    return present.map((known) => known || others[at++]!.some((form) => holds.has(form)));
  } catch {
    return present;
  }
}

/**
 * The order words are left out in: pieces the analyser split off a typed word first (that word
 * matched nothing whole: 티켓팅 is not 티켓), then the word naming the most documents first (`weights`: a group
 * name before an event kind, an event kind before a member, who is in the title of few); among
 * equals (or without weights) words with digits first (a month or a year beside a name), then the
 * shortest, the last typed first.
 */
function leaveOutOrder(words: string[], weights?: number[], fragments: ReadonlySet<string> = new Set()): string[] {
  return words
    .map((word, i) => ({ word, i, weight: weights?.[i] ?? 0, digits: /[0-9]/.test(word) ? 0 : 1, whole: fragments.has(word) ? 0 : 1 }))
    .sort((a, b) => a.whole - b.whole || b.weight - a.weight || a.digits - b.digits || [...a.word].length - [...b.word].length || b.i - a.i)
    .map(({ word }) => word);
}

/** The words' weights (`WordSearchEngine.weights`), or undefined when the engine cannot tell. */
const weightsOf = async (engine: WordSearchEngine, words: string[]) => (engine.weights ? (await engine.weights(words).catch(() => undefined))?.shares : undefined);
