// `Authorization: Bearer <token>` (auth-service.md section 5).
import type { Context } from './context.ts';

/** The token after `Bearer `, or null when the header is missing or has another scheme. */
export function bearerToken(ctx: Context): string | null {
  const header = ctx.header('authorization');
  if (!header || !header.startsWith('Bearer ')) return null;
  const token = header.slice(7).trim();
  return token === '' ? null : token;
}
