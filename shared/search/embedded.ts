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
// This file holds the reads (`EmbeddedSearchIndex`); beside it: the document keys and tiers
// (embedded-keys.ts), the writes and rebuild (embedded-writes.ts), the read plans and their costs
// (embedded-plan.ts), the sampled estimates (embedded-sampling.ts), the typo ranking
// (embedded-typo-ranking.ts) and the query words both engines share (query-words.ts).
import { createHash } from 'node:crypto';
import { isTypoCandidate } from '../korean/typo.ts';
import { executePrepared, type Db } from '../db/database.ts';
import { searchAsFansType, type WordSearchEngine } from './fan-typing.ts';
import { defaultSynonyms, type SynonymSource } from './synonym-source.ts';
import { GramFrequencies, type GramStatistics } from './gram-frequencies.ts';
import { SEARCH_TOTAL_CAP, type SearchDocument, type SearchIndex, type SearchPage } from './search-index.ts';
import {
  BITMAP_ONLY, COUNT_WALK_SLACK, DRIVER_MIN_KEYS, GRAM_STATS_MAX_AGE_MS, LEVEL_WINDOW_SLACK, MAX_LEVEL_WORDS, MAX_PREPARED_SHAPES,
  MAX_PREPARED_WORDS, MAX_TYPO_CANDIDATES, MAX_TYPO_CONTAINMENTS, NEAR_CAP_ESTIMATE, OLDER_THAN_WINDOW, RARE_WORD_ROWS, SCORED_NEAR_CAP,
  TYPO_WINDOW_SLACK, askedGrams, combinations, containmentKeys, newestInWindow, newestRows, parameters, readSettings, surelyCapped,
  walkWins, windowWins, wordDensity,
} from './embedded-plan.ts';
import { FIELD_COLUMN, type Field, STRONG_SCORE, TIER, contains, fieldsOf, gramKey, holds, holdsSkeleton, lacks, typoGramSets } from './embedded-keys.ts';
import { type QueryAnalyzer, plainQueryWords, queryWords, rewritesOf, understoodBy } from './query-words.ts';
import { understandQuery, withTitleSpellings } from '../korean/query-understanding.ts';
import { countedWeights, sampledWeights, searchOnDate } from './embedded-understanding.ts';
import { TYPO_PROBE_ROWS, sampledMatches, sampledPresent, sampledShare, sampledTypoShare } from './embedded-sampling.ts';
import { type TypoCandidate, rankTypoMatches } from './embedded-typo-ranking.ts';
import { EmbeddedIndexWrites } from './embedded-writes.ts';

export { SEARCH_TOTAL_CAP };
export { DOCUMENT_FORMAT, documentRow } from './embedded-writes.ts';
export { gramKey, TIER, TYPO_TIER } from './embedded-keys.ts';
export { sampledMatches, type SampledMatches } from './embedded-sampling.ts';
export { plainQueryWords, queryWords, rewritesOf, understoodBy, type QueryAnalyzer } from './query-words.ts';

export class EmbeddedSearchIndex implements SearchIndex {
  readonly engine = 'embedded' as const;

  private readonly gramFrequencies: GramFrequencies;
  /** The index's writes (upserts, removals, the rebuild); they share the gram frequencies a rebuild invalidates. */
  private readonly writes: EmbeddedIndexWrites;
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
    this.writes = new EmbeddedIndexWrites(db, this.gramFrequencies);
  }

  upsert(documents: SearchDocument[]): Promise<void> {
    return this.writes.upsert(documents);
  }

  remove(scheduleIds: number[]): Promise<void> {
    return this.writes.remove(scheduleIds);
  }

  rebuild(documents: SearchDocument[]): Promise<number> {
    return this.writes.rebuild(documents);
  }

  count(): Promise<number> {
    return this.writes.count();
  }

  /** Rebuilds the index from `loadDocuments` when rows of an older document format remain (after a migration). */
  ensureCurrentFormat(loadDocuments: () => Promise<SearchDocument[]>): Promise<boolean> {
    return this.writes.ensureCurrentFormat(loadDocuments);
  }

  async search(query: string, page: { offset: number; limit: number }): Promise<SearchPage> {
    const read = understandQuery(query);
    // The words as typed are the text in the title's spellings (before the analyser splits them).
    const understood = { ...read, text: withTitleSpellings(read.text, (await this.synonyms.table()).spellings) };
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
