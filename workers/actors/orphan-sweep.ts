// Files and rows agree after a crash: an upload stores its files before its row commits,
// so a process killed in between leaves objects no row references, and a put killed mid-write
// leaves a `.part` file in storage/.tmp. The actors role sweeps both at start and then periodically:
// objects under the prefixes this service writes that no row references and that are older than an
// hour (an upload in progress is never that old), and `.part` files as old.
import { unreferencedKeys } from '../../shared/db/repositories/images.ts';
import { runPeriodically, type PeriodicTask } from '../../shared/runtime/background.ts';
import type { Db } from '../../shared/db/database.ts';
import type { Logger } from '../../shared/runtime/logger.ts';
import { LocalStorage } from '../../shared/storage/local.ts';
import type { Storage } from '../../shared/storage/storage.ts';

/** What uploads write (edge/routes: events, albums, members); default pictures and anything else stay. */
export const SWEPT_PREFIXES = ['event/', 'album/', 'member/'] as const;
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const BATCH = 500;

export interface SweepResult {
  objects: string[];
  parts: string[];
  /** Empty folders removed (local storage), left by failed uploads or by the objects removed. */
  folders: string[];
}

export interface SweepSources {
  db: Db;
  storage: Storage;
  logger: Logger;
  now?: () => number;
}

export async function sweepOrphans({ db, storage, logger, now = Date.now }: SweepSources): Promise<SweepResult> {
  const before = new Date(now() - ORPHAN_MIN_AGE_MS);
  const objects: string[] = [];
  const check = async (batch: string[]) => {
    const orphans = await unreferencedKeys(db, batch);
    if (orphans.length === 0) return;
    await storage.delete(orphans);
    objects.push(...orphans);
  };
  for (const prefix of SWEPT_PREFIXES) {
    let batch: string[] = [];
    for await (const object of storage.list(prefix)) {
      if (object.modified >= before) continue;
      batch.push(object.key);
      if (batch.length === BATCH) {
        await check(batch);
        batch = [];
      }
    }
    await check(batch);
  }
  const parts = storage instanceof LocalStorage ? await storage.removeStaleTemp(before) : [];
  const folders: string[] = [];
  if (storage instanceof LocalStorage) for (const prefix of SWEPT_PREFIXES) folders.push(...(await storage.removeEmptyDirectories(prefix, before)));
  if (objects.length > 0 || parts.length > 0) {
    logger.warn({ objects: objects.length, parts: parts.length, folders: folders.length, sample: objects.slice(0, 5) }, 'removed stored files no row references (left by a crash)');
  } else if (folders.length > 0) logger.info({ folders: folders.length }, 'removed empty storage folders');
  else logger.debug('orphan sweep: nothing to remove');
  return { objects, parts, folders };
}

/** Sweeps now and every interval; a failed sweep is logged and retried at the next one. */
export function startOrphanSweeper(sources: SweepSources, counted: (result: SweepResult) => void, intervalMs = SWEEP_INTERVAL_MS): PeriodicTask {
  return runPeriodically(
    async () => counted(await sweepOrphans(sources)),
    (error) => sources.logger.error({ err: error }, 'orphan sweep failed'),
    intervalMs,
  );
}
