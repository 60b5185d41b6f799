// Piscina worker: Korean analysis and suggestions off the edge's event loop (a mistyped query's
// correction comes first among its suggestions: shared/korean/suggestion-index.ts). Each thread keeps its
// own analyser and suggestion index, loaded from PostgreSQL and kept current incrementally: a task
// carries the versions the caller has seen (dictionary, saved searches, schedule titles), and a
// thread that is behind catches up before it answers, so a dictionary PUT or a save is visible to
// the very next query, when the database answers in time. Saved searches enter the index only once
// enough addresses saved them, the most saved SAVED_IN_INDEX of them (shared/db/repositories/
// saved-searches.ts): what a thread holds does not grow with the table. While the database is away
// a thread that has its index answers from memory; a database error crosses back to the caller
// marked (DATABASE_UNAVAILABLE), so the edge answers 503, not 500.
import { workerData } from 'node:worker_threads';
import pgPromise from 'pg-promise';
import { DATABASE_UNAVAILABLE, databaseUnavailable } from '../shared/db/database.ts';
import { changedSuggestedSearches, SAVED_IN_INDEX, suggestedSearches, type SuggestedSearchRules } from '../shared/db/repositories/saved-searches.ts';
import { harvestTitleWords, KoreanAnalyzer } from '../shared/korean/analyzer.ts';
import { parseUserDictionary, type ParsedDictionary } from '../shared/korean/dictionary.ts';
import { normalizeText } from '../shared/korean/normalize.ts';
import { SuggestionIndex, type SuggestionCandidate } from '../shared/korean/suggestion-index.ts';
import { Lexicon, lexiconGroups } from '../shared/korean/lexicon.ts';
import { LatinVocabulary, latinWordsOf } from '../shared/korean/latin-vocabulary.ts';

export interface AnalysisVersions {
  /** user_dictionary.updated_at in epoch ms. */
  dictionary: number;
  /** Highest saved_searches.id known to the caller. */
  savedSearch: number;
  /** Time of the caller's last schedule write, epoch ms. */
  schedules: number;
  /** Newest blocked_searches.blocked_at known to the caller, epoch ms. */
  blocked: number;
}

export interface AnalysisWorkerData {
  databaseUrl: string;
  /** The edge's database bounds (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS). */
  timeouts: { connectMs: number; queryMs: number };
  savedSearches: SuggestedSearchRules;
}


export type AnalysisTask =
  | { op: 'suggest'; query: string; limit: number; versions: AnalysisVersions }
  | { op: 'tokens'; text: string; versions: AnalysisVersions }
  | { op: 'nearWords'; words: string[]; versions: AnalysisVersions }
  | { op: 'parseDictionary'; content: string };

const REFRESH_EVERY_MS = 5_000;
/** Change-log entries one refresh applies; a longer run (a bulk import) is a rebuild. */
const CHANGES_PER_REFRESH = 2_000;
const TITLE_COLUMNS = 'id, title, date::timestamptz AS date';

interface TitleRow {
  id: number;
  title: string;
  date: Date;
}
const FULL_REBUILD_EVERY_MS = 10 * 60_000;
/** Saved searches added between two builds, at most; the next build keeps the most saved SAVED_IN_INDEX. */
const SAVED_ADDED_MAX = SAVED_IN_INDEX;
/** New saves a refresh looks at, at most (the rest at the next one). */
const SAVED_REFRESH_BATCH = 10_000;
/**
 * How long an answer waits for a thread's refresh (new saves, titles, dictionary) before it is given
 * from what the thread holds: a slow or frozen database delays what is new, never the answer.
 */
const REFRESH_WAIT_MS = 1_000;

const data = workerData as AnalysisWorkerData;
const pgp = pgPromise({ noWarnings: true });
const db = pgp({
  connectionString: data.databaseUrl,
  max: 1,
  application_name: 'analysis-worker',
  connectionTimeoutMillis: data.timeouts.connectMs,
  query_timeout: data.timeouts.queryMs,
  statement_timeout: data.timeouts.queryMs,
});
// A connection lost while idle (the server restarted) is replaced at the next query.
db.$pool.on('error', () => undefined);

