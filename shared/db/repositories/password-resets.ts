// password_resets and account_mail_windows (migration 030): reset links stored hashed, and the
// hourly windows of the mails anyone can ask for.
import type { Queryable } from '../database.ts';

export const MAIL_WINDOW_MS = 3600 * 1000;

export interface PasswordResetRow {
  user_id: number;
  expires_at: Date;
  used_at: Date | null;
}

/**
 * In a transaction. The user's new link: earlier unused ones are deleted (only the newest works), and so are the
 * user's used links whose lifetime has passed (kept until then to tell a reuse from an unknown token).
 */
export async function replaceResetLink(db: Queryable, userId: number, tokenHash: string, expiresAt: Date, now: Date): Promise<void> {
  // The user's row locked first: two requests at once make their links one after the other, and
  // the later one deletes the earlier (else each would miss the other's and both would work).
  await db.one('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
  await db.none(
    `WITH earlier AS (DELETE FROM password_resets WHERE user_id = $1 AND (used_at IS NULL OR expires_at <= $4))
     INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($2, $1, $3)`,
    [userId, tokenHash, expiresAt, now],
  );
}

export const findResetLink = (db: Queryable, tokenHash: string) =>
  db.oneOrNone<PasswordResetRow>('SELECT user_id, expires_at, used_at FROM password_resets WHERE token_hash = $1', [tokenHash]);

/** Marks the link used in the statement that checks it is unused: two submissions reset once. */
export async function useResetLink(db: Queryable, tokenHash: string, now: Date): Promise<number | null> {
  const row = await db.oneOrNone<{ user_id: number }>(
    'UPDATE password_resets SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id',
    [tokenHash, now],
  );
  return row?.user_id ?? null;
}

/**
 * Counts one request under `key`; true while within `limit` in its hour. Expired windows are
 * deleted now and then, so keys from rotating addresses do not pile up.
 */
export async function takeMailWindow(db: Queryable, key: string, now: Date, limit: number): Promise<boolean> {
  const row = await db.one<{ count: number }>(
    `INSERT INTO account_mail_windows AS w (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN w.window_start <= $2::timestamptz - $3 * interval '1 millisecond' THEN 1 ELSE w.count + 1 END,
       window_start = CASE WHEN w.window_start <= $2::timestamptz - $3 * interval '1 millisecond' THEN $2 ELSE w.window_start END
     RETURNING count`,
    [key, now, MAIL_WINDOW_MS],
  );
  if (Math.random() < 0.01) await db.none("DELETE FROM account_mail_windows WHERE window_start <= $1::timestamptz - $2 * interval '1 millisecond'", [now, MAIL_WINDOW_MS]);
  return row.count <= limit;
}
