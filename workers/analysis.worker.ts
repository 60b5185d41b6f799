// Piscina worker: Korean analysis and suggestions off the edge's event loop (a mistyped query's
// correction comes first among its suggestions: shared/korean/suggestion-index.ts). Each thread keeps its
// own analyser and suggestion index, loaded from PostgreSQL and kept current incrementally: a task
// carries the versions the caller has seen (dictionary, saved searches, schedule titles), and a
// thread that is behind catches up before it answers, so a dictionary PUT or a save is visible to
// the very next query.
import { workerData } from 'node:worker_threads';
import pgPromise from 'pg-promise';
import { KoreanAnalyzer } from '../shared/korean/analyzer.ts';
import { parseUserDictionary, type ParsedDictionary } from '../shared/korean/dictionary.ts';
import { normalizeText } from '../shared/korean/normalize.ts';
import { SuggestionIndex, type SuggestionCandidate } from '../shared/korean/suggestion-index.ts';

export interface AnalysisVersions {
  /** user_dictionary.updated_at in epoch ms. */
  dictionary: number;
  /** Highest saved_searches.id known to the caller. */
  savedSearch: number;
  /** Time of the caller's last schedule write, epoch ms. */
  schedules: number;
}

export type AnalysisTask =
  | { op: 'suggest'; query: string; limit: number; versions: AnalysisVersions }
  | { op: 'tokens'; text: string; versions: AnalysisVersions }
  | { op: 'parseDictionary'; content: string };

const REFRESH_EVERY_MS = 5_000;
const FULL_REBUILD_EVERY_MS = 10 * 60_000;
const MIN_HARVESTED_WORD = 2;

const pgp = pgPromise({ noWarnings: true });
const db = pgp({ connectionString: (workerData as { databaseUrl: string }).databaseUrl, max: 1, application_name: 'analysis-worker' });

interface State {
  analyzer: KoreanAnalyzer;
  index: SuggestionIndex;
  dictionaryVersion: number;
  lastSavedId: number;
  schedulesSeenAt: Date;
  refreshedAt: number;
  builtAt: number;
}

let state: State | null = null;
let loading: Promise<State> | null = null;

const ms = (date: Date | null) => (date ? date.getTime() : 0);

/** Words the analyser knows: the user dictionary, member names and nicknames, school names, title words. */
function harvest(analyzer: KoreanAnalyzer, titles: string[]): void {
  for (const title of titles) {
    for (const word of normalizeText(title).split(' ')) {
      if ([...word].length >= MIN_HARVESTED_WORD && /[가-힣]/.test(word)) analyzer.add({ word, tag: 'NNG' });
    }
  }
}

async function build(): Promise<State> {
  const [dictionary, members, schools, titles, venues, saved, stamp] = await Promise.all([
    db.one<{ content: string; updated_at: Date }>('SELECT content, updated_at FROM user_dictionary WHERE id = 1'),
    db.any<{ name: string; name_en: string | null; nicknames: string[] }>('SELECT name, name_en, nicknames FROM members'),
    db.any<{ full_name: string; short_names: string[] }>('SELECT full_name, short_names FROM school_names'),
    db.any<{ title: string; date: Date }>('SELECT title, date::timestamptz AS date FROM schedules'),
    db.any<{ name: string }>('SELECT DISTINCT v.name FROM venues v JOIN events e ON e.venue_id = v.id'),
    db.any<{ query: string; count: string; last: Date; max_id: string }>(
      'SELECT query, count(*) AS count, max(created_at) AS last, max(id) AS max_id FROM saved_searches GROUP BY query',
    ),
    db.one<{ now: Date }>('SELECT now() AS now'),
  ]);
  const analyzer = new KoreanAnalyzer(parseUserDictionary(dictionary.content).entries);
  const names = [
    ...members.flatMap((m) => [m.name, ...m.nicknames, ...(m.name_en ? [m.name_en] : [])]),
    ...schools.flatMap((s) => [s.full_name, ...s.short_names]),
  ];
  for (const word of names) analyzer.add({ word: normalizeText(word), tag: 'NNP' });
  harvest(analyzer, titles.map((t) => t.title));
  const candidates: SuggestionCandidate[] = [
    ...saved.map((row) => ({ text: row.query, popularity: Number(row.count), lastUsedAt: ms(row.last) })),
    ...parseUserDictionary(dictionary.content).entries.map((entry) => ({ text: entry.word, popularity: 0, lastUsedAt: 0 })),
    ...names.map((text) => ({ text, popularity: 0, lastUsedAt: 0 })),
    ...titles.map((row) => ({ text: row.title, popularity: 0, lastUsedAt: ms(row.date) })),
    // Event venues are searched too: their names complete, and correct a mistyped place.
    ...venues.map((row) => ({ text: row.name, popularity: 0, lastUsedAt: 0 })),
  ];
  const now = Date.now();
  return {
    analyzer,
    index: new SuggestionIndex(candidates, { analyzer }),
    dictionaryVersion: ms(dictionary.updated_at),
    lastSavedId: saved.reduce((max, row) => Math.max(max, Number(row.max_id)), 0),
    schedulesSeenAt: stamp.now,
    refreshedAt: now,
    builtAt: now,
  };
}

