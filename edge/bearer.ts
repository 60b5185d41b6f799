// `Authorization: Bearer <token>` (auth-service.md section 5).
import type { Context } from './context.ts';

/** `Bearer` followed by white space; the scheme is case-insensitive (RFC 9110 §11.1). */
const BEARER = /^bearer[ \t]+/i;

/** The token after the `Bearer` scheme, or null when the header is missing or has another scheme. */
export function bearerToken(ctx: Context): string | null {
  const header = ctx.header('authorization');
  if (!header) return null;
  const scheme = BEARER.exec(header);
  if (scheme === null) return null;
  const token = header.slice(scheme[0].length).trim();
  return token === '' ? null : token;
}
