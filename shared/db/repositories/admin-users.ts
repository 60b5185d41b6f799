// admin_users (decisions.md): created or updated from ADMIN_USERNAME / ADMIN_PASSWORD at start, and
// listed, disabled, enabled, revoked or removed with `npm run admin` (app/admin-cli.ts).
import { preparedQuery, type Queryable } from '../database.ts';

export interface AdminUserRow {
  id: number;
  username: string;
  password_hash: string;
  /** Tokens signed with another version are refused (migration 021). */
  token_version: number;
  disabled: boolean;
}

const ADMIN_COLUMNS = 'id, username, password_hash, token_version, disabled';

/** An enabled administrator by username, as a statement for a login's first round trip (login-attempts.ts, openAttempt). */
export const adminByUsername = (username: string) => ({ text: `SELECT ${ADMIN_COLUMNS} FROM admin_users WHERE username = $1 AND NOT disabled`, values: [username] });

/** Read on every request that carries an administrator's token: prepared. */
const adminById = preparedQuery('admin-by-id', `SELECT ${ADMIN_COLUMNS} FROM admin_users WHERE id = $1`);

export const findAdminById = (db: Queryable, id: number) => db.oneOrNone<AdminUserRow>(adminById(id));

export const findAdminByUsername = (db: Queryable, username: string) =>
  db.oneOrNone<AdminUserRow>(`SELECT ${ADMIN_COLUMNS} FROM admin_users WHERE username = $1`, [username]);

/**
 * Creates the administrator, or sets its password: a changed password raises token_version, so
 * tokens issued before it stop working. `disabled` is left as it is.
 */
export async function upsertAdmin(db: Queryable, username: string, passwordHash: string): Promise<number> {
  const row = await db.one<{ id: number }>(
    `INSERT INTO admin_users (username, password_hash) VALUES ($1, $2)
     ON CONFLICT (username) DO UPDATE SET password_hash = EXCLUDED.password_hash, token_version = admin_users.token_version + 1, updated_at = now()
     RETURNING id`,
    [username, passwordHash],
  );
  return row.id;
}

export interface AdminListing {
  id: number;
  username: string;
  disabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export const listAdmins = (db: Queryable) =>
  db.any<AdminListing>('SELECT id, username, disabled, created_at, updated_at FROM admin_users ORDER BY id');

/** Disables (tokens revoked), enables, or only revokes the tokens of an administrator; false when unknown. */
export async function changeAdmin(db: Queryable, username: string, change: 'disable' | 'enable' | 'revoke'): Promise<boolean> {
  const set = change === 'disable' ? 'disabled = true, token_version = token_version + 1'
    : change === 'enable' ? 'disabled = false'
    : 'token_version = token_version + 1';
  return (await db.result(`UPDATE admin_users SET ${set}, updated_at = now() WHERE username = $1`, [username])).rowCount === 1;
}

export async function removeAdmin(db: Queryable, username: string): Promise<boolean> {
  return (await db.result('DELETE FROM admin_users WHERE username = $1', [username])).rowCount === 1;
}