interface State {
  analyzer: KoreanAnalyzer;
  index: SuggestionIndex;
  dictionaryVersion: number;
  lastSavedId: number;
  /** The live change log's seq this thread has applied through (live_changes.seq). */
  changeSeq: number;
  /** Each schedule's title as the index holds it. */
  titleOf: Map<number, string>;
  /** Normalised title → schedules carrying it: a title leaves the index with the last of them. */
  titleHolders: Map<string, number>;
  /** The titles' Latin words, for a search's Latin slips (`practise` of `[Dance Practice]`). */
  latin: LatinVocabulary;
  /** Normalised texts that are candidates for another reason (names, the dictionary, venues, saves): never taken out with a title. */
  otherCandidates: Set<string>;
  refreshedAt: number;
  builtAt: number;
  /** Newest blocked_searches.blocked_at seen, epoch ms: a newer one rebuilds without the blocked query. */
  blockedVersion: number;
  /** Saved searches in the index (a refresh adds only their new saves). */
  savedInIndex: Set<string>;
  savedAdded: number;
  /** Queries that qualified after SAVED_ADDED_MAX were added: left out until the next build. */
  passedOver: Set<string>;
}

let state: State | null = null;
let loading: Promise<State> | null = null;
let refreshing: Promise<boolean> | null = null;

const ms = (date: Date | null) => (date ? date.getTime() : 0);

/** Words the analyser knows: the user dictionary, member names and nicknames, school names, title words. */
const harvest = harvestTitleWords;

async function build(): Promise<State> {
  // The change log's position first: a change committed while the rest is read is applied again
  // by the next refresh (applying one twice is harmless), never skipped.
  const { seq } = await db.one<{ seq: string }>('SELECT coalesce(max(seq), 0) AS seq FROM live_changes');
  const [dictionary, members, schools, titles, venues, saved] = await Promise.all([
    db.one<{ content: string; updated_at: Date }>('SELECT content, updated_at FROM user_dictionary WHERE id = 1'),
    db.any<{ name: string; name_en: string | null; nicknames: string[] }>('SELECT name, name_en, nicknames FROM members'),
    db.any<{ full_name: string; short_names: string[] }>('SELECT full_name, short_names FROM school_names'),
    db.any<TitleRow>(`SELECT ${TITLE_COLUMNS} FROM schedules`),
    db.any<{ name: string }>('SELECT DISTINCT v.name FROM venues v JOIN events e ON e.venue_id = v.id'),
    suggestedSearches(db, data.savedSearches, SAVED_IN_INDEX),
  ]);
  const analyzer = new KoreanAnalyzer(parseUserDictionary(dictionary.content).entries);
  const names = [
    ...members.flatMap((m) => [m.name, ...m.nicknames, ...(m.name_en ? [m.name_en] : [])]),
    ...schools.flatMap((s) => [s.full_name, ...s.short_names]),
  ];
  for (const word of names) analyzer.add({ word: normalizeText(word), tag: 'NNP' });
  harvest(analyzer, titles.map((t) => t.title));
  const others: SuggestionCandidate[] = [
    ...saved.rows.map((row) => ({ text: row.query, popularity: row.count, lastUsedAt: ms(row.last) })),
    ...parseUserDictionary(dictionary.content).entries.map((entry) => ({ text: entry.word, popularity: 0, lastUsedAt: 0 })),
    ...names.map((text) => ({ text, popularity: 0, lastUsedAt: 0 })),
    // Event venues are searched too: their names complete, and correct a mistyped place.
    ...venues.map((row) => ({ text: row.name, popularity: 0, lastUsedAt: 0 })),
  ];
  const candidates = [...others, ...titles.map((row) => ({ text: row.title, popularity: 0, lastUsedAt: ms(row.date) }))];
  const now = Date.now();
  const titleHolders = new Map<string, number>();
  const latin = new LatinVocabulary();
  for (const row of titles) {
    holdTitle(titleHolders, row.title);
    holdLatinWords(latin, row.title, 'add');
  }
  return {
    analyzer,
    index: new SuggestionIndex(candidates, { analyzer, lexicon: new Lexicon(lexiconGroups(dictionary.content.normalize('NFC'))) }),
    dictionaryVersion: ms(dictionary.updated_at),
    lastSavedId: saved.lastId,
    changeSeq: Number(seq),
    titleOf: new Map(titles.map((row) => [row.id, row.title])),
    titleHolders,
    latin,
    otherCandidates: new Set(others.map((candidate) => normalizeText(candidate.text))),
    refreshedAt: now,
    builtAt: now,
    blockedVersion: saved.blockedAt,
    savedInIndex: new Set(saved.rows.map((row) => row.query)),
    savedAdded: 0,
    passedOver: new Set(),
  };
}

