// The login lockout rules (auth-service.md 4.3) that /auth/login and /api/auth/login share: the 429
// of a locked client, the hash compared against when the account does not exist, and the password
// check itself: the client's failure slot taken and the account found in one round trip, the
// account's slowdown, then the comparison in the pool; one more round trip records the outcome.
// A client is the key its limits count under (edge/client-key.ts: an IPv6 client is its /64).
import { MAX_PASSWORD_BYTES } from '../../schemas/auth.ts';
import { PRIORITY_ACCOUNT, PRIORITY_UNKNOWN_ACCOUNT } from '../../workers/password-hasher.ts';
import {
  clearFailures,
  lockRemainingMs,
  openAttempt,
  recordFailure,
  releaseFailureSlot,
  type AccountQuery,
  type LoginScope,
} from '../db/repositories/login-attempts.ts';
import { HttpError } from '../errors.ts';
import type { Services } from '../services.ts';

function lockedError(remainingMs: number): HttpError {
  const minutes = Math.ceil(remainingMs / 60_000);
  return new HttpError(429, `로그인 시도가 너무 많습니다. ${minutes}분 후에 다시 시도해 주세요.`, {
    'Retry-After': String(Math.ceil(remainingMs / 1000)),
  }, 'locked_out');
}

/** Compared against when the e-mail or username is unknown, so timing does not reveal which exist. */
export const DUMMY_HASH = '$2b$10$ZemMaJ0cxrw342bT8jg3iuYARJUp3a0lFfKt68S35z4iPaa6EcY62';

/** Throws 429 when the client is locked out of `scope`'s login. */
export async function assertNotLockedOut(s: Services, scope: LoginScope, client: string): Promise<void> {
  const remaining = await lockRemainingMs(s.db, scope, client, new Date(s.clock.now()));
  if (remaining > 0) throw lockedError(remaining);
}

export type PasswordCheck<A> =
  | { matched: false }
  | {
      matched: true;
      account: A;
      /** The attempt was not a counted failure after all (403): gives the client's slot back. */
      release(): Promise<void>;
      /** A successful login: the client's and the account's failures are cleared. */
      succeed(): Promise<void>;
    };

/**
 * One password attempt from `client` for the account `lookup` finds (none: the dummy hash is
 * compared). Throws 429 when the client is locked. A mismatch stays counted (the slot taken up
 * front); a comparison that fails to run (429/503 from the pool) gives the slot back.
 */
export async function checkClientPassword<A extends { id: number }>(
  s: Services,
  scope: LoginScope,
  client: string,
  lookup: AccountQuery,
  hashOf: (account: A) => string,
  password: string,
): Promise<PasswordCheck<A>> {
  const now = () => new Date(s.clock.now());
  const { lockedMs, account, delayMs } = await openAttempt<A>(s.db, scope, client, now(), lookup);
  if (lockedMs > 0) throw lockedError(lockedMs);
  let matched: boolean;
  try {
    if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
      // No stored password is this long (registration refuses it; bcrypt would compare a prefix).
      matched = false;
    } else {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      // An unknown account's dummy comparison waits behind real accounts' ones when the pool is busy:
      // a flood of logins for unknown e-mails (the cheapest attack) cannot delay real users.
      const same = await s.passwords.compare(password, account ? hashOf(account) : DUMMY_HASH, client, account ? PRIORITY_ACCOUNT : PRIORITY_UNKNOWN_ACCOUNT);
      matched = account !== null && same;
    }
  } catch (error) {
    await releaseFailureSlot(s.db, scope, client);
    throw error;
  }
  if (!matched || !account) {
    await recordFailure(s.db, scope, client, account?.id ?? null, now());
    return { matched: false };
  }
  return {
    matched: true,
    account,
    release: () => releaseFailureSlot(s.db, scope, client),
    succeed: () => clearFailures(s.db, scope, client, account.id),
  };
}
