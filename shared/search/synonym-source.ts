// The synonym table a search applies at query time: the shipped defaults plus the synonym lines of
// the user dictionary (`뮤비 => MV`) and its lexicon lines (`셀카 <=> selfie`), read again when the dictionary's `updated_at` changes. Only a
// query whose own words match nothing well asks for it, and the version is looked at (one row) at
// most once a second, the content only after an edit: an administrator's edit applies within a
// second, with no index rebuild.
import type { Db } from '../db/database.ts';
import { lexiconGroups } from '../korean/lexicon.ts';
import { isSynonymLine, parseSynonymLine, SynonymTable, DEFAULT_SYNONYM_TABLE, MAX_SYNONYM_LINES, type SynonymEntry } from '../korean/synonyms.ts';

/** How long a looked-at version is trusted without looking again: an edit applies within a second. */
const MAX_AGE_MS = 1_000;

export interface SynonymSource {
  table(): Promise<SynonymTable>;
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

/** Synonyms of the stored user dictionary (`user_dictionary` row), with the defaults under them. */
export function storedSynonyms(db: Db, now: () => number = Date.now): SynonymSource {
  let current = DEFAULT_SYNONYM_TABLE;
  let version = -1;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<SynonymTable> | null = null;
  const refresh = async () => {
    const row = await db.oneOrNone<{ version: string }>("SELECT (extract(epoch FROM updated_at) * 1000)::bigint::text AS version FROM user_dictionary WHERE id = 1");
    const stamp = Number(row?.version ?? 0);
    if (stamp !== version) {
      const content = (await db.oneOrNone<{ content: string }>('SELECT content FROM user_dictionary WHERE id = 1'))?.content ?? '';
      current = new SynonymTable(synonymEntries(content), true, lexiconGroups(content.normalize('NFC')));
      version = stamp;
    }
    checkedAt = now();
    return current;
  };
  return {
    table: () => {
      if (now() - checkedAt < MAX_AGE_MS) return Promise.resolve(current);
      pending ??= refresh().finally(() => {
        pending = null;
      });
      return pending;
    },
  };
}
