// The embedded search engine, in PostgreSQL. Each document keeps normalised, space-free keys per
// field, the initial consonants, and the set of character bigrams (GIN-indexed): a query word of
// two or more characters first narrows the candidates to documents holding all of its bigrams,
// then is checked as a substring of a field, so "외대" finds "한국외대", "프로미스나인콘서트"
// finds "프로미스나인 콘서트", and "ㅍㄹㅁ" finds "프로미스나인". Ranking: title > source > members
// > description per matched word, then the most recent date.
import { bigramsOfNormalized, choseongOfNormalized, isChoseongQuery } from '../korean/jamo.ts';
import { normalizeText } from '../korean/normalize.ts';
import type { Db, Queryable } from '../db/database.ts';
import type { SearchDocument, SearchIndex, SearchPage } from './search-index.ts';

const MAX_QUERY_WORDS = 8;
const INDEX_WRITE_LOCK = 7_281_010;
const MAX_WORD_LENGTH = 40;
const MAX_DESCRIPTION_CHARS = 1000;
const COLUMNS = 'schedule_id, category_id, date, title_key, source_key, members_key, description_key, choseong_key, grams';

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
  members_key: string;
  description_key: string;
  choseong_key: string;
  grams: string[];
}

export function documentRow(document: SearchDocument): DocumentRow {
  const title = spaceless(document.title);
  const sources = document.sourceNames.map(spaceless).filter(Boolean);
  const members = document.memberNames.map(spaceless).filter(Boolean);
  const description = spaceless(document.description.slice(0, MAX_DESCRIPTION_CHARS));
  const grams = new Set<string>();
  const choseongs: string[] = [];
  // Bigrams never cross from one name to the next: each key part is its own run of characters.
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
    members_key: members.join('|'),
    description_key: description,
    choseong_key: choseongs.join('|'),
    grams: [...grams],
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
           source_key = EXCLUDED.source_key, members_key = EXCLUDED.members_key, description_key = EXCLUDED.description_key,
           choseong_key = EXCLUDED.choseong_key, grams = EXCLUDED.grams, indexed_at = now()`,
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

  async search(query: string, page: { offset: number; limit: number }): Promise<SearchPage> {
    const words = [...new Set((await this.analyze(query)).map((word) => word.replace(/ /g, '').slice(0, MAX_WORD_LENGTH)).filter(Boolean))].slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) return { ids: [], total: 0 };
    const values: unknown[] = [];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    const grams = new Set<string>();
    // One score per word: the best field it is a substring of (0 when none), each LIKE evaluated
    // at most once per candidate.
    const scores: string[] = [];
    for (const word of words) {
      if ([...word].length >= 2) bigramsOfNormalized(word).forEach((gram) => grams.add(gram));
      else grams.add(word);
      const pattern = param(`%${likeEscape(word)}%`);
      scores.push(
        isChoseongQuery(word)
          ? `CASE WHEN title_key LIKE ${pattern} THEN 8 WHEN choseong_key LIKE ${pattern} THEN 4 ELSE 0 END`
          : `CASE WHEN title_key LIKE ${pattern} THEN 8 WHEN source_key LIKE ${pattern} THEN 4 WHEN members_key LIKE ${pattern} THEN 2 WHEN description_key LIKE ${pattern} THEN 1 ELSE 0 END`,
      );
    }
    const candidates = grams.size > 0 ? `WHERE grams @> ${param([...grams])}::text[]` : '';
    // The scores are computed under a fence (OFFSET 0): the window that counts the matches and the
    // sort then carry (id, date, scores) only, not the text keys, and stay in memory.
    const matches = `SELECT schedule_id, date, ${scores.map((score, i) => `${score} AS s${i}`).join(', ')}
        FROM search_documents ${candidates} OFFSET 0`;
    const matched = scores.map((_, i) => `s${i} > 0`).join(' AND ');
    const [, rows = []] = await this.db.multi<{ schedule_id: number; total: number }>(
      `${BITMAP_ONLY}
       SELECT schedule_id, count(*) OVER ()::int AS total FROM (${matches}) m
        WHERE ${matched}
        ORDER BY ${scores.map((_, i) => `s${i}`).join(' + ')} DESC, date DESC, schedule_id DESC
        OFFSET ${param(page.offset)} LIMIT ${param(page.limit)}`,
      values,
    );
    if (rows.length === 0 && page.offset > 0) {
      const [, counted = []] = await this.db.multi<{ n: number }>(`${BITMAP_ONLY} SELECT count(*)::int AS n FROM (${matches}) m WHERE ${matched}`, values.slice(0, -2));
      return { ids: [], total: counted[0]?.n ?? 0 };
    }
    return { ids: rows.map((row) => row.schedule_id), total: rows[0]?.total ?? 0 };
  }

  async close(): Promise<void> {}
}
