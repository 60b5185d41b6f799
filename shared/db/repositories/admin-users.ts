// admin_users (decisions.md): created or updated from ADMIN_USERNAME / ADMIN_PASSWORD at start.
import { preparedQuery, type Queryable } from '../database.ts';

export interface AdminUserRow {
  id: number;
  username: string;
  password_hash: string;
}

/** An administrator by username, as a statement for a login's first round trip (login-attempts.ts, openAttempt). */
export const adminByUsername = (username: string) => ({ text: 'SELECT id, username, password_hash FROM admin_users WHERE username = $1', values: [username] });

/** Read on every request that carries an administrator's token: prepared. */
const adminById = preparedQuery('admin-by-id', 'SELECT id, username, password_hash FROM admin_users WHERE id = $1');

export const findAdminById = (db: Queryable, id: number) => db.oneOrNone<AdminUserRow>(adminById(id));

export async function upsertAdmin(db: Queryable, username: string, passwordHash: string): Promise<number> {
  const row = await db.one<{ id: number }>(
    `INSERT INTO admin_users (username, password_hash) VALUES ($1, $2)
     ON CONFLICT (username) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()
     RETURNING id`,
    [username, passwordHash],
  );
  return row.id;
}
