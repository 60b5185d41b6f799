// How the embedded engine plans its reads: the measured costs that choose between walking the date
// index and reading the GIN index (`walkWins`, `windowWins`, `newestInWindow`), the bounds of a
// search (candidates, levels, prepared shapes), the grams a containment asks for (`askedGrams`),
// the choices of fields (`combinations`), numbered parameters and the per-statement plan settings.
import type { GramStatistics } from './gram-frequencies.ts';
import { SEARCH_TOTAL_CAP } from './search-index.ts';
import { FIELD_COLUMN, type Field, fieldsOf, gramKey, taggedGrams } from './embedded-keys.ts';
import { type SampledMatches, sampledShare } from './embedded-sampling.ts';

/**
 * Most typo candidates read per query, the newest (then ranked by field): a mistyped word rarely
 * has more true matches, and reading their keys is the typo search's main cost (1,000 took up to
 * 1.7 s on the loaded benchmark machine). The typo part of `total` counts at most this many.
 */
export const MAX_TYPO_CANDIDATES = 300;
/**
 * A typo search reading its candidates from the GIN index looks among the newest documents this
 * many times as many as its density says hold MAX_TYPO_CANDIDATES (then among the older ones if
 * they did not).
 */
export const TYPO_WINDOW_SLACK = 2;
/**
 * Costs of a GIN read within a date window (migration 019's index holds the dates), measured on the
 * benchmark machine: each containment of the read collects the window's documents from the index,
 * about 0.13 µs a document, where each candidate outside the window that it no longer visits saved
 * about 4 µs (`newestFirst`). A typo beside fromis_9 (five containments) in a window of 15,000
 * documents took 8 ms in the index alone, more than the rows it spared.
 */
const WINDOW_ROW_MS = 0.00013;
const CANDIDATE_ROW_MS = 0.004;
/**
 * Whether reading the newest of about `size` matches among `windowRows` newest documents, with
 * `containments` GIN containments, costs less than reading all of them.
 */
export const windowWins = (containments: number, windowRows: number, size: number, tableRows: number) =>
  windowRows < tableRows && containments * windowRows * WINDOW_ROW_MS < size * (1 - windowRows / tableRows) * CANDIDATE_ROW_MS;
/**
 * The newest `limit` documents `read(window, count)` returns, first within the window of documents
 * dated `from` or later (`GramStatistics.newestFrom`): the GIN index holds the dates too (migration
 * 019), so only that window's matches are visited. The older rest is read only when the window
 * held fewer than `limit`.
 */
export async function newestInWindow<T>(read: (window: string, count: number) => Promise<T[]>, limit: number, values: unknown[], from?: string): Promise<T[]> {
  if (from === undefined) return read('', limit);
  const date = `$${values.push(from)}::date`;
  const newest = await read(` AND date >= ${date}`, limit);
  if (newest.length === limit) return newest;
  return [...newest, ...(await read(` AND ${OLDER_THAN_WINDOW} ${date}`, limit - newest.length))];
}
/**
 * The older side of a date window, written so that no index answers it: the rows past the window
 * are then found by the grams alone and filtered on their dates, where a date range in the GIN
 * index would collect most of the table's documents once per containment.
 */
export const OLDER_THAN_WINDOW = '(date + 0) <';
/**
 * A score level read from the GIN index (`rankByLevels`) and estimated to hold this many times the
 * rows the page needs or more is read among the newest documents expected to hold that many (then
 * among the older ones if they did not).
 */
export const LEVEL_WINDOW_SLACK = 3;
/** Queries of more words than this matching over the cap are scored whole: their levels multiply. */
export const MAX_LEVEL_WORDS = 2;
/**
 * Walking the date index costs about this many times what reading a row by the GIN index (then
 * sorting) costs. The rows of neighbouring dates share pages (`rebuild` writes them in date order),
 * and a GIN read of a common set intersects long posting lists first: a dense typo (a member's
 * name one jamo off beside fromis_9) walked 3,273 rows in 5.5 ms where the GIN read of its 4,714
 * candidates took 30 ms; a rarer one (콘설트) 6,450 rows in 36 ms against 2,182 in 14 ms. It was
 * 1.25 before the date order.
 */
const WALK_FACTOR = 0.5;
/**
 * Whether `wanted` newest rows of a set of about `size` among `tableRows` are cheaper found by
 * walking the date index (about wanted × tableRows / size rows read) than by reading the whole set
 * from the GIN index and sorting it (about size rows).
 */
