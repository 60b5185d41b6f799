// The synonym table a search applies at query time: the shipped defaults plus the synonym lines of
// the user dictionary (`뮤비 => MV`) and its lexicon lines (`셀카 <=> selfie`), with the stored entities
// and the gazetteer, read again when the dictionary's `updated_at` or the entities' version changes. Only a
// query whose own words match nothing well asks for it, and the version is looked at (one row) at
// most once a second, the content only after an edit: an administrator's edit applies within a
// second, with no index rebuild.
import type { Db } from '../db/database.ts';
import { GAZETTEER_GROUPS } from '../korean/gazetteer.ts';
import { NEAR_WORD } from '../korean/latin-vocabulary.ts';
import { lexiconGroups, type LexiconGroup } from '../korean/lexicon.ts';
import { NUMBER_GROUPS } from '../korean/query-numbers.ts';
import { loadEntityGroups } from './entities.ts';
import { isSynonymLine, parseSynonymLine, SynonymTable, DEFAULT_SYNONYM_TABLE, MAX_SYNONYM_LINES, type SynonymEntry } from '../korean/synonyms.ts';

/** How long a looked-at version is trusted without looking again: an edit applies within a second. */
const MAX_AGE_MS = 1_000;
export interface SynonymSource {
  table(): Promise<SynonymTable>;
  /**
   * What the Latin words of a query (five letters or more) are among the schedules' titles: itself
   * alone when a title holds it, else the words one edit from it (`practise` → practice). Words not
   * asked about, or when the titles cannot be asked, are missing from the map.
   */
  near?(words: string[]): Promise<ReadonlyMap<string, readonly string[]>>;
}

/** Asks where the titles are held (the analysis pool): per word, itself or the words one edit from it. */
export type NearWords = (words: string[]) => Promise<string[][]>;

/** The synonym lines of a dictionary's content (bad lines skipped: the PUT route reports them). */
export function synonymEntries(content: string): SynonymEntry[] {
  const entries: SynonymEntry[] = [];
  for (const line of content.split('\n')) {
    if (!isSynonymLine(line) || line.trimStart().startsWith('#')) continue;
    const entry = parseSynonymLine(line.replace(/\r$/, '').normalize('NFC'));
    if (typeof entry !== 'string') entries.push(entry);
    if (entries.length >= MAX_SYNONYM_LINES) break;
  }
  return entries;
}

/** The defaults alone (no dictionary). */
export const defaultSynonyms: SynonymSource = { table: async () => DEFAULT_SYNONYM_TABLE };

/** What every installation knows beside the words: places, ordinals and anniversaries. */
const KNOWN_GROUPS = [...GAZETTEER_GROUPS, ...NUMBER_GROUPS];

/**
 * Synonyms of the stored user dictionary (`user_dictionary` row), with the defaults under them, and
 * what the service knows beside the words: the stored entities (entities.ts) and the gazetteer. Both
 * versions are looked at in one statement; each content is read again only after it moved. With
 * `nearWords`, the titles' Latin words too, asked of the threads that hold the titles.
 */
export function storedSynonyms(db: Db, now: () => number = Date.now, nearWords?: NearWords): SynonymSource {
  let current = new SynonymTable([], true, [], KNOWN_GROUPS);
  let version = '';
  let content = '';
  let entities: LexiconGroup[] = [];
  let checkedAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<SynonymTable> | null = null;
  const refresh = async () => {
    const row = await db.one<{ dictionary: string | null; entities: string | null }>(`
      SELECT (SELECT (extract(epoch FROM updated_at) * 1000000)::bigint::text FROM user_dictionary WHERE id = 1) AS dictionary,
             (SELECT (extract(epoch FROM changed_at) * 1000000)::bigint::text FROM search_entities_version WHERE id = 1) AS entities`);
    const [dictionaryStamp, entitiesStamp] = version.split('/');
    if (row.dictionary !== dictionaryStamp || row.entities !== entitiesStamp) {
      if (row.dictionary !== dictionaryStamp) content = (await db.oneOrNone<{ content: string }>('SELECT content FROM user_dictionary WHERE id = 1'))?.content ?? '';
      if (row.entities !== entitiesStamp) entities = await loadEntityGroups(db);
      current = new SynonymTable(synonymEntries(content), true, lexiconGroups(content.normalize('NFC')), [...entities, ...KNOWN_GROUPS]);
      version = `${row.dictionary}/${row.entities}`;
    }
    checkedAt = now();
    return current;
  };
  return {
    ...(nearWords ? { near: (words: string[]) => nearOf(nearWords, words) } : {}),
    table: () => {
      if (now() - checkedAt < MAX_AGE_MS) return Promise.resolve(current);
      pending ??= refresh().finally(() => {
        pending = null;
      });
      return pending;
    },
  };
}

/** The asked words' answers by word; none when nothing is worth asking, or the asking fails (a slip is then not read). */
async function nearOf(nearWords: NearWords, words: string[]): Promise<ReadonlyMap<string, readonly string[]>> {
  const asked = [...new Set(words.filter((word) => NEAR_WORD.test(word)))];
  if (asked.length === 0) return new Map();
  const answers = await nearWords(asked).catch(() => undefined);
  return new Map(answers ? asked.map((word, i) => [word, answers[i] ?? []]) : []);
}
