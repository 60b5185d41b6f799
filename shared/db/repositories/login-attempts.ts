// Failed-login counting per client IP (auth-service.md 2.6 and section 3), shared by every edge
// replica through PostgreSQL. Each route has its own scope: /auth and /api/auth count separately.
//
// A failure slot is taken before the password is compared (takeFailureSlot): the count rises in the
// same statement that checks it, so any number of parallel attempts from one address, on any number
// of replicas, evaluate at most LOCKOUT_FAILURES passwords per window. An attempt that turns out not
// to be a counted failure (success, 403, a comparison that never ran) gives its slot back.
//
// Beyond the address, failures per account slow that account down (accountDelayMs): a wait before
// the comparison, never a refusal, so an attacker cannot lock the owner out (README, "Abuse limits").
import type { Queryable } from '../database.ts';

export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;

/** Per-account slowdown: free for this many failures, then ACCOUNT_DELAY_BASE_MS doubling, at most ACCOUNT_DELAY_MAX_MS. */
export const ACCOUNT_FREE_FAILURES = 5;
export const ACCOUNT_DELAY_BASE_MS = 500;
export const ACCOUNT_DELAY_MAX_MS = 8_000;

export type LoginScope = 'user' | 'admin';

/** Milliseconds until the IP may try again, or 0 when it is open. An expired record is discarded. */
export async function lockRemainingMs(db: Queryable, scope: LoginScope, ip: string, now: Date): Promise<number> {
  const row = await db.oneOrNone<{ failure_count: number; last_failure_at: Date }>(
    'SELECT failure_count, last_failure_at FROM login_attempts WHERE scope = $1 AND ip = $2',
    [scope, ip],
  );
  if (!row) return 0;
  const unlockAt = row.last_failure_at.getTime() + LOCKOUT_WINDOW_MS;
  if (unlockAt <= now.getTime()) {
    await db.none('DELETE FROM login_attempts WHERE scope = $1 AND ip = $2 AND last_failure_at = $3', [scope, ip, row.last_failure_at]);
    return 0;
  }
  return row.failure_count >= LOCKOUT_FAILURES ? unlockAt - now.getTime() : 0;
}

/**
 * Takes one failure slot for the IP, atomically: the count rises (a new window starts when the last
 * failure is older than the window) unless it already reached LOCKOUT_FAILURES. Returns 0 when a
 * slot was taken, else the milliseconds until the IP is open again.
 */
export async function takeFailureSlot(db: Queryable, scope: LoginScope, ip: string, now: Date): Promise<number> {
  const taken = await db.oneOrNone<{ failure_count: number }>(
    `INSERT INTO login_attempts AS a (scope, ip, failure_count, last_failure_at) VALUES ($1, $2, 1, $3)
     ON CONFLICT (scope, ip) DO UPDATE SET
       failure_count = CASE WHEN a.last_failure_at <= $3::timestamptz - $4 * interval '1 millisecond' THEN 1 ELSE a.failure_count + 1 END,
       last_failure_at = $3
     WHERE a.last_failure_at <= $3::timestamptz - $4 * interval '1 millisecond' OR a.failure_count < $5
     RETURNING failure_count`,
    [scope, ip, now, LOCKOUT_WINDOW_MS, LOCKOUT_FAILURES],
  );
  if (taken) return 0;
  // Locked; at least one second, in case the record expired between the two statements.
  return Math.max(1000, await lockRemainingMs(db, scope, ip, now));
}

/** The slot became a counted failure: its time is when the password was found wrong (the lock runs from there). */
export async function confirmFailure(db: Queryable, scope: LoginScope, ip: string, now: Date): Promise<void> {
  await db.none('UPDATE login_attempts SET last_failure_at = greatest(last_failure_at, $3) WHERE scope = $1 AND ip = $2', [scope, ip, now]);
}

/** Gives a slot back: the attempt was not a counted failure (403, or the comparison never ran). */
export async function releaseFailureSlot(db: Queryable, scope: LoginScope, ip: string): Promise<void> {
  await db.none(
    `UPDATE login_attempts SET failure_count = failure_count - 1 WHERE scope = $1 AND ip = $2 AND failure_count > 0;
     DELETE FROM login_attempts WHERE scope = $1 AND ip = $2 AND failure_count <= 0`,
    [scope, ip],
  );
}

export async function clearFailures(db: Queryable, scope: LoginScope, ip: string): Promise<void> {
  await db.none('DELETE FROM login_attempts WHERE scope = $1 AND ip = $2', [scope, ip]);
}

/** The wait before comparing a password of an account with `failures` recent failures. */
export function accountDelayFor(failures: number): number {
  if (failures < ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(ACCOUNT_DELAY_MAX_MS, ACCOUNT_DELAY_BASE_MS * 2 ** Math.min(failures - ACCOUNT_FREE_FAILURES, 20));
}

/** Milliseconds still to wait before this account's next comparison: its delay counted from its last failure. */
export async function accountDelayMs(db: Queryable, scope: LoginScope, accountId: number, now: Date): Promise<number> {
  const row = await db.oneOrNone<{ failure_count: number; last_failure_at: Date }>(
    'SELECT failure_count, last_failure_at FROM login_account_failures WHERE scope = $1 AND account_id = $2',
    [scope, accountId],
  );
  if (!row) return 0;
  const since = now.getTime() - row.last_failure_at.getTime();
  if (since >= LOCKOUT_WINDOW_MS) return 0;
  return Math.max(0, accountDelayFor(row.failure_count) - since);
}

export async function countAccountFailure(db: Queryable, scope: LoginScope, accountId: number, now: Date): Promise<void> {
  await db.none(
    `INSERT INTO login_account_failures AS f (scope, account_id, failure_count, last_failure_at) VALUES ($1, $2, 1, $3)
     ON CONFLICT (scope, account_id) DO UPDATE SET
       failure_count = CASE WHEN f.last_failure_at <= $3::timestamptz - $4 * interval '1 millisecond' THEN 1 ELSE f.failure_count + 1 END,
       last_failure_at = $3`,
    [scope, accountId, now, LOCKOUT_WINDOW_MS],
  );
}

export async function clearAccountFailures(db: Queryable, scope: LoginScope, accountId: number): Promise<void> {
  await db.none('DELETE FROM login_account_failures WHERE scope = $1 AND account_id = $2', [scope, accountId]);
}
