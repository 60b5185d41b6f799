// Failed-login counting per client IP (auth-service.md 2.6 and section 3), shared by every edge
// replica through PostgreSQL. Each route has its own scope: /auth and /api/auth count separately.
//
// A failure slot is taken before the password is compared (TAKE_SLOT): the count rises in the
// same statement that checks it, so any number of parallel attempts from one address, on any number
// of replicas, evaluate at most LOCKOUT_FAILURES passwords per window. An attempt that turns out not
// to be a counted failure (success, 403, a comparison that never ran) gives its slot back.
//
// Beyond the address, failures per account slow that account down (openAttempt's delayMs): a wait before
// the comparison, never a refusal, so an attacker cannot lock the owner out (docs/security.md).
import pgPromise from 'pg-promise';
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

// Takes one failure slot for the IP, atomically: the count rises (a new window starts when the last
// failure is older than the window) unless it already reached LOCKOUT_FAILURES. A row when taken.
const TAKE_SLOT = `INSERT INTO login_attempts AS a (scope, ip, failure_count, last_failure_at) VALUES ($1, $2, 1, $3)
  ON CONFLICT (scope, ip) DO UPDATE SET
    failure_count = CASE WHEN a.last_failure_at <= $3::timestamptz - $4 * interval '1 millisecond' THEN 1 ELSE a.failure_count + 1 END,
    last_failure_at = $3
  WHERE a.last_failure_at <= $3::timestamptz - $4 * interval '1 millisecond' OR a.failure_count < $5
  RETURNING failure_count`;

/** A statement that finds one account by its login name, among whose columns is `id`. */
export interface AccountQuery {
  text: string;
  values: unknown[];
}

interface AccountFailureColumns {
  account_failures: number | null;
  account_last_failure: Date | null;
}

export interface OpenedAttempt<A> {
  /** Milliseconds until the address may try again; 0 when its slot was taken. */
  lockedMs: number;
  /** The account, or null when none has that name (or the address is locked). */
  account: A | null;
  /** The wait before this account's comparison: its failures' delay counted from its last failure. */
  delayMs: number;
}

/**
 * What comes before a password comparison, in one round trip: the address's failure slot is taken
 * (TAKE_SLOT) and the account is found with its own failure record. Both run in one implicit
 * transaction; the lookup is wasted when the address turns out locked.
 */
export async function openAttempt<A extends { id: number }>(
  db: Queryable,
  scope: LoginScope,
  ip: string,
  now: Date,
  account: AccountQuery,
): Promise<OpenedAttempt<A>> {
  // Each part formatted on its own: the values of one are never read as placeholders of the other.
  const lookup = pgPromise.as.format(
    `SELECT a.*, f.failure_count AS account_failures, f.last_failure_at AS account_last_failure
     FROM ($2:raw) a LEFT JOIN login_account_failures f ON f.scope = $1 AND f.account_id = a.id`,
    [scope, pgPromise.as.format(account.text, account.values)],
  );
  const slot = pgPromise.as.format(TAKE_SLOT, [scope, ip, now, LOCKOUT_WINDOW_MS, LOCKOUT_FAILURES]);
  const [taken = [], found = []] = await db.multi<A & AccountFailureColumns>(`${slot};\n${lookup}`);
  // Locked; at least one second, in case the record expired between the two statements.
  if (taken.length === 0) return { lockedMs: Math.max(1000, await lockRemainingMs(db, scope, ip, now)), account: null, delayMs: 0 };
  const row = found[0];
  if (!row) return { lockedMs: 0, account: null, delayMs: 0 };
  const { account_failures: failures, account_last_failure: last, ...rest } = row;
  const delayMs = failures === null || last === null ? 0 : accountDelayAt(failures, last, now);
  return { lockedMs: 0, account: rest as unknown as A, delayMs };
}

/**
 * A counted failure: the slot's time becomes the moment the password was found wrong (the lock runs
 * from there), and the account's own count rises (a new window when its last failure is older).
 */
export async function recordFailure(db: Queryable, scope: LoginScope, ip: string, accountId: number | null, now: Date): Promise<void> {
  await db.none(
    `WITH address AS (
       UPDATE login_attempts SET last_failure_at = greatest(last_failure_at, $3) WHERE scope = $1 AND ip = $2
     )
     INSERT INTO login_account_failures AS f (scope, account_id, failure_count, last_failure_at)
     SELECT $1, $4, 1, $3 WHERE $4::integer IS NOT NULL
     ON CONFLICT (scope, account_id) DO UPDATE SET
       failure_count = CASE WHEN f.last_failure_at <= $3::timestamptz - $5 * interval '1 millisecond' THEN 1 ELSE f.failure_count + 1 END,
       last_failure_at = $3`,
    [scope, ip, now, accountId, LOCKOUT_WINDOW_MS],
  );
}

