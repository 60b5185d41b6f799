// The synonym table a search applies at query time: the shipped defaults plus the synonym lines of
// the user dictionary (`뮤비 => MV`) and its lexicon lines (`셀카 <=> selfie`), with the stored entities
// and the gazetteer, read again when the dictionary's `updated_at` or the entities' version changes. Only a
// query whose own words match nothing well asks for it, and the version is looked at (one row) at
// most once a second, the content only after an edit: an administrator's edit applies within a
// second, with no index rebuild.
import type { Db } from '../db/database.ts';
import { GAZETTEER_GROUPS } from '../korean/gazetteer.ts';
import { LatinVocabulary } from '../korean/latin-vocabulary.ts';
import { lexiconGroups, type LexiconGroup } from '../korean/lexicon.ts';
import { NUMBER_GROUPS } from '../korean/query-numbers.ts';
import { loadEntityGroups } from './entities.ts';
import { isSynonymLine, parseSynonymLine, SynonymTable, DEFAULT_SYNONYM_TABLE, MAX_SYNONYM_LINES, type SynonymEntry } from '../korean/synonyms.ts';

/** How long a looked-at version is trusted without looking again: an edit applies within a second. */
const MAX_AGE_MS = 1_000;
/**
 * How long the documents' Latin words are kept after a schedule changed before they are read again
 * (one statement over every title, off the query's path: 0.4 s of one database core for 50,000
 * titles): a new title's words are corrected within a minute, and a busy writer costs one read a minute.
 */
const VOCABULARY_MAX_AGE_MS = 60_000;
/** Latin words kept from the titles, the most used first: the deletion map stays a few megabytes. */
const MAX_VOCABULARY_WORDS = 20_000;

/**
 * The Latin words of five to thirty letters in the schedules' titles, the most used first; letters
 * joined by a hyphen, dot, apostrophe or underscore are one word, as in the documents' keys
 * (`lumi-log` is lumilog).
 */
export async function loadDocumentWords(db: Db): Promise<LatinVocabulary> {
  const rows = await db.any<{ word: string }>(
    `SELECT m[1] AS word
       FROM schedules, regexp_matches(regexp_replace(lower(title), '([a-z0-9])[-_.''’]+(?=[a-z0-9])', '\\1', 'g'), '(?<![a-z])([a-z]{5,30})(?![a-z])', 'g') AS m
      GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT $1`,
    [MAX_VOCABULARY_WORDS],
  );
  return new LatinVocabulary(rows.map((row) => row.word));
}

export interface SynonymSource {
  table(): Promise<SynonymTable>;
  /** The index was rebuilt from other documents: what is read of them is read again before the next reading. */
  documentsReplaced?(): void;
}

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
 * versions are looked at in one statement; each content is read again only after it moved.
 */
export function storedSynonyms(db: Db, now: () => number = Date.now): SynonymSource {
  let current = new SynonymTable([], true, [], KNOWN_GROUPS);
  let version = '';
  let content = '';
  let entities: LexiconGroup[] = [];
  let checkedAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<SynonymTable> | null = null;
  // The documents' Latin words: the change log's last seq when they were read, and when; a read
  // started before the documents were replaced is not kept.
  let documentWords: LatinVocabulary | undefined;
  let wordsSeq: string | null | undefined;
  let wordsReadAt = Number.NEGATIVE_INFINITY;
  let wordsRead: Promise<void> | null = null;
  let generation = 0;
  const readWords = (seq: string | null) => {
    const started = generation;
    wordsReadAt = now();
    const read: Promise<void> = loadDocumentWords(db)
      .then(
        (words) => {
          if (started !== generation) return;
          documentWords = words;
          wordsSeq = seq;
          current.lexicon.documentWords = words;
        },
        () => undefined,
      )
      .finally(() => {
        if (wordsRead === read) wordsRead = null;
      });
    wordsRead = read;
    return read;
  };
  const refresh = async () => {
    const row = await db.one<{ dictionary: string | null; entities: string | null; seq: string | null }>(`
      SELECT (SELECT (extract(epoch FROM updated_at) * 1000000)::bigint::text FROM user_dictionary WHERE id = 1) AS dictionary,
             (SELECT (extract(epoch FROM changed_at) * 1000000)::bigint::text FROM search_entities_version WHERE id = 1) AS entities,
             (SELECT max(seq)::text FROM live_changes) AS seq`);
    // Read once before the first reading, then again beside the queries, never before them.
    if (documentWords === undefined) await (wordsRead ?? readWords(row.seq));
    else if (!wordsRead && row.seq !== wordsSeq && now() - wordsReadAt >= VOCABULARY_MAX_AGE_MS) void readWords(row.seq);
    const [dictionaryStamp, entitiesStamp] = version.split('/');
    if (row.dictionary !== dictionaryStamp || row.entities !== entitiesStamp) {
      if (row.dictionary !== dictionaryStamp) content = (await db.oneOrNone<{ content: string }>('SELECT content FROM user_dictionary WHERE id = 1'))?.content ?? '';
      if (row.entities !== entitiesStamp) entities = await loadEntityGroups(db);
      current = new SynonymTable(synonymEntries(content), true, lexiconGroups(content.normalize('NFC')), [...entities, ...KNOWN_GROUPS]);
      current.lexicon.documentWords = documentWords;
      version = `${row.dictionary}/${row.entities}`;
    }
    checkedAt = now();
    return current;
  };
  // Started now, beside the service's start: 50,000 titles take about 0.4 s to read, which the
  // first reading would otherwise wait for.
  void readWords(null);
  return {
    documentsReplaced: () => {
      generation++;
      documentWords = undefined;
      wordsRead = null;
      checkedAt = Number.NEGATIVE_INFINITY;
    },
    table: () => {
      if (now() - checkedAt < MAX_AGE_MS) return Promise.resolve(current);
      pending ??= refresh().finally(() => {
        pending = null;
      });
      return pending;
    },
  };
}
