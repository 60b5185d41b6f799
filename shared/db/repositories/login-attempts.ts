// Failed-login counting per client IP (auth-service.md 2.6 and section 3), shared by every edge
// replica through PostgreSQL. Each route has its own scope: /auth and /api/auth count separately.
import type { Queryable } from '../database.ts';

export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;

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

/** One counted failure, atomically: two concurrent failures count as two. */
export async function countFailure(db: Queryable, scope: LoginScope, ip: string, now: Date): Promise<void> {
  await db.none(
    `INSERT INTO login_attempts (scope, ip, failure_count, last_failure_at) VALUES ($1, $2, 1, $3)
     ON CONFLICT (scope, ip) DO UPDATE SET
       failure_count = CASE WHEN login_attempts.last_failure_at <= $3::timestamptz - $4 * interval '1 millisecond'
                            THEN 1 ELSE login_attempts.failure_count + 1 END,
       last_failure_at = $3`,
    [scope, ip, now, LOCKOUT_WINDOW_MS],
  );
}

export async function clearFailures(db: Queryable, scope: LoginScope, ip: string): Promise<void> {
  await db.none('DELETE FROM login_attempts WHERE scope = $1 AND ip = $2', [scope, ip]);
}
