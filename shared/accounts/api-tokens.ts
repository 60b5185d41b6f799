// API tokens for automation (docs/security.md, "API tokens"): created by an administrator with a
// name, a scope and an optional expiry; shown once, stored as SHA-256; usable as `Authorization:
// Bearer` on administrator routes within the scope. Every use reads the row from PostgreSQL, so a
// revoked token is refused by every process at once.
import { createHash, randomBytes } from 'node:crypto';
import { findApiTokenByHash, insertApiToken, listApiTokens, revokeApiToken, touchApiToken, type ApiTokenRow, type ApiTokenScope } from '../db/repositories/api-tokens.ts';
import { logActivity } from '../db/repositories/activity-log.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from '../runtime/logger.ts';

/** Every API token starts so: told apart from a signed administrator token (which holds dots). */
export const API_TOKEN_PREFIX = 'sct_';

/** last_used_at is written at most once a minute per token: a busy script costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export interface ApiTokenView {
  id: number;
  name: string;
  scope: ApiTokenScope;
  createdBy: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export const viewOf = (row: ApiTokenRow): ApiTokenView => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at?.toISOString() ?? null,
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  revokedAt: row.revoked_at?.toISOString() ?? null,
});

/** A new token: the secret once, with its row; null when a live token has that name. */
export async function createApiToken(db: Db, input: { name: string; scope: ApiTokenScope; expiresAt: Date | null }, actor: string): Promise<{ token: string; view: ApiTokenView } | null> {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return db.tx('create-api-token', async (tx) => {
    const row = await insertApiToken(tx, { name: input.name, hash: hashOf(token), scope: input.scope, createdBy: actor, expiresAt: input.expiresAt });
    if (!row) return null;
    await logActivity(tx, { actor, action: 'create', category: 'api-token', targetType: 'api-token', targetId: row.id, summary: `API 토큰 '${row.name}' 발급 (${row.scope})` });
    return { token, view: viewOf(row) };
  });
}

export const apiTokens = async (db: Db) => (await listApiTokens(db)).map(viewOf);

export async function revokeToken(db: Db, which: { id: number } | { name: string }, now: Date, actor: string): Promise<ApiTokenView | null> {
  return db.tx('revoke-api-token', async (tx) => {
    const row = await revokeApiToken(tx, which, now);
    if (!row) return null;
    await logActivity(tx, { actor, action: 'delete', category: 'api-token', targetType: 'api-token', targetId: row.id, summary: `API 토큰 '${row.name}' 폐기` });
    return viewOf(row);
  });
}

/** The live token `secret` names (not revoked, not expired), or null; its last use is recorded. */
export async function authenticateApiToken(db: Db, secret: string, now: Date, logger: Logger): Promise<ApiTokenRow | null> {
  if (!secret.startsWith(API_TOKEN_PREFIX)) return null;
  const row = await findApiTokenByHash(db, hashOf(secret));
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at.getTime() <= now.getTime())) return null;
  if (row.last_used_at === null || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    touchApiToken(db, row.id, now).catch((error: unknown) => logger.warn({ err: error, tokenId: row.id }, 'could not record an API token\'s last use'));
  }
  return row;
}
