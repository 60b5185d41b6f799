// The live calendar's change log is kept for its retention window (LIVE_RETENTION_HOURS and
// LIVE_RETENTION_CHANGES, docs/live.md "Retention"); the actors role deletes older rows at start
// and then every interval. A subscriber resuming from before them is told to refetch.
import type { Db } from '../../shared/db/database.ts';
import { pruneChangeLog, type Retention } from '../../shared/live/change-log.ts';
import { runPeriodically, type PeriodicTask } from '../../shared/runtime/background.ts';
import type { Logger } from '../../shared/runtime/logger.ts';

export const LIVE_PRUNE_INTERVAL_MS = 10 * 60 * 1000;

export function startLivePruning(db: Db, logger: Logger, retention: Retention, intervalMs = LIVE_PRUNE_INTERVAL_MS): PeriodicTask {
  return runPeriodically(
    async () => {
      const deleted = await pruneChangeLog(db, retention);
      if (deleted > 0) logger.debug({ deleted }, 'live change log pruned');
    },
    (error) => logger.warn({ err: error }, 'pruning the live change log failed'),
    intervalMs,
  );
}
