// Index maintenance of the embedded engine: the row each document is stored as (`documentRow`),
// the upsert and delete statements, and the writes themselves (`EmbeddedIndexWrites`: batched
// upserts, removals, the whole-table rebuild and the format check that triggers it).
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { choseongOfNormalized, consonantRuns } from '../korean/jamo.ts';
import { typoSkeletons } from '../korean/typo.ts';
import { parameterizedQuery, preparedQuery, type Db, type Queryable } from '../db/database.ts';
import type { GramFrequencies } from './gram-frequencies.ts';
import type { SearchDocument } from './search-index.ts';
import { FIELD_TAG, type Field, TYPO_TAG, addGramKeys, spaceless } from './embedded-keys.ts';

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
/** 10: the venue field holds the places the title and address name, with those they lie in. */
export const DOCUMENT_FORMAT = 10;

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

/** Writes of the embedded index: its rows, batched upserts, removals and the whole-table rebuild. */
export class EmbeddedIndexWrites {
  constructor(
    private readonly db: Db,
    private readonly gramFrequencies: GramFrequencies,
  ) {}

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
}