/** Gives a slot back: the attempt was not a counted failure (403, or the comparison never ran). */
export async function releaseFailureSlot(db: Queryable, scope: LoginScope, ip: string): Promise<void> {
  await db.none(
    `UPDATE login_attempts SET failure_count = failure_count - 1 WHERE scope = $1 AND ip = $2 AND failure_count > 0;
     DELETE FROM login_attempts WHERE scope = $1 AND ip = $2 AND failure_count <= 0`,
    [scope, ip],
  );
}

/** A successful login: the address's failures and the account's are cleared, in one statement. */
export async function clearFailures(db: Queryable, scope: LoginScope, ip: string, accountId: number): Promise<void> {
  await db.none(
    `WITH address AS (DELETE FROM login_attempts WHERE scope = $1 AND ip = $2)
     DELETE FROM login_account_failures WHERE scope = $1 AND account_id = $3`,
    [scope, ip, accountId],
  );
}

/** The wait before comparing a password of an account with `failures` recent failures. */
export function accountDelayFor(failures: number): number {
  if (failures < ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(ACCOUNT_DELAY_MAX_MS, ACCOUNT_DELAY_BASE_MS * 2 ** Math.min(failures - ACCOUNT_FREE_FAILURES, 20));
}

/** Milliseconds still to wait before this account's next comparison: its delay counted from its last failure. */
function accountDelayAt(failures: number, lastFailure: Date, now: Date): number {
  const since = now.getTime() - lastFailure.getTime();
  if (since >= LOCKOUT_WINDOW_MS) return 0;
  return Math.max(0, accountDelayFor(failures) - since);
}

export interface AddressLockoutRow {
  scope: LoginScope;
  client: string;
  failure_count: number;
  last_failure_at: Date;
}

export interface AccountSlowdownRow {
  scope: LoginScope;
  account_id: number;
  /** The account's login name: an administrator's username, a user's e-mail; null once deleted. */
  account: string | null;
  failure_count: number;
  last_failure_at: Date;
}

/** Client addresses locked out now (LOCKOUT_FAILURES within the window), newest first. */
export const lockedAddresses = (db: Queryable, now: Date) =>
  db.any<AddressLockoutRow>(
    `SELECT scope, ip AS client, failure_count, last_failure_at FROM login_attempts
     WHERE failure_count >= $2 AND last_failure_at > $1::timestamptz - $3 * interval '1 millisecond'
     ORDER BY last_failure_at DESC LIMIT 1000`,
    [now, LOCKOUT_FAILURES, LOCKOUT_WINDOW_MS],
  );

/** Accounts whose comparisons are slowed down now (ACCOUNT_FREE_FAILURES or more within the window), newest first. */
export const slowedAccounts = (db: Queryable, now: Date) =>
  db.any<AccountSlowdownRow>(
    `SELECT f.scope, f.account_id, coalesce(a.username, u.email) AS account, f.failure_count, f.last_failure_at
     FROM login_account_failures f
     LEFT JOIN admin_users a ON f.scope = 'admin' AND a.id = f.account_id
     LEFT JOIN users u ON f.scope = 'user' AND u.id = f.account_id
     WHERE f.failure_count >= $2 AND f.last_failure_at > $1::timestamptz - $3 * interval '1 millisecond'
     ORDER BY f.last_failure_at DESC LIMIT 1000`,
    [now, ACCOUNT_FREE_FAILURES, LOCKOUT_WINDOW_MS],
  );

/** Forgets a client's failures in both scopes; the scopes it was counted in. */
export async function clearAddressFailures(db: Queryable, client: string): Promise<LoginScope[]> {
  const rows = await db.any<{ scope: LoginScope }>('DELETE FROM login_attempts WHERE ip = $1 RETURNING scope', [client]);
  return rows.map((row) => row.scope);
}

/**
 * Forgets the failures of the administrator with this username and of the user with this e-mail
 * (whatever its letter case); the scopes cleared.
 */
export async function clearAccountFailures(db: Queryable, name: string): Promise<LoginScope[]> {
  const rows = await db.any<{ scope: LoginScope }>(
    `DELETE FROM login_account_failures f
     WHERE (f.scope = 'admin' AND f.account_id IN (SELECT id FROM admin_users WHERE username = $1))
        OR (f.scope = 'user' AND f.account_id IN (SELECT id FROM users WHERE lower(email) = lower($1)))
     RETURNING scope`,
    [name],
  );
  return rows.map((row) => row.scope);
}