/** New saved searches and schedules since the last look, added to the live index; false when the dictionary changed (rebuild). */
async function refresh(current: State): Promise<boolean> {
  const [dictionary, saved, titles, venues, stamp] = await Promise.all([
    db.one<{ updated_at: Date }>('SELECT updated_at FROM user_dictionary WHERE id = 1'),
    db.any<{ id: string; query: string; created_at: Date }>('SELECT id, query, created_at FROM saved_searches WHERE id > $1 ORDER BY id LIMIT 10000', [current.lastSavedId]),
    db.any<{ title: string; date: Date }>('SELECT title, date::timestamptz AS date FROM schedules WHERE updated_at >= $1 OR created_at >= $1', [current.schedulesSeenAt]),
    db.any<{ name: string }>(
      'SELECT DISTINCT v.name FROM venues v JOIN events e ON e.venue_id = v.id JOIN schedules s ON s.id = e.schedule_id WHERE s.updated_at >= $1 OR s.created_at >= $1',
      [current.schedulesSeenAt],
    ),
    db.one<{ now: Date }>('SELECT now() AS now'),
  ]);
  for (const row of saved) {
    current.index.add({ text: row.query, popularity: 1, lastUsedAt: ms(row.created_at) });
    current.lastSavedId = Math.max(current.lastSavedId, Number(row.id));
  }
  harvest(current.analyzer, titles.map((t) => t.title));
  for (const row of titles) current.index.add({ text: row.title, popularity: 0, lastUsedAt: ms(row.date) });
  for (const row of venues) current.index.add({ text: row.name, popularity: 0, lastUsedAt: 0 });
  current.schedulesSeenAt = stamp.now;
  current.refreshedAt = Date.now();
  return ms(dictionary.updated_at) === current.dictionaryVersion;
}

async function rebuild(): Promise<State> {
  loading ??= build().finally(() => {
    loading = null;
  });
  state = await loading;
  return state;
}

async function ready(versions: AnalysisVersions): Promise<State> {
  const now = Date.now();
  // A dictionary newer than ours (a PUT seen by the caller), or the periodic full rebuild that
  // also forgets deleted schedules' titles.
  if (!state || versions.dictionary > state.dictionaryVersion || now - state.builtAt > FULL_REBUILD_EVERY_MS) return rebuild();
  if (versions.savedSearch > state.lastSavedId || versions.schedules > state.refreshedAt || now - state.refreshedAt > REFRESH_EVERY_MS) {
    if (!(await refresh(state))) return rebuild(); // another replica changed the dictionary
  }
  return state;
}

export default async function run(task: AnalysisTask): Promise<string[] | ParsedDictionary> {
  switch (task.op) {
    case 'parseDictionary':
      return parseUserDictionary(task.content);
    case 'tokens':
      return (await ready(task.versions)).analyzer.tokens(task.text);
    case 'suggest':
      return (await ready(task.versions)).index.suggest(task.query, task.limit);
  }
}
