// The embedded search engine, in PostgreSQL. Each document keeps normalised, space-free keys per
// field, the initial consonants, and the set of character bigrams (GIN-indexed): a query word of
// two or more characters first narrows the candidates to documents holding all of its bigrams,
// then is checked as a substring of a field, so "외대" finds "한국외대", "프로미스나인콘서트"
// finds "프로미스나인 콘서트", and "ㅍㄹㅁ" finds "프로미스나인". Ranking: title > source > venue
// > members > description per matched word, then the most recent date.
// Typos: when no exact match has every word outside the description (nothing, or only weak
// matches), Hangul words of two or more syllables are also matched within one jamo edit
// (shared/korean/typo.ts): candidates hold the word's skeleton bigrams (`typo_grams`, GIN) and its
// skeleton as a substring of `typo_key`; the edit is then counted here. Those matches come after
// every exact match, ranked by the same field order.
import { bigramsOfNormalized, choseongOfNormalized, isChoseongQuery } from '../korean/jamo.ts';
import { normalizeText } from '../korean/normalize.ts';
import { isTypoCandidate, matchesWithTypo, skeletonBigrams, typoSkeleton } from '../korean/typo.ts';
import type { Db, Queryable } from '../db/database.ts';
import type { SearchDocument, SearchIndex, SearchPage } from './search-index.ts';

const MAX_QUERY_WORDS = 8;
const INDEX_WRITE_LOCK = 7_281_010;
const MAX_WORD_LENGTH = 40;
const MAX_DESCRIPTION_CHARS = 1000;
const COLUMNS = 'schedule_id, category_id, date, title_key, source_key, venue_key, members_key, description_key, choseong_key, grams, typo_key, typo_grams, format';
/** Rows of an older format miss keys this code reads: `ensureCurrentFormat` rebuilds them. */
export const DOCUMENT_FORMAT = 2;
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

const spaceless = (text: string) => normalizeText(text).replace(/ /g, '');
// A common bigram (`학교`, `ㅇㅅ`) makes the planner pick a sequential scan that evaluates
// `grams @>` on every row (~3 µs each, 150 ms at 50,000 documents); the GIN bitmap answers the
// same containment exactly, with no recheck. Sent with the query as one simple-protocol message,
// the setting lasts for that implicit transaction only.
const BITMAP_ONLY = 'SET LOCAL enable_seqscan = off;';

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
  grams: string[];
  typo_key: string;
  typo_grams: string[];
  format: number;
}

export function documentRow(document: SearchDocument): DocumentRow {
  const title = spaceless(document.title);
  const sources = document.sourceNames.map(spaceless).filter(Boolean);
  const members = document.memberNames.map(spaceless).filter(Boolean);
  const venues = (document.venueNames ?? []).map(spaceless).filter(Boolean);
  const description = spaceless(document.description.slice(0, MAX_DESCRIPTION_CHARS));
  const grams = new Set<string>();
  const choseongs: string[] = [];
  // Bigrams never cross from one name to the next: each key part is its own run of characters.
  const typoGrams = new Set<string>();
  for (const part of [title, ...sources, ...venues, ...members]) for (const gram of skeletonBigrams(part)) typoGrams.add(gram);
  for (const part of venues) {
    for (const gram of bigramsOfNormalized(part)) grams.add(gram);
    for (const char of part) grams.add(char);
  }
  for (const part of [title, ...sources, ...members]) {
    for (const gram of bigramsOfNormalized(part)) grams.add(gram);
    // Single characters too, so a one-character word (a nickname like 챙) is found through the index.
    for (const char of part) grams.add(char);
    const initials = choseongOfNormalized(part);
    choseongs.push(initials);
    for (const gram of bigramsOfNormalized(initials)) grams.add(gram);
    for (const char of initials) grams.add(char);
  }
  for (const gram of bigramsOfNormalized(description)) grams.add(gram);
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
    grams: [...grams],
    typo_key: [title, ...sources, ...venues, ...members].map(typoSkeleton).join('|'),
    typo_grams: [...typoGrams],
    format: DOCUMENT_FORMAT,
  };
}

const likeEscape = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Query words as the index sees them; `analyze` may strip particles and split unspaced input. */
export type QueryAnalyzer = (query: string) => Promise<string[]> | string[];

export const plainQueryWords: QueryAnalyzer = (query) =>
  normalizeText(query)
    .split(' ')
    .filter(Boolean);

export class EmbeddedSearchIndex implements SearchIndex {
  readonly engine = 'embedded' as const;

  constructor(
    private readonly db: Db,
    private readonly analyze: QueryAnalyzer = plainQueryWords,
  ) {}

