// What /auth/login and /api/auth/login share: the 429 of a locked IP, the hash compared against
// when the account does not exist, and the password check between the body and the answer: the
// address's failure slot taken and the account found in one round trip, the account's slowdown,
// then the comparison in the pool; one more round trip records the outcome.
import { MAX_PASSWORD_BYTES } from '../../schemas/auth.ts';
import {
  clearFailures,
  lockRemainingMs,
  openAttempt,
  recordFailure,
  releaseFailureSlot,
  type AccountQuery,
  type LoginScope,
} from '../../shared/db/repositories/login-attempts.ts';
import { HttpError } from '../../shared/errors.ts';
import { clientKey } from '../client-key.ts';
import type { Services } from '../../shared/services.ts';
import { PRIORITY_ACCOUNT, PRIORITY_UNKNOWN_ACCOUNT } from '../../workers/password-hasher.ts';

function lockedError(remainingMs: number): HttpError {
  const minutes = Math.ceil(remainingMs / 60_000);
  return new HttpError(429, `로그인 시도가 너무 많습니다. ${minutes}분 후에 다시 시도해 주세요.`, {
    'Retry-After': String(Math.ceil(remainingMs / 1000)),
  }, 'locked_out');
}

/** Compared against when the e-mail or username is unknown, so timing does not reveal which exist. */
export const DUMMY_HASH = '$2b$10$ZemMaJ0cxrw342bT8jg3iuYARJUp3a0lFfKt68S35z4iPaa6EcY62';

/**
 * The login body as `parse` reads it, or the refusal. A locked address gets 429 whatever it sent
 * (auth-service.md 4.3, step 1: refused before the body is examined), so a body `parse` refuses
 * (400, 413) first asks whether the address is locked. A valid body's address is checked by
 * checkPassword, in the statement that takes its slot: one round trip fewer for every login.
 */
export async function readLoginBody<T>(s: Services, scope: LoginScope, address: string, parse: () => Promise<T>): Promise<T> {
  const ip = clientKey(address); // an IPv6 client is its /64
  try {
    return await parse();
  } catch (error) {
    const remaining = await lockRemainingMs(s.db, scope, ip, new Date(s.clock.now()));
    if (remaining > 0) throw lockedError(remaining);
    throw error;
  }
}

export type PasswordCheck<A> =
  | { matched: false }
  | {
      matched: true;
      account: A;
      /** The attempt was not a counted failure after all (403): gives the address's slot back. */
      release(): Promise<void>;
      /** A successful login: the address's and the account's failures are cleared. */
      succeed(): Promise<void>;
    };

/**
 * One password attempt from `ip` for the account `lookup` finds (none: the dummy hash is compared).
 * Throws 429 when the address is locked. A mismatch stays counted (the slot taken up front); a
 * comparison that fails to run (429/503 from the pool) gives the slot back.
 */
export async function checkPassword<A extends { id: number }>(
  s: Services,
  scope: LoginScope,
  address: string,
  lookup: AccountQuery,
  hashOf: (account: A) => string,
  password: string,
): Promise<PasswordCheck<A>> {
  const ip = clientKey(address); // an IPv6 client is its /64
  const now = () => new Date(s.clock.now());
  const { lockedMs, account, delayMs } = await openAttempt<A>(s.db, scope, ip, now(), lookup);
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
      const same = await s.passwords.compare(password, account ? hashOf(account) : DUMMY_HASH, ip, account ? PRIORITY_ACCOUNT : PRIORITY_UNKNOWN_ACCOUNT);
      matched = account !== null && same;
    }
  } catch (error) {
    await releaseFailureSlot(s.db, scope, ip);
    throw error;
  }
  if (!matched || !account) {
    await recordFailure(s.db, scope, ip, account?.id ?? null, now());
    return { matched: false };
  }
  return {
    matched: true,
    account,
    release: () => releaseFailureSlot(s.db, scope, ip),
    succeed: () => clearFailures(s.db, scope, ip, account.id),
  };
}
