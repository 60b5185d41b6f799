// Lockouts an administrator can see and clear (docs/security.md, "Login lockout"): the client
// addresses locked out of a login (five failures, 15 minutes) and the accounts whose comparisons are
// slowed down. Clearing is written to the activity log with who cleared what; `npm run admin` and
// /api/admin/lockouts call the same operations.
import { logActivity } from '../db/repositories/activity-log.ts';
import {
  clearAccountFailures,
  clearAddressFailures,
  LOCKOUT_WINDOW_MS,
  lockedAddresses,
  slowedAccounts,
  type LoginScope,
} from '../db/repositories/login-attempts.ts';
import type { Db } from '../db/database.ts';

export interface Lockout {
  /** `address`: a client locked out of a login; `account`: an account whose comparisons wait. */
  kind: 'address' | 'account';
  /** `user` (/auth/login) or `admin` (/api/auth/login). */
  scope: LoginScope;
  /** The client key (an address, an IPv6 client as its /64) or the account's login name. */
  target: string;
  failures: number;
  lastFailureAt: string;
  /** When it ends by itself. */
  until: string;
}

const until = (last: Date) => new Date(last.getTime() + LOCKOUT_WINDOW_MS).toISOString();

export async function listLockouts(db: Db, now: Date): Promise<Lockout[]> {
  const [addresses, accounts] = await Promise.all([lockedAddresses(db, now), slowedAccounts(db, now)]);
  return [
    ...addresses.map((row) => ({ kind: 'address' as const, scope: row.scope, target: row.client, failures: row.failure_count, lastFailureAt: row.last_failure_at.toISOString(), until: until(row.last_failure_at) })),
    ...accounts.map((row) => ({ kind: 'account' as const, scope: row.scope, target: row.account ?? `#${row.account_id}`, failures: row.failure_count, lastFailureAt: row.last_failure_at.toISOString(), until: until(row.last_failure_at) })),
  ];
}

export interface ClearedLockout {
  kind: 'address' | 'account';
  scopes: LoginScope[];
}

/**
 * Clears the lockout of `target`: a client key (`client`, already resolved from an address) or, when
 * `client` is null, an administrator's username or a user's e-mail. Null when nothing was recorded.
 */
export async function clearLockout(db: Db, target: { client: string | null; name: string }, actor: string): Promise<ClearedLockout | null> {
  return db.tx('clear-lockout', async (tx) => {
    const kind = target.client !== null ? 'address' : 'account';
    const scopes = target.client !== null ? await clearAddressFailures(tx, target.client) : await clearAccountFailures(tx, target.name);
    if (scopes.length === 0) return null;
    const what = target.client ?? target.name;
    await logActivity(tx, { actor, action: 'delete', category: 'lockout', targetType: kind, targetId: what, summary: `로그인 잠금 해제: ${kind === 'address' ? '주소' : '계정'} ${what} (${[...new Set(scopes)].join(', ')})` });
    return { kind, scopes: [...new Set(scopes)] };
  });
}