  private async write(db: Queryable, documents: SearchDocument[]): Promise<void> {
    // Rows in id order: concurrent writers lock them in one order and cannot deadlock each other.
    const sorted = [...documents].sort((a, b) => a.scheduleId - b.scheduleId);
    for (let i = 0; i < sorted.length; i += 500) {
      const rows = sorted.slice(i, i + 500).map(documentRow);
      await db.none(
        `INSERT INTO search_documents (${COLUMNS})
         SELECT ${COLUMNS} FROM json_populate_recordset(null::search_documents, $1::json)
         ON CONFLICT (schedule_id) DO UPDATE SET
           category_id = EXCLUDED.category_id, date = EXCLUDED.date, title_key = EXCLUDED.title_key,
           source_key = EXCLUDED.source_key, venue_key = EXCLUDED.venue_key, members_key = EXCLUDED.members_key, description_key = EXCLUDED.description_key,
           choseong_key = EXCLUDED.choseong_key, grams = EXCLUDED.grams, typo_key = EXCLUDED.typo_key,
           typo_grams = EXCLUDED.typo_grams, format = EXCLUDED.format, indexed_at = now()`,
        [JSON.stringify(rows)],
      );
    }
  }

  // Writers share a lock that a rebuild takes alone: a rebuild (which deletes every row) and an
  // upsert would otherwise each hold rows the other needs.
  async upsert(documents: SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    await this.db.tx('search-upsert', async (tx) => {
      await tx.any('SELECT pg_advisory_xact_lock_shared($1)', [INDEX_WRITE_LOCK]);
      await this.write(tx, documents);
    });
  }

  async remove(scheduleIds: number[]): Promise<void> {
    if (scheduleIds.length === 0) return;
    await this.db.tx('search-remove', async (tx) => {
      await tx.any('SELECT pg_advisory_xact_lock_shared($1)', [INDEX_WRITE_LOCK]);
      await tx.none('DELETE FROM search_documents WHERE schedule_id = ANY($1::int[])', [[...scheduleIds].sort((a, b) => a - b)]);
    });
  }