/**
 * Saved searches that newly qualify and schedules changed since the last look, applied to the live
 * index; false when the dictionary changed, a query was blocked, or the change log cannot say what
 * changed (a reset, more changes than one look takes, entries pruned): rebuild.
 */
async function refresh(current: State): Promise<boolean> {
  const [dictionary, saved, changes] = await Promise.all([
    db.one<{ updated_at: Date }>('SELECT updated_at FROM user_dictionary WHERE id = 1'),
    changedSuggestedSearches(db, data.savedSearches, current.lastSavedId, SAVED_REFRESH_BATCH, [...current.savedInIndex, ...current.passedOver]),
    db.one<{ pruned: string; seq: string | null; ids: number[] | null; reset: boolean; count: number }>(
      `WITH fresh AS (SELECT seq, kind, target_id FROM live_changes WHERE seq > $1 ORDER BY seq LIMIT $2)
       SELECT (SELECT through FROM live_changes_pruned) AS pruned, (SELECT max(seq) FROM fresh) AS seq, count(*)::int AS count,
              array_agg(DISTINCT target_id) FILTER (WHERE kind NOT IN ('reset', 'birthday')) AS ids,
              coalesce(bool_or(kind = 'reset'), false) AS reset
         FROM fresh`,
      [current.changeSeq, CHANGES_PER_REFRESH],
    ),
  ]);
  if (saved.blockedAt > current.blockedVersion) return false;
  if (changes.reset || changes.count >= CHANGES_PER_REFRESH || Number(changes.pruned) > current.changeSeq) return false;
  const ids = changes.ids ?? [];
  const [titles, venues] = ids.length === 0 ? [[], []] : await Promise.all([
    db.any<TitleRow>(`SELECT ${TITLE_COLUMNS} FROM schedules WHERE id = ANY($1::int[])`, [ids]),
    db.any<{ name: string }>('SELECT DISTINCT v.name FROM venues v JOIN events e ON e.venue_id = v.id WHERE e.schedule_id = ANY($1::int[])', [ids]),
  ]);
  // Queries that qualify now, with their count over the window.
  for (const row of saved.rows) {
    if (current.savedAdded >= SAVED_ADDED_MAX) {
      current.passedOver.add(row.query);
      continue;
    }
    current.savedAdded++;
    current.index.add({ text: row.query, popularity: row.count, lastUsedAt: ms(row.last) });
    current.savedInIndex.add(row.query);
    current.otherCandidates.add(normalizeText(row.query));
  }
  // Queries the index holds: the index adds popularity up, so only their new saves.
  for (const row of saved.added) {
    if (current.savedInIndex.has(row.query)) current.index.add({ text: row.query, popularity: row.added, lastUsedAt: ms(row.last) });
  }
  current.lastSavedId = Math.max(current.lastSavedId, saved.lastId);
  applyTitles(current, ids, titles);
  for (const row of venues) {
    current.index.add({ text: row.name, popularity: 0, lastUsedAt: 0 });
    current.otherCandidates.add(normalizeText(row.name));
  }
  if (changes.seq !== null) current.changeSeq = Math.max(current.changeSeq, Number(changes.seq));
  current.refreshedAt = Date.now();
  return ms(dictionary.updated_at) === current.dictionaryVersion;
}

/** Each schedule's title holds its Latin words once. */
function holdLatinWords(latin: LatinVocabulary, title: string, change: 'add' | 'remove'): void {
  for (const word of latinWordsOf(normalizeText(title))) latin[change](word);
}

function holdTitle(holders: Map<string, number>, title: string): void {
  const key = normalizeText(title);
  holders.set(key, (holders.get(key) ?? 0) + 1);
}