export const walkWins = (size: number, wanted: number, tableRows: number) => size * size > WALK_FACTOR * wanted * tableRows;
/** A typo walk gives up (and the GIN index reads the rest) past this many times the rows its estimate expected. */
export const COUNT_WALK_SLACK = 3;
/**
 * Sampled matches (`sampledMatches`) say a query surely matches more than the cap when there are
 * at least SURE_SAMPLED_MATCHES of them (the share then known to within about half of itself, at
 * three standard deviations) and they estimate SURE_CAP_FACTOR times the cap or more: its matches
 * need no counting (a member's name in a third of the benchmark's documents walked 2,800 rows to
 * count 1,001 matches, 9 ms, to be told what the sample says).
 */
const SURE_SAMPLED_MATCHES = 30;
const SURE_CAP_FACTOR = 3;
export const surelyCapped = (sampled: SampledMatches, tableRows: number) =>
  sampled.count >= SURE_SAMPLED_MATCHES && sampled.share * tableRows >= SURE_CAP_FACTOR * SEARCH_TOTAL_CAP;
/**
 * A query the sample estimates below NEAR_CAP_ESTIMATE times the cap has up to SCORED_NEAR_CAP
 * matches scored, not SEARCH_TOTAL_CAP + 1: one just past the cap (a member beside an event's
 * shorthand reading, 1,048–1,338 matches in the benchmark, estimated 735–1,331) takes its page from
 * them instead of counting to 1,001 and then reading its levels in one or two statements more
 * (medians 11.8–19.7 ms → 10.5–14.4, the same answers). One estimated low but matching more than
 * twice the cap scores 2,001 and reads its levels after all.
 */
export const NEAR_CAP_ESTIMATE = 1.5;
export const SCORED_NEAR_CAP = 2 * SEARCH_TOTAL_CAP + 1;
/**
 * A word in fewer documents than the statistics list (3% of them) narrows a query's candidates
 * alone, up to RARE_WORD_ROWS of them (scoring a candidate row costs about 10 µs), when the
 * containments of every choice of fields would ask the GIN index for at least DRIVER_MIN_KEYS
 * keys in all: a typo beside fromis_9 (25 choices of 9 keys) took 31 ms that way and 13 driven.
 * With fewer keys the containments are cheap, and a word that turns out common (a school's short
 * name, 750 documents) would pay for the driven attempt and then for them: 2 ms more at p50 over
 * the benchmark's two-word queries.
 */
export const RARE_WORD_ROWS = 100;
export const DRIVER_MIN_KEYS = 150;
/**
 * Scoring statements of at most MAX_PREPARED_WORDS words are prepared in each connection, planned
 * once (`executePrepared`): their text depends only on the words' count, their fields and the
 * limits, so a few shapes serve every query. Planning one of two words (25 containments) took
 * 0.8-1.4 ms, as long as running one that matches nothing: exact searches alone 2.1 → 1.2 ms and
 * 4.4 → 2.9 (matching nothing), 12.8 → 11.4 (1,312 matches). A prepared statement of 25
 * containments holds about 250 KB of its connection's memory: at most MAX_PREPARED_SHAPES texts
 * are prepared (the first this process meets), the others planned on each call, so a query
 * crafted to vary its shape costs time, not memory.
 */
export const MAX_PREPARED_WORDS = 3;
export const MAX_PREPARED_SHAPES = 32;
/** How long the planner's gram frequencies (pg_stats) are used before they are read again. */
export const GRAM_STATS_MAX_AGE_MS = 60_000;

/** What a typo walk's conditions and answer read: the keys, not the grams or the other columns. */
const WALKED_COLUMNS = `schedule_id, date, ${Object.values(FIELD_COLUMN).join(', ')}, typo_key`;
/** The `limit` newest documents' keys, walked along the date index, as a subquery `w`. */
export const newestRows = (limit: string) => `(SELECT ${WALKED_COLUMNS} FROM search_documents ORDER BY date DESC, schedule_id DESC LIMIT ${limit}) w`;

/** A gram in this share of the documents or more is common: its posting list is long to decode. */
const COMMON_GRAM = 0.02;
/**
 * Of the grams one word gives one field, those a containment asks the GIN index for: the rarest,
 * and every other that is not common. The bigrams of a word of syllables or letters come together
 * (they are one word's), so a second common one narrows the candidates little while the index
 * decodes its whole posting list: 프로미스나인's five title bigrams, each in 27% of the benchmark's
 * documents, made two arms of `프로미스나인 콘서트` cost 2.7 and 2.5 ms, and their rarest alone finds
 * the same candidates. Not so initials (ㄱㄱ, ㄱㅂ and ㅂㅅ are each in many words, and ㄱㄱㅂㅅ in few:
 * a choseong query asked for its rarest pair alone took twice as long) or typo skeletons (the
 * same), whose grams are all asked for. Every candidate is still checked on its text keys.
 */
