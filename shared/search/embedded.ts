// The embedded search engine, in PostgreSQL. Each document keeps normalised, space-free keys per
// field, the initial consonants, and the set of character bigrams tagged with their field (`t`
// title, `s` source, `v` venue, `m` members, `d` description, `c` initials; stored as 32-bit keys,
// `gramKey`, GIN-indexed): a query
// word of two or more characters first narrows the candidates to documents holding all of its
// bigrams in one field, then is checked as a substring of that field, so "외대" finds "한국외대",
// "프로미스나인콘서트" finds "프로미스나인 콘서트", and "ㅍㄹㅁ" finds "프로미스나인". Ranking:
// title > source > venue > members > description per matched word, then the most recent date.
// Totals are exact up to SEARCH_TOTAL_CAP. A query matching more (a member's name matches a third
// of the schedules; known from a sample of the documents, `sampledMatches`, or else counted to the
// cap) is ranked level by level instead of scoring every match: the documents whose
// words all match in a given combination of fields (and in no better field) form one score level,
// newest first, and the tagged bigrams let PostgreSQL read a rare level from the index or walk a
// common one along the date index until the page is full.
// Typos: when no exact match has every word outside the description (nothing, or only weak
// matches), Hangul words of two or more syllables are also matched within one jamo edit
// (shared/korean/typo.ts): candidates hold the bigrams of one of the word's skeletons (tagged
// `y`) and that skeleton as a substring of `typo_key` (a document's two skeletons where it has a
// compound vowel); the edit is then counted here. Those matches come
// after every exact match, ranked by the same field order.
import { createHash } from 'node:crypto';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { bigramsOfNormalized, choseongOfNormalized, consonantRuns, isChoseongQuery } from '../korean/jamo.ts';
import { normalizeText } from '../korean/normalize.ts';
import { isTypoCandidate, matchesWithTypo, skeletonBigrams, typoSkeletons } from '../korean/typo.ts';
import { convertLayoutSlips } from '../korean/layout.ts';
import { MAX_REWRITES, queryRewrites, type QueryRewrite } from '../korean/query-rewrites.ts';
import { queryReadings, understandQuery, withTitleSpellings, wordForms, type UnderstoodQuery } from '../korean/query-understanding.ts';
import { undecoratedKey } from '../korean/decorations.ts';
import { countedWeights, sampledWeights, searchOnDate } from './embedded-understanding.ts';
import { executePrepared, parameterizedQuery, preparedQuery, type Db, type Queryable } from '../db/database.ts';
import { searchAsFansType, type Understood, type WordSearchEngine } from './fan-typing.ts';
import { defaultSynonyms, type SynonymSource } from './synonym-source.ts';
import { GramFrequencies, type GramStatistics, type SampledDocument } from './gram-frequencies.ts';
import { SEARCH_TOTAL_CAP, type SearchDocument, type SearchIndex, type SearchPage } from './search-index.ts';

const MAX_QUERY_WORDS = 8;
const MAX_WORD_LENGTH = 40;
const MAX_DESCRIPTION_CHARS = 1000;
/** Index rows built between two turns of the event loop (about 2 ms of work: 45 µs a benchmark document). */
const ROWS_PER_TURN = 50;
const COLUMNS = 'schedule_id, category_id, date, title_key, source_key, venue_key, members_key, description_key, choseong_key, gram_keys, typo_key, format';
/**
 * Writes index rows given one array per column (a JSON record set cost PostgreSQL a third more,
 * parsing the gram arrays); a document's gram keys travel space-joined. An entry that would not
 * change is left as it is: no new row version, no index entries (an admin write is indexed inline,
 * then again by the indexer from its schedule.changed). A write of one batch is one statement,
 * its own transaction. A rebuild writes the same rows into its new table (`REBUILT_TABLE`).
 */
const upsertInto = (table: string) => `
   INSERT INTO ${table} (${COLUMNS})
   SELECT r.schedule_id, r.category_id, r.date, r.title_key, r.source_key, r.venue_key, r.members_key, r.description_key,
          r.choseong_key, string_to_array(r.gram_keys, ' ')::int[], r.typo_key, $12::smallint
     FROM unnest($1::int[], $2::int[], $3::date[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
          AS r(schedule_id, category_id, date, title_key, source_key, venue_key, members_key, description_key, choseong_key, gram_keys, typo_key)
   ON CONFLICT (schedule_id) DO UPDATE SET
     category_id = EXCLUDED.category_id, date = EXCLUDED.date, title_key = EXCLUDED.title_key,
     source_key = EXCLUDED.source_key, venue_key = EXCLUDED.venue_key, members_key = EXCLUDED.members_key, description_key = EXCLUDED.description_key,
     choseong_key = EXCLUDED.choseong_key, gram_keys = EXCLUDED.gram_keys, grams = '{}', typo_key = EXCLUDED.typo_key,
     format = EXCLUDED.format, indexed_at = now()
   WHERE (${table}.category_id, ${table}.date, ${table}.title_key, ${table}.source_key,
          ${table}.venue_key, ${table}.members_key, ${table}.description_key, ${table}.choseong_key,
          ${table}.gram_keys, ${table}.typo_key, ${table}.format)
         IS DISTINCT FROM (EXCLUDED.category_id, EXCLUDED.date, EXCLUDED.title_key, EXCLUDED.source_key, EXCLUDED.venue_key, EXCLUDED.members_key,
          EXCLUDED.description_key, EXCLUDED.choseong_key, EXCLUDED.gram_keys, EXCLUDED.typo_key, EXCLUDED.format)`;
/** Prepared: it runs for every write. */
const upsertDocuments = preparedQuery('search-upsert-documents', upsertInto('search_documents'));
const removeDocuments = preparedQuery('search-remove-documents', 'DELETE FROM search_documents WHERE schedule_id = ANY($1::int[])');
/** The table a rebuild fills, then renames to search_documents (`rebuild`). */
const REBUILT_TABLE = 'search_documents_rebuilt';
/** The suffix of the new table's index and constraint names until they take the old ones. */
const REBUILT_SUFFIX = '_rebuilt';
/** Documents written by one statement. */
const WRITE_BATCH = 500;
/** Rows of an older format miss keys this code reads: `ensureCurrentFormat` rebuilds them. */
export const DOCUMENT_FORMAT = 9;
export { SEARCH_TOTAL_CAP };
/** Score of a query word by the field it matched exactly (api-service.md 2.7, plus venues). */
export const TIER = { title: 8, source: 4, venue: 3, members: 2, description: 1, choseong: 4 } as const;
/** Score of a word matched within one jamo edit: below any exact match of the same word. */
export const TYPO_TIER = { title: 0.8, source: 0.4, venue: 0.3, members: 0.2 } as const;
/** A word matched in one of these fields (not only in the description) is a strong match. */
const STRONG_SCORE = TIER.members;
/**
 * Most typo candidates read per query, the newest (then ranked by field): a mistyped word rarely
 * has more true matches, and reading their keys is the typo search's main cost (1,000 took up to
 * 1.7 s on the loaded benchmark machine). The typo part of `total` counts at most this many.
 */
const MAX_TYPO_CANDIDATES = 300;
/**
 * A typo search reading its candidates from the GIN index looks among the newest documents this
 * many times as many as its density says hold MAX_TYPO_CANDIDATES (then among the older ones if
 * they did not).
 */
const TYPO_WINDOW_SLACK = 2;
/** Newest documents a typo search counts its matches among when neither the statistics nor a sample can tell (see `typoMatches`). */
const TYPO_PROBE_ROWS = 200;
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
const windowWins = (containments: number, windowRows: number, size: number, tableRows: number) =>
  windowRows < tableRows && containments * windowRows * WINDOW_ROW_MS < size * (1 - windowRows / tableRows) * CANDIDATE_ROW_MS;
/**
 * The newest `limit` documents `read(window, count)` returns, first within the window of documents
 * dated `from` or later (`GramStatistics.newestFrom`): the GIN index holds the dates too (migration
 * 019), so only that window's matches are visited. The older rest is read only when the window
 * held fewer than `limit`.
 */
