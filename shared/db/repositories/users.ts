// users and game_links (auth-service.md 2.1, 2.2).
import { preparedQuery, type Db, type Queryable } from '../database.ts';

export interface UserRow {
  id: number;
  email: string;
  password: string;
  name: string;
  profile_url: string;
  email_verified: boolean;
  verify_token: string | null;
  verify_expires: Date | null;
  is_admin: boolean;
  /** Tokens signed with another version are refused (raised by a password reset or change). */
  token_version: number;
}

export interface PublicUser {
  id: number;
  email: string;
  name: string;
  profileUrl: string;
  isAdmin: boolean;
}

export const toPublicUser = (row: UserRow): PublicUser => ({
  id: row.id,
  email: row.email,
  name: row.name,
  profileUrl: row.profile_url,
  isAdmin: row.is_admin,
});

// profile_url holds a storage key (or an absolute URL); the URL is built when answering (migration 011).
const COLUMNS = 'id, email, password, name, storage_url(profile_url) AS profile_url, email_verified, verify_token, verify_expires, is_admin, token_version';

export interface NewUser {
  email: string;
  passwordHash: string;
  name: string;
  /** The picture's storage key (`profile/default_profile_3.png`). */
  profileKey: string;
  verifyToken: string;
  verifyExpires: Date;
}

/** The new user, or null when the address is already registered (R3), whatever its letter case. */
export function insertUser(db: Queryable, user: NewUser): Promise<UserRow | null> {
  return db.oneOrNone<UserRow>(
    `INSERT INTO users (email, password, name, profile_url, verify_token, verify_expires)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT ((lower(email))) DO NOTHING
     RETURNING ${COLUMNS}`,
    [user.email, user.passwordHash, user.name, user.profileKey, user.verifyToken, user.verifyExpires],
  );
}

const BY_EMAIL = `SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`;

export const findUserByEmail = (db: Queryable, email: string) => db.oneOrNone<UserRow>(BY_EMAIL, [email]);

/** findUserByEmail as a statement, for a login's first round trip (login-attempts.ts, openAttempt). */
export const userByEmail = (email: string) => ({ text: BY_EMAIL, values: [email] });

/** Read on every request that carries a user's token (/auth/me, refresh): prepared. */
const userById = preparedQuery('user-by-id', `SELECT ${COLUMNS} FROM users WHERE id = $1`);

export const findUserById = (db: Queryable, id: number) => db.oneOrNone<UserRow>(userById(id));

export const findUserByVerifyToken = (db: Queryable, token: string) =>
  db.oneOrNone<UserRow>(`SELECT ${COLUMNS} FROM users WHERE verify_token = $1`, [token]);

/** Clears the token in the same statement that checks it, so two clicks verify once. */
export async function markVerified(db: Queryable, id: number, token: string): Promise<boolean> {
  const result = await db.result(
    `UPDATE users SET email_verified = true, verify_token = NULL, verify_expires = NULL
     WHERE id = $1 AND verify_token = $2`,
    [id, token],
  );
  return result.rowCount === 1;
}

/** Link records first, then the user, in one transaction (state table, last row). */
export function deleteUserAndLinks(db: Db, id: number): Promise<boolean> {
  return db.tx('delete-user', async (tx) => {
    await tx.none('DELETE FROM game_links WHERE user_id = $1', [id]);
    const result = await tx.result('DELETE FROM users WHERE id = $1', [id]);
    return result.rowCount === 1;
  });
}

/** A new password: every token issued before is revoked (token_version), and the address is verified (the link proved it). */
export async function setPassword(db: Queryable, id: number, passwordHash: string, verified: boolean): Promise<number> {
  const row = await db.one<{ token_version: number }>(
    `UPDATE users SET password = $2, token_version = token_version + 1${verified ? ', email_verified = true, verify_token = NULL, verify_expires = NULL' : ''}
     WHERE id = $1 RETURNING token_version`,
    [id, passwordHash],
  );
  return row.token_version;
}

/** A new verification link for an unverified account; false when it is verified (or gone). */
export async function renewVerifyToken(db: Queryable, id: number, token: string, expires: Date): Promise<boolean> {
  return (await db.result('UPDATE users SET verify_token = $2, verify_expires = $3 WHERE id = $1 AND NOT email_verified', [id, token, expires])).rowCount === 1;
}

/** A user by id, as a statement for a password check's first round trip (login-attempts.ts, openAttempt). */
export const userByIdQuery = (id: number) => ({ text: `SELECT ${COLUMNS} FROM users WHERE id = $1`, values: [id] });
