// What /auth/login and /api/auth/login share: the 429 of a locked IP, and the hash compared
// against when the account does not exist.
import { HttpError } from '../../shared/errors.ts';

export function lockedError(remainingMs: number): HttpError {
  const minutes = Math.ceil(remainingMs / 60_000);
  return new HttpError(429, `로그인 시도가 너무 많습니다. ${minutes}분 후에 다시 시도해 주세요.`, {
    'Retry-After': String(Math.ceil(remainingMs / 1000)),
  });
}

/** Compared against when the e-mail or username is unknown, so timing does not reveal which exist. */
export const DUMMY_HASH = '$2b$10$ZemMaJ0cxrw342bT8jg3iuYARJUp3a0lFfKt68S35z4iPaa6EcY62';
