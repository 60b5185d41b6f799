// What the embedded engine adds for the query-understanding step (shared/korean/query-understanding.ts):
// the words' weights, estimated from the sampled documents, and the search of a date a query names.
import type { QueryDate } from '../korean/query-dates.ts';
import { isChoseongQuery } from '../korean/jamo.ts';
import type { Queryable } from '../db/database.ts';
import type { GramStatistics } from './gram-frequencies.ts';
import type { SearchPage } from './search-index.ts';
import type { WordWeights } from './fan-typing.ts';

/**
 * A member's name weighs this much of its share: on a group's site a member is the most specific
 * signal (an event kind is left out before a member, whose name is in many titles and most members
 * fields).
 */
const MEMBER_WEIGHT = 0.1;

/**
 * Per word: the share of the sampled documents naming it (in the title, a source or the venue; for
 * initials, the title or initials), times MEMBER_WEIGHT for a member's name (a word some sampled
 * document holds among its members); undefined without a sample.
 */
export function sampledWeights(words: string[], statistics: GramStatistics): WordWeights | undefined {
  const sample = statistics.sample;
  if (sample.length === 0) return undefined;
  const shares = words.map((word) => {
    let named = 0;
    let member = false;
    const choseong = isChoseongQuery(word);
    for (const document of sample) {
      if (!document.keys.includes(word)) continue;
      if (choseong ? document.title.includes(word) || document.choseong.includes(word) : document.title.includes(word) || document.source.includes(word) || document.venue.includes(word)) named++;
      if (!choseong && document.members.includes(word)) member = true;
    }
    return (named / sample.length) * (member ? MEMBER_WEIGHT : 1);
  });
  return { shares, documents: Math.max(statistics.rows, sample.length) };
}

/** Documents read to weigh words when no sample was read yet (a table never analysed: new, or just rebuilt). */
const COUNTED_WEIGHT_ROWS = 2_000;

/** `sampledWeights` counted on at most COUNTED_WEIGHT_ROWS documents, for an index without a sample. */
export async function countedWeights(db: Queryable, words: string[]): Promise<WordWeights | undefined> {
  if (words.length === 0) return undefined;
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const named = (column: string, word: string) => `strpos(${column}, ${word}) > 0`;
  const columns = words.map((word, i) => {
    const text = param(word);
    const strong = isChoseongQuery(word)
      ? `${named('title_key', text)} OR ${named('choseong_key', text)}`
      : `${named('title_key', text)} OR ${named('source_key', text)} OR ${named('venue_key', text)}`;
    return `sum(CASE WHEN ${strong} THEN 1 ELSE 0 END)::float8 AS w${i}, bool_or(${named('members_key', text)}) AS m${i}`;
  });
  const row = await db.one<Record<string, number | boolean> & { n: number }>(
    `SELECT count(*)::int AS n, ${columns.join(', ')} FROM (SELECT * FROM search_documents LIMIT ${COUNTED_WEIGHT_ROWS}) d`,
    values,
  );
  const shares = words.map((_, i) => (Number(row[`w${i}`] ?? 0) / Math.max(1, row.n)) * (row[`m${i}`] ? MEMBER_WEIGHT : 1));
  return row.n > 0 ? { shares, documents: row.n } : undefined;
}

/** Documents of one date read at most (a day of any month is a 30th of the documents; every one is scored). */
const MAX_DATE_ROWS = 5_000;

/**
 * The documents of `date`, ranked by how many words they match (a word by the best of its forms),
 * then by their score, then newest first; `scoreOf` is the engine's SQL score of one word form.
 */
export async function searchOnDate(
  db: Queryable,
  forms: string[][],
  date: QueryDate,
  page: { offset: number; limit: number },
  scoreOf: (word: string, param: (value: unknown) => string) => string,
): Promise<SearchPage & { missing?: number[] }> {
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const conditions: string[] = [];
  if (date.year !== undefined && date.month !== undefined && date.day !== undefined) {
    conditions.push(`date = ${param(`${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`)}::date`);
  } else {
    // The days named, listed between the oldest and newest documents (or the year's bounds): the
    // date index finds their documents (a day of any month filtered row by row read all 50,000 of
    // the benchmark's documents).
    const from = date.year !== undefined ? `make_date(${param(date.year)}::int, 1, 1)` : '(SELECT min(date) FROM search_documents)';
    const to = date.year !== undefined ? `make_date(${param(date.year)}::int, 12, 31)` : '(SELECT max(date) FROM search_documents)';
    const days: string[] = [];
    if (date.month !== undefined) days.push(`extract(month FROM d) = ${param(date.month)}`);
    if (date.day !== undefined) days.push(`extract(day FROM d) = ${param(date.day)}`);
    conditions.push(`date = ANY (ARRAY(SELECT d::date FROM generate_series(${from}, ${to}, interval '1 day') AS d${days.length > 0 ? ` WHERE ${days.join(' AND ')}` : ''}))`);
  }
  const scores = forms.map((alternatives) => {
    const each = alternatives.map((form) => scoreOf(form, param));
    return each.length === 1 ? each[0]! : `GREATEST(${each.join(', ')})`;
  });
  const columns = scores.map((score, i) => `${score} AS s${i}`);
  const hits = scores.length > 0 ? scores.map((_, i) => `(s${i} > 0)::int`).join(' + ') : '0';
  const sum = scores.length > 0 ? scores.map((_, i) => `s${i}`).join(' + ') : '0';
  const sql = `
    WITH d AS (SELECT schedule_id, date${columns.map((column) => `, ${column}`).join('')}
                 FROM search_documents WHERE ${conditions.join(' AND ')}
                ORDER BY date DESC, schedule_id DESC LIMIT ${MAX_DATE_ROWS}),
         m AS (SELECT * FROM d WHERE ${scores.length > 0 ? `${hits} > 0` : 'true'})
    SELECT c.total, p.* FROM (SELECT count(*)::int AS total FROM m) c
      LEFT JOIN LATERAL (SELECT schedule_id${scores.map((_, i) => `, s${i}`).join('')} FROM m
                          ORDER BY ${scores.length > 0 ? `${hits} DESC, ${sum} DESC, ` : ''}date DESC, schedule_id DESC
                          LIMIT ${param(page.limit)} OFFSET ${param(page.offset)}) p ON true`;
  type Row = { schedule_id: number | null; total: number } & Record<string, number>;
  const raw = await db.any<Row>(sql, values);
  const total = raw[0]?.total ?? 0;
  const rows = raw.filter((row) => row.schedule_id !== null);
  const first = rows[0];
  const missing = first && page.offset === 0 ? forms.map((_, i) => i).filter((i) => !(Number(first[`s${i}`]) > 0)) : [];
  return { ids: rows.map((row) => row.schedule_id!), total, ...(missing.length > 0 ? { missing } : {}) };
}