  async rebuild(documents: SearchDocument[]): Promise<number> {
    // One transaction: readers keep seeing the old index until the new one commits whole.
    await this.db.tx('search-rebuild', async (tx) => {
      await tx.any('SELECT pg_advisory_xact_lock($1)', [INDEX_WRITE_LOCK]);
      await tx.none('DELETE FROM search_documents');
      await this.write(tx, documents);
    });
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
    const words = [...new Set((await this.analyze(query)).map((word) => word.replace(/ /g, '').slice(0, MAX_WORD_LENGTH)).filter(Boolean))].slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) return { ids: [], total: 0 };
    const exact = await this.exactSearch(words, page);
    if (exact.strong || !words.some(isTypoCandidate)) return { ids: exact.ids, total: exact.total };
    // Nothing matched well: matches within one jamo edit follow the exact ones.
    const typos = await this.typoMatches(words, exact.total > 0);
    if (typos.length === 0) return { ids: exact.ids, total: exact.total };
    const from = Math.max(0, page.offset - exact.total);
    const room = page.limit - exact.ids.length;
    const ids = room > 0 && page.offset + page.limit > exact.total ? [...exact.ids, ...typos.slice(from, from + room)] : exact.ids;
    return { ids, total: exact.total + typos.length };
  }

  /** One LIKE pattern per word, and a SQL score per word (0 when the word matches no field). */
  private exactScores(words: string[], param: (value: unknown) => string): string[] {
    return words.map((word) => {
      const pattern = param(`%${likeEscape(word)}%`);
      return isChoseongQuery(word)
        ? `CASE WHEN title_key LIKE ${pattern} THEN ${TIER.title} WHEN choseong_key LIKE ${pattern} THEN ${TIER.choseong} ELSE 0 END`
        : `CASE WHEN title_key LIKE ${pattern} THEN ${TIER.title} WHEN source_key LIKE ${pattern} THEN ${TIER.source} WHEN venue_key LIKE ${pattern} THEN ${TIER.venue}
                WHEN members_key LIKE ${pattern} THEN ${TIER.members} WHEN description_key LIKE ${pattern} THEN ${TIER.description} ELSE 0 END`;
    });
  }

  private static exactGrams(words: string[]): Set<string> {
    const grams = new Set<string>();
    for (const word of words) {
      if ([...word].length >= 2) bigramsOfNormalized(word).forEach((gram) => grams.add(gram));
      else grams.add(word);
    }
    return grams;
  }

  /**
   * Exact matches: every word a substring of a field. `strong` when one of them has every word
   * outside the description (a good answer: no typo search).
   */
  private async exactSearch(words: string[], page: { offset: number; limit: number }): Promise<SearchPage & { strong: boolean }> {
    const values: unknown[] = [];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    const grams = EmbeddedSearchIndex.exactGrams(words);
    // One score per word: the best field it is a substring of (0 when none), each LIKE evaluated
    // at most once per candidate.
    const scores = this.exactScores(words, param);
    const candidates = grams.size > 0 ? `WHERE grams @> ${param([...grams])}::text[]` : '';
    // The scores are computed under a fence (OFFSET 0): the window that counts the matches and the
    // sort then carry (id, date, scores) only, not the text keys, and stay in memory.
    const matches = `SELECT schedule_id, date, ${scores.map((score, i) => `${score} AS s${i}`).join(', ')}
        FROM search_documents ${candidates} OFFSET 0`;
    const matched = scores.map((_, i) => `s${i} > 0`).join(' AND ');
    const strong = `bool_or(${scores.map((_, i) => `s${i} >= ${STRONG_SCORE}`).join(' AND ')})`;
    const [, rows = []] = await this.db.multi<{ schedule_id: number; total: number; strong: boolean }>(
      `${BITMAP_ONLY}
       SELECT schedule_id, count(*) OVER ()::int AS total, ${strong} OVER () AS strong FROM (${matches}) m
        WHERE ${matched}
        ORDER BY ${scores.map((_, i) => `s${i}`).join(' + ')} DESC, date DESC, schedule_id DESC
        OFFSET ${param(page.offset)} LIMIT ${param(page.limit)}`,
      values,
    );
    if (rows.length === 0 && page.offset > 0) {
      const [, counted = []] = await this.db.multi<{ n: number; strong: boolean | null }>(
        `${BITMAP_ONLY} SELECT count(*)::int AS n, ${strong} AS strong FROM (${matches}) m WHERE ${matched}`,
        values.slice(0, -2),
      );
      return { ids: [], total: counted[0]?.n ?? 0, strong: counted[0]?.strong ?? false };
    }
    return { ids: rows.map((row) => row.schedule_id), total: rows[0]?.total ?? 0, strong: rows[0]?.strong ?? false };
  }

  /**
   * Documents that match every word, some of them only within one jamo edit (none that match
   * every word exactly: those are the exact search's), best first: per word the exact field tier
   * or else the typo tier of the best field it is within one edit of, then newer first.
   */
  private async typoMatches(words: string[], someExact: boolean): Promise<number[]> {
    const values: unknown[] = [];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    const typoWords = words.filter(isTypoCandidate);
    const otherWords = words.filter((word) => !isTypoCandidate(word));
    const typoGrams = new Set<string>();
    for (const word of typoWords) for (const gram of skeletonBigrams(word)) typoGrams.add(gram);
    const grams = EmbeddedSearchIndex.exactGrams(otherWords);
    const exactScores = this.exactScores(words, param);
    const conditions = [
      `typo_grams @> ${param([...typoGrams])}::text[]`,
      ...(grams.size > 0 ? [`grams @> ${param([...grams])}::text[]`] : []),
      ...typoWords.map((word) => `typo_key LIKE ${param(`%${likeEscape(typoSkeleton(word))}%`)}`),
      // Words that are not corrected must match exactly; the corrected ones not all exactly
      // (when the exact search found nothing, none does).
      ...exactScores.filter((_, i) => !isTypoCandidate(words[i]!)).map((score) => `(${score}) > 0`),
      ...(someExact ? [`NOT (${exactScores.map((score) => `(${score}) > 0`).join(' AND ')})`] : []),
    ];
    // The exact score of each word, in SQL only for the words the fetched keys cannot score
    // (a match in the description); otherwise from the keys here.
    const sqlScores = exactScores.map((score, i) => (someExact || !isTypoCandidate(words[i]!) ? score : '0'));
    const [, rows = []] = await this.db.multi<{ schedule_id: number; day: string; title_key: string; source_key: string; venue_key: string; members_key: string; scores: number[] }>(
      `${BITMAP_ONLY}
       SELECT schedule_id, to_char(date, 'YYYY-MM-DD') AS day, title_key, source_key, venue_key, members_key,
              ARRAY[${sqlScores.join(', ')}] AS scores
         FROM search_documents
        WHERE ${conditions.join(' AND ')}
        ORDER BY date DESC, schedule_id DESC
        LIMIT ${MAX_TYPO_CANDIDATES}`,
      values,
    );
    const ranked: { id: number; date: string; score: number }[] = [];
    for (const row of rows) {
      const fields = [
        [row.title_key, TYPO_TIER.title, TIER.title],
        [row.source_key, TYPO_TIER.source, TIER.source],
        [row.venue_key, TYPO_TIER.venue, TIER.venue],
        [row.members_key, TYPO_TIER.members, TIER.members],
      ] as const;
      let score = 0;
      let matchedAll = true;
      for (const [i, word] of words.entries()) {
        const exactScore = Number(row.scores[i] ?? 0) || (fields.find(([text]) => text.includes(word))?.[2] ?? 0);
        if (exactScore > 0) {
          score += exactScore;
          continue;
        }
        const wordSkeleton = typoSkeleton(word);
        const tier = isTypoCandidate(word) ? fields.find(([text]) => matchesWithTypo(text, word, typoSkeleton(text), wordSkeleton))?.[1] : undefined;
        if (tier === undefined) {
          matchedAll = false;
          break;
        }
        score += tier;
      }
      if (matchedAll) ranked.push({ id: row.schedule_id, date: row.day, score });
    }
    ranked.sort((a, b) => b.score - a.score || (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || b.id - a.id);
    return ranked.map((match) => match.id);
  }

  async close(): Promise<void> {}
}