/**
 * The schedules `ids` as they are now (`rows`; an id without a row was deleted): a new or renamed
 * title enters the index, and a title no schedule carries any more leaves it, unless it is a
 * candidate for another reason.
 */
function applyTitles(current: State, ids: number[], rows: TitleRow[]): void {
  const now = new Map(rows.map((row) => [row.id, row]));
  harvest(current.analyzer, rows.map((row) => row.title));
  for (const id of ids) {
    const before = current.titleOf.get(id);
    const row = now.get(id);
    if (row) current.index.add({ text: row.title, popularity: 0, lastUsedAt: ms(row.date) });
    if (before !== undefined && row && normalizeText(before) === normalizeText(row.title)) continue;
    if (before !== undefined) holdLatinWords(current.latin, before, 'remove');
    if (row) holdLatinWords(current.latin, row.title, 'add');
    if (row) {
      holdTitle(current.titleHolders, row.title);
      current.titleOf.set(id, row.title);
    } else current.titleOf.delete(id);
    if (before === undefined) continue;
    const key = normalizeText(before);
    const left = (current.titleHolders.get(key) ?? 1) - 1;
    if (left > 0) current.titleHolders.set(key, left);
    else {
      current.titleHolders.delete(key);
      if (!current.otherCandidates.has(key)) current.index.remove(before);
    }
  }
}

async function rebuild(): Promise<State> {
  loading ??= build().finally(() => {
    loading = null;
  });
  state = await loading;
  return state;
}

/** Catches up (a refresh, or a rebuild when it says so), once at a time. */
function catchUp(current: State): Promise<boolean> {
  refreshing ??= refresh(current)
    .then(async (fresh) => {
      if (!fresh) await rebuild(); // another replica changed the dictionary or blocked a query
      return true;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/**
 * The thread's state, caught up with what the caller has seen. Without one (the first task) it is
 * built, and a database error is the task's. With one, the wait for news is bounded: a slow or
 * failing database leaves the answer to what the thread holds.
 */
async function ready(versions: AnalysisVersions): Promise<State> {
  const now = Date.now();
  if (!state) return rebuild();
  // A dictionary newer than ours (a PUT seen by the caller), a query blocked, or the periodic full
  // rebuild, a repair of anything a refresh missed, which also keeps the most saved searches.
  const stale = versions.dictionary > state.dictionaryVersion || versions.blocked > state.blockedVersion || now - state.builtAt > FULL_REBUILD_EVERY_MS;
  const behind = versions.savedSearch > state.lastSavedId || versions.schedules > state.refreshedAt || now - state.refreshedAt > REFRESH_EVERY_MS;
  if (!stale && !behind) return state;
  const update = stale ? rebuild().then(() => true) : catchUp(state);
  const current = state;
  let timer: NodeJS.Timeout | undefined;
  const waited = await Promise.race([
    update.then(() => 'done' as const, () => 'failed' as const),
    new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), REFRESH_WAIT_MS))),
  ]);
  clearTimeout(timer);
  if (waited === 'late' || waited === 'failed') {
    // Looked at again no sooner than the usual interval: a database that is away is not asked on every task.
    current.refreshedAt = Date.now();
    if (stale) current.builtAt = Math.max(current.builtAt, Date.now() - FULL_REBUILD_EVERY_MS + REFRESH_EVERY_MS);
  }
  return state ?? current;
}

async function answer(task: AnalysisTask): Promise<string[] | string[][] | ParsedDictionary> {
  switch (task.op) {
    case 'parseDictionary':
      return parseUserDictionary(task.content);
    case 'tokens':
      return (await ready(task.versions)).analyzer.tokens(task.text);
    case 'suggest':
      return (await ready(task.versions)).index.suggest(task.query, task.limit);
    case 'nearWords': {
      const { latin } = await ready(task.versions);
      return task.words.map((word) => latin.lookup(word));
    }
  }
}

export default async function run(task: AnalysisTask): Promise<string[] | string[][] | ParsedDictionary> {
  try {
    return await answer(task);
  } catch (error) {
    if (databaseUnavailable(error)) throw new Error(DATABASE_UNAVAILABLE + (error as Error).message);
    throw error;
  }
}
