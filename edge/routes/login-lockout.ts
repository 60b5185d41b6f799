// What /auth/login and /api/auth/login share: the 429 of a locked IP, the hash compared against
// when the account does not exist, and the password check between the body and the answer: the
// address's failure slot taken first, the account's slowdown, then the comparison in the pool.
import { MAX_PASSWORD_BYTES } from '../../schemas/auth.ts';
import {
  accountDelayMs,
  clearAccountFailures,
  clearFailures,
  confirmFailure,
  countAccountFailure,
  releaseFailureSlot,
  takeFailureSlot,
  type LoginScope,
} from '../../shared/db/repositories/login-attempts.ts';
import { HttpError } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { PRIORITY_ACCOUNT, PRIORITY_UNKNOWN_ACCOUNT } from '../../workers/password-hasher.ts';

export function lockedError(remainingMs: number): HttpError {
  const minutes = Math.ceil(remainingMs / 60_000);
  return new HttpError(429, `로그인 시도가 너무 많습니다. ${minutes}분 후에 다시 시도해 주세요.`, {
    'Retry-After': String(Math.ceil(remainingMs / 1000)),
  });
}

/** Compared against when the e-mail or username is unknown, so timing does not reveal which exist. */
export const DUMMY_HASH = '$2b$10$ZemMaJ0cxrw342bT8jg3iuYARJUp3a0lFfKt68S35z4iPaa6EcY62';

export interface PasswordCheck {
  /** The password matched the account's hash. */
  matched: boolean;
  /** The attempt was not a counted failure after all (403): gives the address's slot back. */
  release(): Promise<void>;
  /** A successful login: the address's and the account's failures are cleared. */
  succeed(): Promise<void>;
}

/**
 * One password attempt from `ip` against `account` (null: unknown; the dummy hash is compared).
 * Throws 429 when the address is locked. A mismatch stays counted (the slot taken up front); a
 * comparison that fails to run (429/503 from the pool) gives the slot back.
 */
export async function checkPassword(
  s: Services,
  scope: LoginScope,
  ip: string,
  account: { id: number; hash: string } | null,
  password: string,
): Promise<PasswordCheck> {
  const now = () => new Date(s.clock.now());
  const remaining = await takeFailureSlot(s.db, scope, ip, now());
  if (remaining > 0) throw lockedError(remaining);
  let matched: boolean;
  try {
    if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
      // No stored password is this long (registration refuses it; bcrypt would compare a prefix).
      matched = false;
    } else {
      const delay = account ? await accountDelayMs(s.db, scope, account.id, now()) : 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      // An unknown account's dummy comparison waits behind real accounts' ones when the pool is busy:
      // a flood of logins for unknown e-mails (the cheapest attack) cannot delay real users.
      const same = await s.passwords.compare(password, account?.hash ?? DUMMY_HASH, ip, account ? PRIORITY_ACCOUNT : PRIORITY_UNKNOWN_ACCOUNT);
      matched = account !== null && same;
    }
  } catch (error) {
    await releaseFailureSlot(s.db, scope, ip);
    throw error;
  }
  if (!matched) {
    await confirmFailure(s.db, scope, ip, now());
    if (account) await countAccountFailure(s.db, scope, account.id, now());
  }
  return {
    matched,
    release: () => releaseFailureSlot(s.db, scope, ip),
    succeed: async () => {
      await clearFailures(s.db, scope, ip);
      if (account) await clearAccountFailures(s.db, scope, account.id);
    },
  };
}
