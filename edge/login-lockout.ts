// The HTTP side of the login lockout that /auth/login and /api/auth/login share: a refused body
// still answers 429 when the client is locked, and the client is keyed from the resolved address.
// The rules themselves (failure slots, slowdown, dummy hash, the 429) are in
// shared/accounts/login-lockout.ts.
import { assertNotLockedOut, checkClientPassword, type PasswordCheck } from '../shared/accounts/login-lockout.ts';
import type { AccountQuery, LoginScope } from '../shared/db/repositories/login-attempts.ts';
import type { Services } from '../shared/services.ts';
import { clientKey } from './client-key.ts';

/**
 * The login body as `parse` reads it, or the refusal. A locked address gets 429 whatever it sent
 * (auth-service.md 4.3, step 1: refused before the body is examined), so a body `parse` refuses
 * (400, 413) first asks whether the address is locked. A valid body's address is checked by
 * checkPassword, in the statement that takes its slot: one round trip fewer for every login.
 */
export async function readLoginBody<T>(s: Services, scope: LoginScope, address: string, parse: () => Promise<T>): Promise<T> {
  const client = clientKey(address); // an IPv6 client is its /64
  try {
    return await parse();
  } catch (error) {
    await assertNotLockedOut(s, scope, client);
    throw error;
  }
}

/** One password attempt from the client at `address` (see checkClientPassword). */
export function checkPassword<A extends { id: number }>(
  s: Services,
  scope: LoginScope,
  address: string,
  lookup: AccountQuery,
  hashOf: (account: A) => string,
  password: string,
): Promise<PasswordCheck<A>> {
  return checkClientPassword<A>(s, scope, clientKey(address), lookup, hashOf, password); // an IPv6 client is its /64
}
