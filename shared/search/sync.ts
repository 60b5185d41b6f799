// Keeping the index in step with the stored schedules: after admin writes (inline), from the
// `schedule.changed` stream (the indexer), and in full (sync-search).
import type { Queryable } from '../db/database.ts';
import { loadAllSearchDocuments, loadSearchDocuments } from './documents.ts';
import type { SearchIndex } from './search-index.ts';

/** Re-reads the schedules: present ones are (re)indexed, deleted ones leave the index. */
export async function syncSchedules(db: Queryable, index: SearchIndex, ids: number[]): Promise<void> {
  const documents = await loadSearchDocuments(db, ids);
  await index.upsert(documents);
  const found = new Set(documents.map((document) => document.scheduleId));
  const gone = ids.filter((id) => !found.has(id));
  if (gone.length > 0) await index.remove(gone);
}

export async function rebuildSearchIndex(db: Queryable, index: SearchIndex): Promise<number> {
  return index.rebuild(await loadAllSearchDocuments(db));
}
