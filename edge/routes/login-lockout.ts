// The 429 of a locked IP, shared by /auth/login and /api/auth/login.
import { HttpError } from '../../shared/errors.ts';

export function lockedError(remainingMs: number): HttpError {
  const minutes = Math.ceil(remainingMs / 60_000);
  return new HttpError(429, `로그인 시도가 너무 많습니다. ${minutes}분 후에 다시 시도해 주세요.`, {
    'Retry-After': String(Math.ceil(remainingMs / 1000)),
  });
}
