// Abuse counters (README, "Abuse limits") only matter inside their windows: a login failure for
// LOCKOUT_WINDOW_MS, a registration window for REGISTRATION_WINDOW_MS. Rows are otherwise deleted
// only when the same address or account comes back, so a client rotating addresses would grow the
// tables without end. Saved searches are kept for their retention window (SAVED_SEARCH_RETENTION_DAYS).
// The actors role deletes expired rows at start and then every interval.
import { runPeriodically, type PeriodicTask } from '../../shared/runtime/background.ts';
import type { Db } from '../../shared/db/database.ts';
import { LOCKOUT_WINDOW_MS } from '../../shared/db/repositories/login-attempts.ts';
import { REGISTRATION_WINDOW_MS } from '../../shared/db/repositories/registrations.ts';
import { pruneSavedSearches } from '../../shared/db/repositories/saved-searches.ts';
import type { Logger } from '../../shared/runtime/logger.ts';

export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface PrunedCounters {
  loginAttempts: number;
  accountFailures: number;
  registrationWindows: number;
  savedSearches: number;
}

/** Days saved searches are kept when the caller does not say (the configuration's default). */
export const DEFAULT_SAVED_SEARCH_RETENTION_DAYS = 30;

/** Deletes the counters whose window ended before `now`; each would be read as absent anyway. */
export async function pruneExpiredCounters(db: Db, now: Date, savedSearchRetentionDays = DEFAULT_SAVED_SEARCH_RETENTION_DAYS): Promise<PrunedCounters> {
  const expired = async (sql: string, windowMs: number) => (await db.result(sql, [now, windowMs])).rowCount;
  const window = "$1::timestamptz - $2 * interval '1 millisecond'";
  return {
    loginAttempts: await expired(`DELETE FROM login_attempts WHERE last_failure_at <= ${window}`, LOCKOUT_WINDOW_MS),
    accountFailures: await expired(`DELETE FROM login_account_failures WHERE last_failure_at <= ${window}`, LOCKOUT_WINDOW_MS),
    registrationWindows: await expired(`DELETE FROM registration_windows WHERE window_start <= ${window}`, REGISTRATION_WINDOW_MS),
    savedSearches: await pruneSavedSearches(db, now, savedSearchRetentionDays),
  };
}

/** Prunes now and every interval; a failed round is logged and tried again at the next one. */
export function startCounterPruning(db: Db, logger: Logger, now: () => Date, intervalMs = PRUNE_INTERVAL_MS, savedSearchRetentionDays = DEFAULT_SAVED_SEARCH_RETENTION_DAYS): PeriodicTask {
  return runPeriodically(
    async () => logger.debug(await pruneExpiredCounters(db, now(), savedSearchRetentionDays), 'expired abuse counters deleted'),
    (error) => logger.warn({ err: error }, 'deleting expired abuse counters failed'),
    intervalMs,
  );
}