export function askedGrams(field: Field, word: string, statistics: GramStatistics): string[] {
  const grams = taggedGrams(field, word);
  if (grams.length <= 1 || field === 'choseong') return grams;
  const frequencies = grams.map((gram) => statistics.frequency(gramKey(gram)));
  const rarest = frequencies.indexOf(Math.min(...frequencies));
  // A word far rarer than its rarest gram is not one of the words that gram comes from: its other
  // grams narrow the candidates too (이버스: 이버 is in 네이버, 버스 in 위버스, each in 5% of the
  // benchmark's documents, and the word in none: 2,715 candidates read for nothing, 8 ms).
  const share = sampledShare([word], statistics);
  const common = share !== undefined && share < frequencies[rarest]! / 2 ? RARE_WORD_COMMON_GRAM : COMMON_GRAM;
  return grams.filter((_, i) => i === rarest || frequencies[i]! < common);
}
/** The bound of `COMMON_GRAM` for the grams of a word far rarer than they are. */
const RARE_WORD_COMMON_GRAM = 0.1;

/**
 * Containments a typo search's candidates are asked for by at most: the choices of fields for the
 * words not corrected, times the skeletons of the corrected words with two.
 */
export const MAX_TYPO_CONTAINMENTS = 32;

/**
 * The share of documents estimated to match a word: the sum over its fields of the rarest of its
 * grams there (an upper bound for a word of three or more characters); for a query, the words taken
 * as independent.
 */
export function wordDensity(word: string, statistics: GramStatistics): number {
  const perField = fieldsOf(word).map((field) => Math.min(...taggedGrams(field, word).map((gram) => statistics.frequency(gramKey(gram)))));
  return Math.min(1, perField.reduce((sum, share) => sum + share, 0));
}

/**
 * Every choice of one field per word (`fieldsOf`): up to five per word, so only for queries of at
 * most MAX_LEVEL_WORDS words (25 choices). Eight words would be 390,625 choices, seconds of the
 * event loop for one query.
 */
export function combinations(words: string[]): Field[][] {
  if (words.length > MAX_LEVEL_WORDS) throw new Error(`combinations of ${words.length} words: at most ${MAX_LEVEL_WORDS}`);
  let result: Field[][] = [[]];
  for (const fields of words.map(fieldsOf)) result = result.flatMap((combination) => fields.map((field) => [...combination, field]));
  return result;
}

/**
 * The tagged grams the containments of every choice of fields would ask for in all (the sum over
 * `combinations` of their grams), counted without listing the choices: a word's grams over its
 * fields, times the number of choices of the other words' fields. Linear in the words.
 */
export function containmentKeys(words: string[]): number {
  const fieldCounts = words.map((word) => fieldsOf(word).length);
  const choices = fieldCounts.reduce((product, n) => product * n, 1);
  return words.reduce((sum, word, i) => sum + (fieldsOf(word).reduce((n, field) => n + taggedGrams(field, word).length, 0) * choices) / fieldCounts[i]!, 0);
}

/** Numbered SQL parameters, in the order the text uses them. */
export function parameters() {
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  return { values, param };
}
/**
 * Plan settings for the statement sent after them in the same simple-protocol message: they last
 * for that implicit transaction only (set_config with is_local, one statement for all of them).
 * Always: no parallel workers. The planner cannot estimate how many rows a substring check keeps,
 * and took a walk of the date index to be long enough to share with two workers, whose start cost
 * 6.5 ms of a read that took 0.5.
 */
const planSettings = (settings: Record<string, 'on' | 'off'>) =>
  `SELECT ${Object.entries({ ...settings, max_parallel_workers_per_gather: '0' })
    .map(([name, value]) => `set_config('${name}', '${value}', true)`)
    .join(', ')};`;
// A common bigram (`학교`, `ㅇㅅ`) makes the planner pick a sequential scan that evaluates
// `gram_keys @>` on every row (~3 µs each, 150 ms at 50,000 documents); the GIN bitmap answers the
// same containment exactly, with no recheck.
export const BITMAP_ONLY = planSettings({ enable_seqscan: 'off' });
/** Plan settings for reading the newest rows either along the date index (`walk`) or from the GIN index and sorted. */
const WALK_SETTINGS = planSettings({ enable_seqscan: 'off', enable_bitmapscan: 'off', enable_indexscan: 'on' });
const GIN_READ_SETTINGS = planSettings({ enable_seqscan: 'off', enable_bitmapscan: 'on', enable_indexscan: 'off' });
export const readSettings = (walk: boolean) => (walk ? WALK_SETTINGS : GIN_READ_SETTINGS);