async function newestInWindow<T>(read: (window: string, count: number) => Promise<T[]>, limit: number, values: unknown[], from?: string): Promise<T[]> {
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
const OLDER_THAN_WINDOW = '(date + 0) <';
/**
 * A score level read from the GIN index (`rankByLevels`) and estimated to hold this many times the
 * rows the page needs or more is read among the newest documents expected to hold that many (then
 * among the older ones if they did not).
 */
const LEVEL_WINDOW_SLACK = 3;
/** Queries of more words than this matching over the cap are scored whole: their levels multiply. */
const MAX_LEVEL_WORDS = 2;
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
const walkWins = (size: number, wanted: number, tableRows: number) => size * size > WALK_FACTOR * wanted * tableRows;
/** A typo walk gives up (and the GIN index reads the rest) past this many times the rows its estimate expected. */
const COUNT_WALK_SLACK = 3;
/**
 * Sampled matches (`sampledMatches`) say a query surely matches more than the cap when there are
 * at least SURE_SAMPLED_MATCHES of them (the share then known to within about half of itself, at
 * three standard deviations) and they estimate SURE_CAP_FACTOR times the cap or more: its matches
 * need no counting (a member's name in a third of the benchmark's documents walked 2,800 rows to
 * count 1,001 matches, 9 ms, to be told what the sample says).
 */
const SURE_SAMPLED_MATCHES = 30;
const SURE_CAP_FACTOR = 3;
const surelyCapped = (sampled: SampledMatches, tableRows: number) =>
  sampled.count >= SURE_SAMPLED_MATCHES && sampled.share * tableRows >= SURE_CAP_FACTOR * SEARCH_TOTAL_CAP;
/**
 * A query the sample estimates below NEAR_CAP_ESTIMATE times the cap has up to SCORED_NEAR_CAP
 * matches scored, not SEARCH_TOTAL_CAP + 1: one just past the cap (a member beside an event's
 * shorthand reading, 1,048–1,338 matches in the benchmark, estimated 735–1,331) takes its page from
 * them instead of counting to 1,001 and then reading its levels in one or two statements more
 * (medians 11.8–19.7 ms → 10.5–14.4, the same answers). One estimated low but matching more than
 * twice the cap scores 2,001 and reads its levels after all.
 */
const NEAR_CAP_ESTIMATE = 1.5;
const SCORED_NEAR_CAP = 2 * SEARCH_TOTAL_CAP + 1;
/**
 * A word in fewer documents than the statistics list (3% of them) narrows a query's candidates
 * alone, up to RARE_WORD_ROWS of them (scoring a candidate row costs about 10 µs), when the
 * containments of every choice of fields would ask the GIN index for at least DRIVER_MIN_KEYS
 * keys in all: a typo beside fromis_9 (25 choices of 9 keys) took 31 ms that way and 13 driven.
 * With fewer keys the containments are cheap, and a word that turns out common (a school's short
 * name, 750 documents) would pay for the driven attempt and then for them: 2 ms more at p50 over
 * the benchmark's two-word queries.
 */
const RARE_WORD_ROWS = 100;
const DRIVER_MIN_KEYS = 150;
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
const MAX_PREPARED_WORDS = 3;
const MAX_PREPARED_SHAPES = 32;
/** How long the planner's gram frequencies (pg_stats) are used before they are read again. */
const GRAM_STATS_MAX_AGE_MS = 60_000;

/** A field's key: normalised, decorations and spaces removed (decorations.ts), as query words are. */
const spaceless = undecoratedKey;

type Field = keyof typeof TIER;
const FIELD_COLUMN: Record<Field, string> = {
  title: 'title_key',
  source: 'source_key',
  venue: 'venue_key',
  members: 'members_key',
  description: 'description_key',
  choseong: 'choseong_key',
};
/** What a typo walk's conditions and answer read: the keys, not the grams or the other columns. */
const WALKED_COLUMNS = `schedule_id, date, ${Object.values(FIELD_COLUMN).join(', ')}, typo_key`;
/** The `limit` newest documents' keys, walked along the date index, as a subquery `w`. */
const newestRows = (limit: string) => `(SELECT ${WALKED_COLUMNS} FROM search_documents ORDER BY date DESC, schedule_id DESC LIMIT ${limit}) w`;
const FIELD_TAG: Record<Field, string> = { title: 't', source: 's', venue: 'v', members: 'm', description: 'd', choseong: 'c' };
/** Tag of the typo skeleton's bigrams (of title, sources, venues and members) among the grams. */
const TYPO_TAG = 'y';

/**
 * The fields a query word can match, best first: its score is the tier of the first one it is a
 * substring of. Initial consonants match the title or the initials; one character is indexed in
 * every field but the description.
 */
function fieldsOf(word: string): Field[] {
  if (isChoseongQuery(word)) return ['title', 'choseong'];
  return [...word].length >= 2 ? ['title', 'source', 'venue', 'members', 'description'] : ['title', 'source', 'venue', 'members'];
}

/** The tagged grams a field holding `word` must hold: its bigrams, or the character itself. */
const taggedGrams = (field: Field, word: string) => bigramsOfNormalized(word).map((gram) => FIELD_TAG[field] + gram);

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
function askedGrams(field: Field, word: string, statistics: GramStatistics): string[] {
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
 * The 32-bit key a tagged gram is stored and asked for as (FNV-1a over its UTF-16 code units):
 * `gram_keys` holds them, not the text (migration 018). Two grams sharing a key only add candidates,
 * which are all checked on their text keys.
 */
export const gramKey = (gram: string) => fnv(FNV_OFFSET, gram, 0, gram.length) | 0;
const FNV_OFFSET = 0x811c9dc5;
/** FNV-1a continued from `hash` over the code units text[from, to). */
function fnv(hash: number, text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

/**
 * Adds to `keys` the gramKey of `tag` + each bigram of `part` (pairs of code points, or the part
 * itself when it is one code point: bigramsOfNormalized), and with `characters` of `tag` + each
 * code point, hashing slices of `part` in place instead of building each gram's string.
 */
function addGramKeys(keys: Set<number>, tag: string, part: string, characters: boolean): void {
  const tagged = fnv(FNV_OFFSET, tag, 0, tag.length);
  const starts: number[] = [];
  for (let i = 0; i < part.length; i++) {
    starts.push(i);
    const unit = part.charCodeAt(i);
    // A surrogate pair is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < part.length && (part.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  starts.push(part.length);
  const points = starts.length - 1;
  if (points === 1) keys.add(fnv(tagged, part, 0, part.length) | 0);
  for (let i = 0; i + 1 < points; i++) keys.add(fnv(tagged, part, starts[i]!, starts[i + 2]!) | 0);
  if (characters) for (let i = 0; i < points; i++) keys.add(fnv(tagged, part, starts[i]!, starts[i + 1]!) | 0);
}
/** The condition that a document holds every one of `grams` (a GIN containment of their keys). */
const holds = (grams: Iterable<string>, param: (value: unknown) => string) => `gram_keys @> ${param([...new Set([...grams].map(gramKey))])}::int[]`;

/** The tagged bigrams of each of a word's typo skeletons (one, or two for a word with a compound vowel). */
const typoGramSets = (word: string) => typoSkeletons(word).map((skeleton) => skeletonBigrams(skeleton).map((gram) => TYPO_TAG + gram));
/** The row condition that a document's typo keys hold one of the word's typo skeletons. */
const holdsSkeleton = (word: string, param: (value: unknown) => string) => {
  const conditions = typoSkeletons(word).map((skeleton) => contains('typo_key', param(skeleton)));
  return conditions.length === 1 ? conditions[0]! : `(${conditions.join(' OR ')})`;
};
/**
 * Containments a typo search's candidates are asked for by at most: the choices of fields for the
 * words not corrected, times the skeletons of the corrected words with two.
 */
const MAX_TYPO_CONTAINMENTS = 32;

/**
 * The share of documents estimated to match a word: the sum over its fields of the rarest of its
 * grams there (an upper bound for a word of three or more characters); for a query, the words taken
 * as independent.
 */
function wordDensity(word: string, statistics: GramStatistics): number {
  const perField = fieldsOf(word).map((field) => Math.min(...taggedGrams(field, word).map((gram) => statistics.frequency(gramKey(gram)))));
  return Math.min(1, perField.reduce((sum, share) => sum + share, 0));
}

/** What the sampled documents say of a query: how many match every word, their share, and their scores. */
export interface SampledMatches {
  count: number;
  share: number;
  /** Matching sampled documents by score (the sum of their words' tiers). */
  levels: Map<number, number>;
}
const sampledMatchesOf = new WeakMap<GramStatistics, Map<string, SampledMatches>>();
/** Queries remembered per statistics read (forgotten all at once past this many). */
const MAX_REMEMBERED_QUERIES = 10_000;

/**
 * The sampled documents (`GramStatistics.sample`) matching every word as the search matches them
 * (a substring of one of the word's fields), counted once per query while the statistics last;
 * undefined without a sample.
 */
export function sampledMatches(words: string[], statistics: GramStatistics): SampledMatches | undefined {
  const sample = statistics.sample;
  if (sample.length === 0) return undefined;
  let remembered = sampledMatchesOf.get(statistics);
  if (!remembered) sampledMatchesOf.set(statistics, (remembered = new Map()));
  const key = words.join(' ');
  let found = remembered.get(key);
  if (!found) {
    const options = words.map(fieldsOf);
    const levels = new Map<number, number>();
    let count = 0;
    // Most documents lack the first word: the documents holding it are found by one search of all
    // the sampled keys (0.4 ms a query when each document's keys were searched in turn).
    for (const index of sampledHolding(words[0]!, statistics)) {
      const document = sample[index]!;
      if (!words.every((word) => document.keys.includes(word))) continue;
      let score = 0;
      for (const [i, word] of words.entries()) {
        const field = options[i]!.find((option) => document[option].includes(word));
        if (field === undefined) {
          score = -1;
          break;
        }
        score += TIER[field];
      }
      if (score < 0) continue;
      count++;
      levels.set(score, (levels.get(score) ?? 0) + 1);
    }
    found = { count, share: count / sample.length, levels };
    if (remembered.size >= MAX_REMEMBERED_QUERIES) remembered.clear();
    remembered.set(key, found);
  }
  return found;
}
const sampledShare = (words: string[], statistics: GramStatistics) => sampledMatches(words, statistics)?.share;
/** Whether a sampled document holds one of the word's typo skeletons (so some document matches it within a typo, or exactly). */
function sampleHoldsSkeleton(word: string, statistics: GramStatistics): boolean {
  const { typo } = joinedSample(statistics);
  return typoSkeletons(word).some((skeleton) => typo.includes(skeleton));
}

/** Whether a sampled document matches the word alone, exactly or (a typo candidate) by one of its typo skeletons. */
const sampledPresent = (word: string, statistics: GramStatistics) =>
  (sampledShare([word], statistics) ?? 0) > 0 || (isTypoCandidate(word) && sampleHoldsSkeleton(word, statistics));

/**
 * The share of the sampled documents a typo search of `words` would take as candidates: each
 * mistyped word's skeleton in their typo keys, each other word in one of its fields, and with
 * `someExact` not every word exactly. Undefined without a sample of TYPO_PROBE_ROWS documents.
 */
function sampledTypoShare(words: string[], someExact: boolean, statistics: GramStatistics): number | undefined {
  const sample = statistics.sample;
  if (sample.length < TYPO_PROBE_ROWS) return undefined;
  const skeletons = words.map((word) => (isTypoCandidate(word) ? typoSkeletons(word) : undefined));
  const fields = words.map(fieldsOf);
  const exactly = (document: SampledDocument, i: number) => fields[i]!.some((field) => document[field].includes(words[i]!));
  let count = 0;
  for (const document of sample) {
    const candidate = words.every((_, i) => skeletons[i] === undefined ? exactly(document, i) : skeletons[i].some((skeleton) => document.typo.includes(skeleton)));
    if (candidate && !(someExact && words.every((_, i) => exactly(document, i)))) count++;
  }
  return count / sample.length;
}

/**
 * Between two sampled documents in `JoinedSample`'s texts: a control character that neither keys
 * nor query words hold (`normalizeText` removes every C0 control), so no word spans two documents.
 */
const DOCUMENT_SEPARATOR = '\u0002';
/** The sampled documents' keys, and their typo keys, each in one text: a word's documents are found by searching it once. */
interface JoinedSample {
  keys: string;
  /** Where each document's keys start in `keys`, and the text's length last. */
  starts: number[];
  typo: string;
}
const joinedSamples = new WeakMap<GramStatistics, JoinedSample>();
function joinedSample(statistics: GramStatistics): JoinedSample {
  let joined = joinedSamples.get(statistics);
  if (!joined) {
    const starts: number[] = [];
    let length = 0;
    for (const document of statistics.sample) {
      starts.push(length);
      length += document.keys.length + 1;
    }
    starts.push(length);
    const keys = statistics.sample.map((document) => document.keys).join(DOCUMENT_SEPARATOR) + DOCUMENT_SEPARATOR;
    joinedSamples.set(statistics, (joined = { keys, starts, typo: statistics.sample.map((document) => document.typo).join(DOCUMENT_SEPARATOR) }));
  }
  return joined;
}
/** The indices of the sampled documents whose keys hold `word`, in order. */
function sampledHolding(word: string, statistics: GramStatistics): number[] {
  if (word === '') return statistics.sample.map((_, i) => i);
  const { keys, starts } = joinedSample(statistics);
  const found: number[] = [];
  for (let at = keys.indexOf(word); at >= 0; ) {
    // The document holding position `at`: the last start at or before it.
    let low = 0;
    let high = starts.length - 1;
    while (high - low > 1) {
      const middle = (low + high) >> 1;
      if (starts[middle]! <= at) low = middle;
      else high = middle;
    }
    found.push(low);
    at = keys.indexOf(word, starts[low + 1]!);
  }
  return found;
}

/**
 * Every choice of one field per word (`fieldsOf`): up to five per word, so only for queries of at
 * most MAX_LEVEL_WORDS words (25 choices). Eight words would be 390,625 choices, seconds of the
 * event loop for one query.
 */
function combinations(words: string[]): Field[][] {
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
function containmentKeys(words: string[]): number {
  const fieldCounts = words.map((word) => fieldsOf(word).length);
  const choices = fieldCounts.reduce((product, n) => product * n, 1);
  return words.reduce((sum, word, i) => sum + (fieldsOf(word).reduce((n, field) => n + taggedGrams(field, word).length, 0) * choices) / fieldCounts[i]!, 0);
}

/** Numbered SQL parameters, in the order the text uses them. */
function parameters() {
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
const BITMAP_ONLY = planSettings({ enable_seqscan: 'off' });
/** Plan settings for reading the newest rows either along the date index (`walk`) or from the GIN index and sorted. */
const WALK_SETTINGS = planSettings({ enable_seqscan: 'off', enable_bitmapscan: 'off', enable_indexscan: 'on' });
const GIN_READ_SETTINGS = planSettings({ enable_seqscan: 'off', enable_bitmapscan: 'on', enable_indexscan: 'off' });
const readSettings = (walk: boolean) => (walk ? WALK_SETTINGS : GIN_READ_SETTINGS);

interface DocumentRow {
  schedule_id: number;
  category_id: number;
  date: string;
  title_key: string;
  source_key: string;
  venue_key: string;
  members_key: string;
  description_key: string;
  choseong_key: string;
  gram_keys: number[];
  typo_key: string;
  format: number;
}

export function documentRow(document: SearchDocument): DocumentRow {
  const title = spaceless(document.title);
  const sources = document.sourceNames.map(spaceless).filter(Boolean);
  const members = document.memberNames.map(spaceless).filter(Boolean);
  const venues = (document.venueNames ?? []).map(spaceless).filter(Boolean);
  const description = spaceless(document.description.slice(0, MAX_DESCRIPTION_CHARS));
  // Bigrams never cross from one name to the next: each key part is its own run of characters.
  // Single characters too, so a one-character word (a nickname like 챙) is found through the index.
  const keys = new Set<number>();
  const add = (field: Field, part: string, characters: boolean) => addGramKeys(keys, FIELD_TAG[field], part, characters);
  const choseongs: string[] = [];
  const skeletons = [title, ...sources, ...venues, ...members].flatMap(typoSkeletons);
  for (const skeleton of skeletons) addGramKeys(keys, TYPO_TAG, skeleton, false);
  add('title', title, true);
  for (const part of sources) add('source', part, true);
  for (const part of venues) add('venue', part, true);
  for (const part of members) add('members', part, true);
  add('description', description, false);
  for (const part of [title, ...sources, ...members]) {
    const initials = choseongOfNormalized(part);
    choseongs.push(initials);
    // A choseong query is consonants only: grams with a digit or Latin letter could never be asked for.
    for (const run of consonantRuns(initials)) add('choseong', run, true);
  }
  return {
    schedule_id: document.scheduleId,
    category_id: document.categoryId,
    date: document.date,
    title_key: title,
    source_key: sources.join('|'),
    venue_key: venues.join('|'),
    members_key: members.join('|'),
    description_key: description,
    choseong_key: choseongs.join('|'),
    gram_keys: [...keys],
    typo_key: skeletons.join('|'),
    format: DOCUMENT_FORMAT,
  };
}

/**
 * The SQL condition that `column` holds the parameter `text` as a substring (`lacks`: that it does
 * not). strpos rather than LIKE '%…%': LIKE steps through the text a character at a time where
 * strpos searches its bytes, and scoring is most of a search's time: a walk scoring the newest
 * 2,836 documents for 지헌 (five fields each) took 6.5 ms instead of 9.3. The planner also
 * estimates strpos without running a pattern over the column's statistics.
 */
const contains = (column: string, text: string) => `strpos(${column}, ${text}) > 0`;
const lacks = (column: string, text: string) => `strpos(${column}, ${text}) = 0`;

/** Query words as the index sees them; `analyze` may strip particles and split unspaced input. */
export type QueryAnalyzer = (query: string) => Promise<string[]> | string[];

export const plainQueryWords: QueryAnalyzer = (query) =>
  normalizeText(query)
    .split(' ')
    .filter(Boolean);

/** The query words both engines search: analysed, spaces removed, at most MAX_WORD_LENGTH long, MAX_QUERY_WORDS of them. */
export async function queryWords(analyze: QueryAnalyzer, query: string): Promise<string[]> {
  const words = (await analyze(query)).map((word) => word.replace(/ /g, '').slice(0, MAX_WORD_LENGTH)).filter(Boolean);
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

/**
 * The bounded rewrites of a query (shared/korean/query-rewrites.ts): its keyboard-layout reading
 * (analysed like the query) first when some Latin word spells Hangul, then the words' variants.
 */
export async function rewritesOf(query: string, words: string[], analyze: QueryAnalyzer, synonyms: SynonymSource): Promise<QueryRewrite[]> {
  // The keyboard-layout reading needs the letters' case (Rk → 까): it reads the query as typed.
  const layout = convertLayoutSlips(query.slice(0, 200));
  const layoutWords = layout === undefined ? undefined : await queryWords(analyze, layout);
  const table = await synonyms.table();
  const rewrites = queryRewrites(words, table, layoutWords, queryReadings(words, table.lexicon));
  // Shorthand the analyser split (연습영상 → 연습, 영상) is looked up as typed too.
  const typed = await queryWords(plainQueryWords, understandQuery(query).text);
  if (rewrites.length < MAX_REWRITES && typed.join(' ') !== words.join(' ')) {
    for (const rewrite of queryRewrites(typed, table)) {
      if (rewrites.length < MAX_REWRITES && rewrite.kind === 'synonym' && !rewrites.some((other) => other.words.join(' ') === rewrite.words.join(' '))) rewrites.push(rewrite);
    }
    // The words as typed: a mistyped run-together word (가요데축재) the analyser split is corrected whole.
    if (rewrites.length < MAX_REWRITES) rewrites.push({ kind: 'spacing', words: typed });
  }
  return rewrites;
}

/** The query-understanding step's date and the words' forms (each word, its lexicon terms and transliterations), for `searchAsFansType`. */
export function understoodBy(understood: UnderstoodQuery, synonyms: SynonymSource): Understood {
  return {
    ...(understood.date ? { date: understood.date } : {}),
    typed: understood.text.split(' ').filter(Boolean).map((word) => word.slice(0, 40)),
    forms: async (words) => {
      const table = await synonyms.table();
      return words.map((word) => wordForms(word, table.lexicon));
    },
  };
}

export class EmbeddedSearchIndex implements SearchIndex {
  readonly engine = 'embedded' as const;

  private readonly gramFrequencies: GramFrequencies;
  /** Names of the scoring statements run as prepared statements (`run`). */
  private readonly preparedShapes = new Set<string>();
  /**
   * Whether a query that no sampled document matches starts its later searches beside its exact
   * search (`WordSearchEngine.likelyUnmatched`). Only the time a search takes depends on it.
   */
  startEarly = true;

  constructor(
    private readonly db: Db,
    private readonly analyze: QueryAnalyzer = plainQueryWords,
    private readonly synonyms: SynonymSource = defaultSynonyms,
  ) {
    this.gramFrequencies = new GramFrequencies(db, GRAM_STATS_MAX_AGE_MS);
  }

  /**
   * Writes the documents' rows in id order: concurrent writers lock them in one order and cannot
   * deadlock each other. A rebuild, the only writer while it runs, writes them into its new table
   * (`rebuilt`) in date order instead.
   */
  private async write(db: Queryable, documents: SearchDocument[], rebuilt = false): Promise<void> {
    const sorted = [...documents].sort(rebuilt ? (a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.scheduleId - b.scheduleId) : (a, b) => a.scheduleId - b.scheduleId);
    for (let i = 0; i < sorted.length; i += WRITE_BATCH) {
      // Built ROWS_PER_TURN at a time, the event loop served in between: 500 rows are about 22 ms
      // of text work, and the edge may share this loop (all roles in one process).
      const rows: DocumentRow[] = [];
      for (const document of sorted.slice(i, i + WRITE_BATCH)) {
        rows.push(documentRow(document));
        if (rows.length % ROWS_PER_TURN === 0) await setImmediatePromise();
      }
      const column = <K extends keyof DocumentRow>(key: K) => rows.map((row) => row[key]);
      const values = [
        column('schedule_id'), column('category_id'), column('date'), column('title_key'), column('source_key'), column('venue_key'),
        column('members_key'), column('description_key'), column('choseong_key'), rows.map((row) => row.gram_keys.join(' ')),
        column('typo_key'), DOCUMENT_FORMAT,
      ];
      await db.none(rebuilt ? parameterizedQuery(upsertInto(REBUILT_TABLE), values) : upsertDocuments(...values));
    }
  }

  async upsert(documents: SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    // One batch is one statement, its own transaction; more commit together.
    if (documents.length <= WRITE_BATCH) await this.write(this.db, documents);
    else await this.db.tx('search-upsert', (tx) => this.write(tx, documents));
  }

  async remove(scheduleIds: number[]): Promise<void> {
    if (scheduleIds.length === 0) return;
    await this.db.none(removeDocuments([...scheduleIds].sort((a, b) => a - b)));
  }

  /**
   * Writes every document into a new table and puts it in the old one's place, in one
   * transaction: readers see the old index until the new one commits whole. Writers wait from the
   * start (the table lock) and then write into the new table. Its indexes hold the new rows only:
   * deleting and rewriting every row in place left the old entries' pages in the GIN index (on
   * 50,000 documents 26 → 62 MB, typo searches twice as slow, until a REINDEX).
   */
  async rebuild(documents: SearchDocument[]): Promise<number> {
    await this.db.tx('search-rebuild', async (tx) => {
      // Conflicts with writers and with another rebuild, not with readers. Taken before anything
      // else: a writer waiting for it holds nothing on the table.
      await tx.none('LOCK TABLE search_documents IN SHARE ROW EXCLUSIVE MODE');
      type Index = { name: string; definition: string; constraint: string | null; method: string };
      const indexes = await tx.any<Index>(
        `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition, pg_get_constraintdef(k.oid) AS constraint, a.amname AS method
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
           LEFT JOIN pg_constraint k ON k.conindid = i.indexrelid AND k.conrelid = i.indrelid
          WHERE i.indrelid = 'search_documents'::regclass ORDER BY c.relname`,
      );
      const renamed = (name: string) => name.slice(0, 63 - REBUILT_SUFFIX.length) + REBUILT_SUFFIX;
      const ginIndexes: string[] = [];
      await tx.none(`CREATE TABLE ${REBUILT_TABLE} (LIKE search_documents INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS)`);
      // The indexes before the rows: each statement stays short (a GIN index built over 50,000
      // rows at once took 2.8 s of the 5 s query bound). Filled row by row it is larger (41 MB
      // against 26 there) but searched as fast (800 queries alternating between the two).
      for (const index of indexes) {
        if (index.constraint !== null) {
          await tx.none(`ALTER TABLE ${REBUILT_TABLE} ADD CONSTRAINT $1:name ${index.constraint}`, [renamed(index.name)]);
          continue;
        }
        const parts = /^(CREATE (?:UNIQUE )?INDEX )\S+( ON (?:ONLY )?)\S+( USING .*)$/s.exec(index.definition);
        if (!parts) throw new Error(`search index rebuild: unexpected index definition ${index.definition}`);
        await tx.none(`${parts[1]}$1:name${parts[2]}${REBUILT_TABLE}${parts[3]}`, [renamed(index.name)]);
        // A GIN index is filled with its pending list on: written row by row without it, 50,000
        // documents took 114 s instead of 22 (migration 025).
        if (index.method === 'gin') {
          ginIndexes.push(renamed(index.name));
          await tx.none('ALTER INDEX $1:name SET (fastupdate = on)', [renamed(index.name)]);
        }
      }
      // Rows of neighbouring dates share table pages: the searches that walk the date index (a
      // common word, a dense typo) then read a few hundred pages instead of a page per row, 3 times
      // faster when ids and dates are unrelated (the benchmark's data). New schedules, mostly of
      // recent dates, are appended together later.
      await this.write(tx, documents, true);
      // Then its pending list is flushed and turned off: every search would read what was left in
      // it (48 pages after 50,000 documents: 9 → 12 ms for a two-word search), and later writes
      // insert into the index itself.
      for (const name of ginIndexes) {
        await tx.one('SELECT gin_clean_pending_list($1::regclass)', [name]);
        await tx.none('ALTER INDEX $1:name SET (fastupdate = off)', [name]);
      }
      // The planner's statistics (and the gram frequencies the search reads from them) describe
      // the new rows from the commit on, not whenever autovacuum comes.
      await tx.none(`ANALYZE ${REBUILT_TABLE}`);
      // Readers wait from here to the commit (the swap; a search during it took 49 ms, 50,000 rows).
      await tx.none('DROP TABLE search_documents');
      await tx.none(`ALTER TABLE ${REBUILT_TABLE} RENAME TO search_documents`);
      for (const index of indexes) {
        if (index.constraint !== null) await tx.none('ALTER TABLE search_documents RENAME CONSTRAINT $1:name TO $2:name', [renamed(index.name), index.name]);
        else await tx.none('ALTER INDEX $1:name RENAME TO $2:name', [renamed(index.name), index.name]);
      }
    });
    this.gramFrequencies.invalidate();
    return documents.length;
  }

  async count(): Promise<number> {
    return (await this.db.one<{ n: number }>('SELECT count(*)::int AS n FROM search_documents')).n;
  }

  /** Rebuilds the index from `loadDocuments` when rows of an older document format remain (after a migration). */
  async ensureCurrentFormat(loadDocuments: () => Promise<SearchDocument[]>): Promise<boolean> {
    const stale = await this.db.one<{ stale: boolean }>('SELECT EXISTS (SELECT 1 FROM search_documents WHERE format < $1) AS stale', [DOCUMENT_FORMAT]);
    if (!stale.stale) return false;
    await this.rebuild(await loadDocuments());
    return true;
  }

  async search(query: string, page: { offset: number; limit: number }): Promise<SearchPage> {
    const read = understandQuery(query);
    // The words as typed are the text in the title's spellings (before the analyser splits them).
    const understood = { ...read, text: withTitleSpellings(read.text, (await this.synonyms.table()).lexicon) };
    const words = await queryWords(this.analyze, understood.text);
    if (words.length === 0 && !understood.date) return { ids: [], total: 0 };
    const engine: WordSearchEngine = {
      exact: (subset, window, all) => this.exactSearch(subset, window, all),
      weights: async (subset) => sampledWeights(subset, await this.gramFrequencies.get()) ?? countedWeights(this.db, subset),
      onDate: (forms, date, window) => searchOnDate(this.db, forms, date, window, (form, param) => this.exactScores([form], param)[0]!),
      typos: (subset, someExact) => this.typoMatches(subset, someExact),
      present: (subset) => this.present(subset),
      inMonth: (subset, month, window) => this.monthSearch(subset, month, window),
      ...(this.startEarly
        ? {
            likelyUnmatched: async (subset: string[]) => sampledMatches(subset, await this.gramFrequencies.get())?.count === 0,
            likelyAbsent: async (subset: string[]) => {
              const statistics = await this.gramFrequencies.get();
              return subset.map((word) => statistics.sample.length > 0 && !sampledPresent(word, statistics));
            },
            likelyNoTypos: async (subset: string[]) => sampledTypoShare(subset, false, await this.gramFrequencies.get()) === 0,
          }
        : {}),
    };
    return searchAsFansType(engine, words, page, () => rewritesOf(query, words, this.analyze, this.synonyms), understoodBy(understood, this.synonyms));
  }

  /**
   * Per word: whether some document holds it in a field, or (a word of two syllables or more)
   * holds its typo skeleton; one statement, each word one bounded EXISTS over the GIN index.
   */
  private async present(words: string[]): Promise<boolean[]> {
    const statistics = await this.gramFrequencies.get();
    // A word found in the sampled documents (in a field it can match, or its typo skeleton) is
    // present without asking: a common word's EXISTS builds its whole GIN bitmap before the first
    // row (규리, in 17,363 of the benchmark's documents: 12 ms; 축한공연's skeleton, 12 ms).
    const sampled = words.map((word) => sampledPresent(word, statistics));
    const asked = words.filter((_, i) => !sampled[i]);
    if (asked.length === 0) return sampled;
    const { values, param } = parameters();
    const scores = this.exactScores(asked, param);
    const columns = asked.map((word, i) => {
      const exact = `EXISTS (SELECT 1 FROM search_documents WHERE ${EmbeddedSearchIndex.candidates([word], param, statistics)} AND (${scores[i]}) > 0)`;
      if (!isTypoCandidate(word)) return `${exact} AS p${i}`;
      const grams = typoGramSets(word).map((set) => holds(set, param));
      const typo = `EXISTS (SELECT 1 FROM search_documents WHERE ${grams.length === 1 ? grams[0] : `(${grams.join(' OR ')})`} AND ${holdsSkeleton(word, param)})`;
      return `(${exact} OR ${typo}) AS p${i}`;
    });
    const [, [row] = []] = await this.db.multi<Record<string, boolean>>(`${BITMAP_ONLY} SELECT ${columns.join(', ')}`, values);
    let next = 0;
    return sampled.map((known) => known || row?.[`p${next++}`] === true);
  }

  /**
   * Each word's score as a column (`s0`, `s1`, …), the condition that every word matched, and their
   * sum: what the exact count selects and ranks by.
   */
  private scoring(words: string[], param: (value: unknown) => string) {
    const scores = this.exactScores(words, param);
    return {
      scores,
      columns: scores.map((score, i) => `${score} AS s${i}`).join(', '),
      matched: scores.map((_, i) => `s${i} > 0`).join(' AND '),
      sum: scores.map((_, i) => `s${i}`).join(' + '),
    };
  }

  /** A SQL score per word: the tier of the first field holding it (0 when none does). */
  private exactScores(words: string[], param: (value: unknown) => string): string[] {
    return words.map((word) => {
      const text = param(word);
      const cases = fieldsOf(word).map((field) => `WHEN ${contains(FIELD_COLUMN[field], text)} THEN ${TIER[field]}`);
      return `CASE ${cases.join(' ')} ELSE 0 END`;
    });
  }

  /**
   * Documents holding every word's grams in one of the fields the word can match. For up to
   * MAX_LEVEL_WORDS words, one containment per combination of fields: each is answered by the GIN
   * index alone (a word's alternatives ANDed with another's let the planner check one of them row
   * by row, 75 µs a row).
   */
  private static candidates(words: string[], param: (value: unknown) => string, statistics: GramStatistics): string {
    const grams = (field: Field, word: string) => askedGrams(field, word, statistics);
    if (words.length > MAX_LEVEL_WORDS) {
      return words.map((word) => `(${fieldsOf(word).map((field) => holds(grams(field, word), param)).join(' OR ')})`).join(' AND ');
    }
    const arms = combinations(words).map((combination) => holds(combination.flatMap((field, i) => grams(field, words[i]!)), param));
    return `(${arms.join(' OR ')})`;
  }

  /**
   * Exact matches: every word a substring of a field. `strong` when one of them has every word
   * outside the description (a good answer: no typo search). Past SEARCH_TOTAL_CAP matches the
   * total is the cap and `hasMore` is set; the page comes from the scored matches when every one
   * was scored, else from `rankByLevels`.
   */
  private async exactSearch(words: string[], page: { offset: number; limit: number }, all = false): Promise<SearchPage & { strong: boolean; matches?: number[] }> {
    const statistics = await this.gramFrequencies.get();
    const densities = words.map((word) => wordDensity(word, statistics));
    const sampled = words.length <= MAX_LEVEL_WORDS ? sampledMatches(words, statistics) : undefined;
    if (sampled && surelyCapped(sampled, statistics.rows)) {
      // Surely more matches than the cap: the total is the cap without counting them, and the
      // page is read level by level, each level's size as sampled.
      const sizes = new Map([...sampled.levels].map(([score, n]) => [score, (n * statistics.rows) / statistics.sample.length]));
      return { ...(await this.rankByLevels(words, page, sizes, statistics.rows, statistics)), total: SEARCH_TOTAL_CAP, strong: true };
    }
    // A rare word (a typo, a name few documents hold) narrows the candidates alone: the other
    // words are checked on its rows by their substring checks instead of one GIN containment per choice of
    // fields. The statistics only list grams in 3% or more of the documents, so the word must also
    // be rare in the sampled documents, and its candidates are read up to RARE_WORD_ROWS: past that
    // with fewer matches than the cap, the query is asked again the usual way (DRIVER_MIN_KEYS says
    // when the attempt is worth its risk). A school's full name (in 1.5% of the benchmark's
    // documents) beside a shorthand's reading paid for both before the sample.
    const rarest = densities.indexOf(Math.min(...densities));
    const rareInSample = (word: string) => (sampledShare([word], statistics) ?? 0) * statistics.rows <= RARE_WORD_ROWS;
    const driver = words.length > 1 && statistics.rows > 0 && densities[rarest] === 0 && containmentKeys(words) >= DRIVER_MIN_KEYS && rareInSample(words[rarest]!) ? words[rarest] : undefined;
    // Queries of more words than levels are made for are scored whole at once: past the cap,
    // counting to it first would only be followed by scoring every match.
    const levelled = words.length <= MAX_LEVEL_WORDS;
    const scoredUpTo = sampled && sampled.share * statistics.rows < NEAR_CAP_ESTIMATE * SEARCH_TOTAL_CAP ? SCORED_NEAR_CAP : SEARCH_TOTAL_CAP + 1;
    const first = await this.scoreMatches(words, page, statistics, { upTo: levelled || driver !== undefined ? scoredUpTo : undefined, driver, all });
    const row = driver !== undefined && first.total <= SEARCH_TOTAL_CAP && first.candidates! > RARE_WORD_ROWS ? await this.scoreMatches(words, page, statistics, { upTo: levelled ? scoredUpTo : undefined, all }) : first;
    if (row.total <= SEARCH_TOTAL_CAP) return { ids: row.ids, total: row.total, strong: row.strong, ...(row.matches && row.total > row.ids.length ? { matches: row.matches } : {}) };
    // Every match was scored (a query of more words than levels are made for, or one not far past
    // the cap): the page is theirs.
    if (!levelled || row.total < scoredUpTo) return { ids: row.ids, total: SEARCH_TOTAL_CAP, hasMore: page.offset + row.ids.length < row.total, strong: row.strong };
    // The matches read cover blocks 0..last_block of the table: each level's size in the whole
    // table is estimated in proportion.
    const share = Math.max(1, row.size.blocks) / (row.last_block + 1);
    const sizes = new Map(Object.entries(row.levels ?? {}).map(([score, n]) => [Number(score), n * share]));
    return { ...(await this.rankByLevels(words, page, sizes, Math.max(row.size.rows, 1), statistics)), total: SEARCH_TOTAL_CAP, strong: true };
  }

  /**
   * Exact matches among the documents dated in `month` (of any year), every one scored: a month
   * holds a twelfth of a word's matches, and the levels' estimates do not know the month.
   */
  private async monthSearch(words: string[], month: number, page: { offset: number; limit: number }): Promise<SearchPage> {
    const statistics = await this.gramFrequencies.get();
    const row = await this.scoreMatches(words, page, statistics, { month });
    if (row.total <= SEARCH_TOTAL_CAP) return { ids: row.ids, total: row.total };
    return { ids: row.ids, total: SEARCH_TOTAL_CAP, hasMore: page.offset + row.ids.length < row.total };
  }

  /**
   * Every word's score on the candidates (`candidates`, or the `driver` word's matches alone, at
   * most RARE_WORD_ROWS + 1 of them, counted in `candidates` when fewer than the cap match), and
   * the matches: their number (up to `upTo` when given), whether one is strong, the page, with
   * `upTo` the sizes of the score levels among them, and with `all` every match's id.
   */
  private async scoreMatches(
    words: string[],
    page: { offset: number; limit: number },
    statistics: GramStatistics,
    { upTo, driver, month, all = false }: { upTo?: number; driver?: string | undefined; month?: number; all?: boolean },
  ) {
    const cap = upTo !== undefined;
    const { values, param } = parameters();
    // One score per word: the best field it is a substring of (0 when none), each check evaluated
    // at most once per candidate.
    const { scores, columns, matched, sum } = this.scoring(words, param);
    const candidates = EmbeddedSearchIndex.candidates(driver === undefined ? words : [driver], param, statistics);
    // The scores are computed under a fence (OFFSET 0, or the candidates' own CTE): what follows
    // carries (id, date, ctid, scores) only, not the text keys, and stays in memory. At most one
    // match more than the cap is read: it says the total is larger. With it, how far through the
    // table the matches read reached (the bitmap scan reads blocks in order) and how many fell in
    // each score level: estimates of the levels' sizes for `rankByLevels`. One grouping pass (l)
    // gives the total, the strong flag, the levels and the last block, converted from a ctid once
    // rather than on every row: over the benchmark's 2,500 queries 5% less time a query.
    // The driver's candidates are its matches: those its grams alone would give can be many more
    // (ㅍㅁㅅ's pairs ㅍㅁ and ㅁㅅ are in thousands of documents' initials, the three in a row in few).
    const driverMatches = driver === undefined ? '' : ` AND (${scores[words.indexOf(driver)]}) > 0`;
    const inMonth = month === undefined ? '' : ` AND extract(month FROM date) = ${param(month)}`;
    const scored = `SELECT schedule_id, date, ctid, ${columns}
        FROM search_documents WHERE ${candidates}${driverMatches}${inMonth}`;
    const limit = cap ? ` LIMIT ${upTo}` : '';
    const strong = scores.map((_, i) => `s${i} >= ${STRONG_SCORE}`).join(' AND ');
    const body = `
      WITH ${driver === undefined ? `m AS MATERIALIZED (SELECT * FROM (${scored} OFFSET 0) c WHERE ${matched}${limit})` : `c AS MATERIALIZED (${scored} LIMIT ${RARE_WORD_ROWS + 1}), m AS MATERIALIZED (SELECT * FROM c WHERE ${matched}${limit})`},
      l AS MATERIALIZED (SELECT ${sum} AS score, count(*) AS n, bool_or(${strong}) AS strong, max(ctid) AS last FROM m GROUP BY 1)
      SELECT (SELECT coalesce(sum(n), 0) FROM l)::int AS total,
             ${driver === undefined ? 'null' : `CASE WHEN (SELECT coalesce(sum(n), 0) FROM l) <= ${SEARCH_TOTAL_CAP} THEN (SELECT count(*) FROM c) END`}::int AS candidates,
             (SELECT coalesce(bool_or(strong), false) FROM l) AS strong,
             (SELECT coalesce(array_agg(schedule_id ORDER BY score DESC, date DESC, schedule_id DESC), '{}') FROM (
                SELECT schedule_id, date, ${sum} AS score FROM m ORDER BY score DESC, date DESC, schedule_id DESC OFFSET ${param(page.offset)} LIMIT ${param(page.limit)}) p) AS ids,
             ${all ? '(SELECT array_agg(schedule_id) FROM m)' : 'null'} AS matches,
             ${cap ? `(SELECT json_object_agg(score, n) FROM l) AS levels,
             (SELECT (max(last)::text::point)[0]::int FROM l) AS last_block,
             (SELECT json_build_object('blocks', relpages, 'rows', reltuples) FROM pg_class WHERE oid = 'search_documents'::regclass) AS size` : 'null AS levels'}`;
    type Row = { total: number; candidates: number | null; strong: boolean; ids: number[]; matches: number[] | null; levels: Record<string, number> | null; last_block: number; size: { blocks: number; rows: number } };
    const [row] = await this.run<Row>(BITMAP_ONLY, body, values, words.length <= MAX_PREPARED_WORDS);
    return row!;
  }

  /**
   * A statement run as a prepared statement (`executePrepared`) when it may be (`prepare`) and its
   * text is one of the first MAX_PREPARED_SHAPES this process met, else planned on the call.
   */
  private run<T>(settings: string, body: string, values: unknown[], prepare: boolean): Promise<T[]> {
    const planned = () => this.db.multi<T>(`${settings}${body}`, values).then(([, rows = []]) => rows);
    if (!prepare) return planned();
    const name = `search_${createHash('sha1').update(body).digest('hex').slice(0, 32)}`;
    if (!this.preparedShapes.has(name) && this.preparedShapes.size >= MAX_PREPARED_SHAPES) return planned();
    this.preparedShapes.add(name);
    return executePrepared<T>(this.db, name, settings, body, values);
  }

  /**
   * The newest `limit` rows matching `where`, newest first, read from the GIN index and sorted,
   * within the date window from `from` (`newestInWindow`). Sent as one simple-protocol message,
   * the settings last for that implicit transaction only.
   */
  private newestFirst<T>(columns: string, where: string, limit: number, values: unknown[], from?: string): Promise<T[]> {
    const read = async (window: string, count: number) => {
      // Sorted by date and id alone; the columns are read for the rows kept (a typo read sorted
      // 2,492 candidates' keys to keep 300 of them, a third of its time), found again by their
      // ctid (a TID scan; by id, 300 descents of the primary key took 1.1 ms, by ctid 0.8).
      const [, rows = []] = await this.db.multi<T>(
        `${readSettings(false)}
         SELECT ${columns} FROM search_documents WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM search_documents WHERE ${where}${window} ORDER BY date DESC, schedule_id DESC LIMIT ${count}))
         ORDER BY date DESC, schedule_id DESC`,
        values,
      );
      return rows;
    };
    return newestInWindow(read, limit, values, from);
  }

  /** The ids of the newest `limit` documents matching `where`, read as `readSettings(walk)` says, within the date window from `from`. */
  private newestIds(walk: boolean, where: string, limit: number, values: unknown[], from?: string): Promise<number[]> {
    const read = async (window: string, count: number) => {
      const [, [row] = []] = await this.db.multi<{ ids: number[] }>(
        `${readSettings(walk)}
         SELECT ARRAY(SELECT schedule_id FROM search_documents WHERE ${where}${window} ORDER BY date DESC, schedule_id DESC LIMIT ${count}) AS ids`,
        values,
      );
      return row!.ids;
    };
    return newestInWindow(read, limit, values, from);
  }

  /**
   * The page of a query with more matches than SEARCH_TOTAL_CAP, in the same order as scoring
   * every match. Each document's words match best in exactly one combination of fields (one per
   * word), whose tiers add up to its score; the combinations of one score form a level. Levels are
   * read best first, each newest first, until the page and one more document are found. A level
   * estimated large is walked along the date index with its substring checks alone (a few rows per hit); any
   * other is read from the GIN index through its tagged grams and sorted. Walking costs about
   * `wanted × tableRows / size` rows and reading about `size`: the walk wins past
   * size² > WALK_FACTOR × wanted × tableRows.
   */
  private async rankByLevels(
    words: string[],
    page: { offset: number; limit: number },
    estimatedSizes: Map<number, number>,
    tableRows: number,
    statistics: GramStatistics,
  ): Promise<{ ids: number[]; hasMore: boolean }> {
    const options = words.map(fieldsOf);
    const levels = new Map<number, Field[][]>();
    for (const combination of combinations(words)) {
      const score = combination.reduce((sum, field) => sum + TIER[field], 0);
      levels.set(score, [...(levels.get(score) ?? []), combination]);
    }
    const wanted = page.offset + page.limit + 1;
    const order = [...levels.keys()].sort((a, b) => b - a);
    /** A level's estimated matches. */
    const size = (score: number) => estimatedSizes.get(score) ?? 0;
    const { values, param } = parameters();
    const texts = words.map((word) => param(word));
    /** The condition of a level's documents; its grams too unless it is walked. */
    const levelWhere = (score: number, walk: boolean) => {
      const arms = levels.get(score)!.map((combination) => {
        const conditions = combination.flatMap((field, w) => [
          contains(FIELD_COLUMN[field], texts[w]!),
          ...options[w]!.slice(0, options[w]!.indexOf(field)).map((better) => lacks(FIELD_COLUMN[better], texts[w]!)),
        ]);
        if (walk) return `(${conditions.join(' AND ')})`;
        return `(${[...conditions, holds(combination.flatMap((field, w) => askedGrams(field, words[w]!, statistics)), param)].join(' AND ')})`;
      });
      return `(${arms.join(' OR ')})`;
    };
    const read = new Map<number, number[]>();
    /** Levels read within a window of the newest documents: its first date and how many were asked. */
    const windows = new Map<number, { from: string; asked: number }>();
    const found: number[] = [];
    for (const [i, score] of order.entries()) {
      if (found.length >= wanted) break;
      if (!read.has(score)) {
        // This level's further matches, and in the same round trip those of the following levels
        // while the ones before are estimated too few to fill the page (they would be read next
        // anyway). A level large enough to be walked is read alone.
        const need = wanted - found.length;
        const walk = walkWins(size(score), wanted, tableRows);
        const batch = [score];
        let expected = size(score);
        for (const next of walk ? [] : order.slice(i + 1)) {
          if (expected >= need || walkWins(size(next), wanted, tableRows)) break;
          batch.push(next);
          expected += size(next);
        }
        const limit = param(need);
        // A level read from the GIN index and estimated to hold LEVEL_WINDOW_SLACK times the
        // rows it needs or more is read among the newest documents expected to hold that many.
        const window = (level: number) => {
          if (walk || size(level) < LEVEL_WINDOW_SLACK * need) return '';
          const windowRows = (LEVEL_WINDOW_SLACK * need * tableRows) / size(level);
          const from = windowWins(levels.get(level)!.length, windowRows, size(level), tableRows) ? statistics.newestFrom(windowRows) : undefined;
          if (from === undefined) return '';
          windows.set(level, { from, asked: need });
          return ` AND date >= ${param(from)}::date`;
        };
        const [, [row] = []] = await this.db.multi<Record<string, number[]>>(
          `${readSettings(walk)}
           SELECT ${batch.map((level, b) => `ARRAY(SELECT schedule_id FROM search_documents WHERE ${levelWhere(level, walk)}${window(level)} ORDER BY date DESC, schedule_id DESC LIMIT ${limit}) AS l${b}`).join(', ')}`,
          values,
        );
        for (const [b, level] of batch.entries()) read.set(level, row![`l${b}`]!);
      }
      const window = windows.get(score);
      if (window && read.get(score)!.length < window.asked && found.length + read.get(score)!.length < wanted) {
        // The window held fewer than asked, and they do not fill the page: the level's older matches.
        windows.delete(score);
        const older = await this.newestIds(false, `${levelWhere(score, false)} AND ${OLDER_THAN_WINDOW} ${param(window.from)}::date`, window.asked - read.get(score)!.length, values);
        read.set(score, [...read.get(score)!, ...older]);
      }
      found.push(...read.get(score)!.slice(0, wanted - found.length));
    }
    return { ids: found.slice(page.offset, page.offset + page.limit), hasMore: found.length > page.offset + page.limit };
  }

  /**
   * Documents that match every word, some of them only within one jamo edit (none that match
   * every word exactly: those are the exact search's), best first: per word the exact field tier
   * or else the typo tier of the best field it is within one edit of, then newer first.
   */
  private async typoMatches(words: string[], someExact: boolean): Promise<number[]> {
    const { values, param } = parameters();
    const typoWords = words.filter(isTypoCandidate);
    const statistics = await this.gramFrequencies.get();
    const tableRows = statistics.rows;
    const exactScores = this.exactScores(words, param);
    const exactWords = words.filter((word) => !isTypoCandidate(word));
    // Candidates hold the skeleton bigrams and, for each word that is not corrected, its grams in
    // one of its fields: one containment per choice of fields, so the GIN index intersects them (a
    // mistyped name beside fromis_9 has 15,000 skeleton candidates, and none left after that).
    const choices = exactWords.length <= MAX_LEVEL_WORDS ? combinations(exactWords) : [];
    // A corrected word with two typo skeletons (a compound vowel) doubles the containments, one
    // per skeleton, up to MAX_TYPO_CONTAINMENTS; past that, its skeletons are one more condition.
    let containments = choices.length > 0 ? choices.map((combination) => combination.flatMap((field, i) => askedGrams(field, exactWords[i]!, statistics))) : [[]];
    const apart: string[] = [];
    for (const sets of typoWords.map(typoGramSets)) {
      if (sets.length === 1 || containments.length * sets.length <= MAX_TYPO_CONTAINMENTS) containments = containments.flatMap((grams) => sets.map((set) => [...grams, ...set]));
      else apart.push(`(${sets.map((set) => holds(set, param)).join(' OR ')})`);
    }
    const candidates = [`(${containments.map((grams) => holds(grams, param)).join(' OR ')})`, ...apart].join(' AND ');
    // Checked row by row (they imply the grams above, which only the index should test: a row's
    // keys are an array of 200 or so, slow to search row by row).
    const conditions = [
      ...typoWords.map((word) => holdsSkeleton(word, param)),
      // Words that are not corrected must match exactly; the corrected ones not all exactly
      // (when the exact search found nothing, none does).
      ...exactScores.filter((_, i) => !isTypoCandidate(words[i]!)).map((score) => `(${score}) > 0`),
      ...(someExact ? [`NOT (${exactScores.map((score) => `(${score}) > 0`).join(' AND ')})`] : []),
    ].join(' AND ');
    // The exact score of each word, in SQL only for the words the fetched keys cannot score
    // (a match in the description); otherwise from the keys here.
    const sqlScores = exactScores.map((score, i) => (someExact || !isTypoCandidate(words[i]!) ? score : '0'));
    const columns = `schedule_id, to_char(date, 'YYYY-MM-DD') AS day, title_key, source_key, venue_key, members_key, ARRAY[${sqlScores.join(', ')}] AS scores`;
    // The newest MAX_TYPO_CANDIDATES candidates: a dense set (a typo of 대학, of a member's name) is
    // walked along the date index, a rare one read from the GIN index and sorted. How dense: at most
    // the share of documents holding the rarest skeleton bigram of a corrected word (the larger of
    // its two skeletons': a text with a compound vowel holds both, so a sum would count it twice),
    // or the `wordDensity` of another word (gram statistics, no round trip). That bound is the
    // share itself for one word of two syllables (one bigram a skeleton); otherwise, when it allows
    // a walk, the matches are counted among the sampled documents (`sampledTypoShare`), or without
    // a sample among the newest TYPO_PROBE_ROWS documents (a round trip before the read): a
    // skeleton's bigrams can each be common and the skeleton rare (어이도: 이도 in 8.6% of the
    // benchmark's documents, the skeleton in 3.1%, walked 10,000 rows), and words are not
    // independent (fromis_9 and 축하공연 are each in a third of the documents and together in none).
    const skeletonDensity = (word: string) =>
      Math.max(...typoGramSets(word).map((set) => Math.min(1, ...set.map((gram) => statistics.frequency(gramKey(gram))))));
    const bound = Math.min(...words.map((word) => (isTypoCandidate(word) ? skeletonDensity(word) : wordDensity(word, statistics))));
    const exactBound = words.length === 1 && typoGramSets(words[0]!).every((set) => set.length === 1);
    const density = !walkWins(bound * tableRows, MAX_TYPO_CANDIDATES, tableRows) || exactBound
      ? bound
      : sampledTypoShare(words, someExact, statistics) ??
        (await this.db.one<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${newestRows(String(TYPO_PROBE_ROWS))} WHERE ${conditions}`,
          values,
        )).n / TYPO_PROBE_ROWS;
    if (!walkWins(density * tableRows, MAX_TYPO_CANDIDATES, tableRows)) {
      // A set estimated large is read from the newest TYPO_WINDOW_SLACK times the documents expected
      // to hold the candidates. A window sized on the bound is sized again on the sampled share:
      // the bound can be many times the share (a typo beside 프로미스나인), and a window holding fewer
      // than MAX_TYPO_CANDIDATES is followed by a read of the older rest, one statement more (9 of
      // 69 windows over the benchmark's typo queries, up to 17 ms for two; none sized on the sample).
      const windowOf = (share: number) => {
        const windowRows = share > 0 ? (TYPO_WINDOW_SLACK * MAX_TYPO_CANDIDATES) / share : tableRows;
        return windowWins(containments.length, windowRows, share * tableRows, tableRows) ? statistics.newestFrom(windowRows) : undefined;
      };
      let from = windowOf(density);
      if (from !== undefined && density === bound) {
        const sampled = sampledTypoShare(words, someExact, statistics);
        if (sampled !== undefined) from = windowOf(sampled);
      }
      return rankTypoMatches(words, await this.newestFirst<TypoCandidate>(columns, `${candidates} AND ${conditions}`, MAX_TYPO_CANDIDATES, values, from));
    }
    // The walk stops at COUNT_WALK_SLACK times the rows the estimate expected (an upper bound: a
    // skeleton's bigrams can each be common and the skeleton rare); the older rest is then read
    // from the GIN index.
    const walkLimit = Math.ceil((COUNT_WALK_SLACK * MAX_TYPO_CANDIDATES) / density);
    const [, walked = []] = await this.db.multi<TypoCandidate>(
      `${readSettings(true)}
       SELECT ${columns} FROM ${newestRows(param(walkLimit))} WHERE ${conditions} ORDER BY date DESC, schedule_id DESC LIMIT ${MAX_TYPO_CANDIDATES}`,
      values,
    );
    if (walked.length === MAX_TYPO_CANDIDATES) return rankTypoMatches(words, walked);
    // The walk's last row; none when the table is shorter than the walk (every candidate was seen).
    const boundary = await this.db.oneOrNone<{ date: string; id: number }>(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date, schedule_id AS id FROM search_documents ORDER BY date DESC, schedule_id DESC OFFSET ${walkLimit - 1} LIMIT 1`,
    );
    if (!boundary) return rankTypoMatches(words, walked);
    const older = `(date, schedule_id) < (${param(boundary.date)}::date, ${param(boundary.id)}::int)`;
    const rest = await this.newestFirst<TypoCandidate>(columns, `${candidates} AND ${conditions} AND ${older}`, MAX_TYPO_CANDIDATES - walked.length, values);
    return rankTypoMatches(words, [...walked, ...rest]);
  }

  async close(): Promise<void> {}
}

/** A typo candidate's keys and the exact score of each query word computed in SQL (`typoMatches`). */
type TypoCandidate = { schedule_id: number; day: string; title_key: string; source_key: string; venue_key: string; members_key: string; scores: number[] };

/** The fields a typo search ranks a candidate's words by, best first: each one's typo and exact tiers. */
const TYPO_FIELDS = [
  { column: 'title_key', typo: TYPO_TIER.title, exact: TIER.title },
  { column: 'source_key', typo: TYPO_TIER.source, exact: TIER.source },
  { column: 'venue_key', typo: TYPO_TIER.venue, exact: TIER.venue },
  { column: 'members_key', typo: TYPO_TIER.members, exact: TIER.members },
] as const;

/**
 * Typo candidates ranked: per word the exact field tier (from the SQL scores or the keys) or else
 * the typo tier of the best field it is within one jamo edit of, then newer first; a candidate with
 * a word matching neither way is dropped. Nothing is allocated per candidate but its field
 * skeletons: ranking 300 candidates was the largest share of a typo query's JavaScript (1.3 ms of
 * 7 on the benchmark's typo queries, a third of it creating closures and tuples per row).
 */
function rankTypoMatches(words: string[], rows: TypoCandidate[]): number[] {
  const ranked: { id: number; date: string; score: number }[] = [];
  const wordSkeletons = words.map((word) => (isTypoCandidate(word) ? typoSkeletons(word) : undefined));
  // Each field's typo skeletons, computed once a row when a word first needs them.
  const fieldSkeletons: (string[] | undefined)[] = [];
  for (const row of rows) {
    fieldSkeletons.length = 0;
    let score = 0;
    for (let i = 0; i < words.length && score >= 0; i++) {
      const tier = Number(row.scores[i] ?? 0) || typoWordTier(row, words[i]!, wordSkeletons[i], fieldSkeletons);
      score = tier > 0 ? score + tier : -1;
    }
    if (score >= 0) ranked.push({ id: row.schedule_id, date: row.day, score });
  }
  ranked.sort((a, b) => b.score - a.score || (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || b.id - a.id);
  return ranked.map((match) => match.id);
}

/**
 * A word's tier in a typo candidate, best field first: exact in a field, else within a typo of it
 * (`skeletons`, the word's, when it may be corrected); 0 when neither. `fieldSkeletons` holds the
 * fields' typo skeletons computed so far.
 */
function typoWordTier(row: TypoCandidate, word: string, skeletons: string[] | undefined, fieldSkeletons: (string[] | undefined)[]): number {
  for (const { column, exact } of TYPO_FIELDS) if (row[column].includes(word)) return exact;
  if (skeletons === undefined) return 0;
  for (let field = 0; field < TYPO_FIELDS.length; field++) {
    const { column, typo } = TYPO_FIELDS[field]!;
    if (matchesWithTypo(row[column], word, (fieldSkeletons[field] ??= typoSkeletons(row[column])), skeletons)) return typo;
  }
  return 0;
}
