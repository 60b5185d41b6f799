// api_tokens (migration 031): named tokens for automation, stored hashed.
import { preparedQuery, type Queryable } from '../database.ts';

export type ApiTokenScope = 'read' | 'read-write';

export interface ApiTokenRow {
  id: number;
  name: string;
  scope: ApiTokenScope;
  created_by: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, name, scope, created_by, created_at, expires_at, last_used_at, revoked_at';

/** The new token's row, or null when a live token has that name. */
export const insertApiToken = (db: Queryable, token: { name: string; hash: string; scope: ApiTokenScope; createdBy: string; expiresAt: Date | null }) =>
  db.oneOrNone<ApiTokenRow>(
    `INSERT INTO api_tokens (name, token_hash, scope, created_by, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (name) WHERE revoked_at IS NULL DO NOTHING RETURNING ${COLUMNS}`,
    [token.name, token.hash, token.scope, token.createdBy, token.expiresAt],
  );

export const listApiTokens = (db: Queryable) => db.any<ApiTokenRow>(`SELECT ${COLUMNS} FROM api_tokens ORDER BY id`);

/** Revokes by id or by the live token's name; the revoked row, or null when none. */
export const revokeApiToken = (db: Queryable, which: { id: number } | { name: string }, now: Date) =>
  db.oneOrNone<ApiTokenRow>(
    `UPDATE api_tokens SET revoked_at = $2 WHERE ${'id' in which ? 'id = $1' : 'name = $1'} AND revoked_at IS NULL RETURNING ${COLUMNS}`,
    ['id' in which ? which.id : which.name, now],
  );

/** Read on every request that carries an API token: prepared. */
const byHash = preparedQuery('api-token-by-hash', `SELECT ${COLUMNS} FROM api_tokens WHERE token_hash = $1`);

export const findApiTokenByHash = (db: Queryable, hash: string) => db.oneOrNone<ApiTokenRow>(byHash(hash));

export async function touchApiToken(db: Queryable, id: number, now: Date): Promise<void> {
  await db.none('UPDATE api_tokens SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)', [id, now]);
}
