// Registrations per client address (docs/security.md): a one-hour window that starts with
// the address's first registration, counted in one statement so replicas agree.
import type { Queryable } from '../database.ts';

export const REGISTRATION_WINDOW_MS = 3600 * 1000;

/** Counts one registration of `ip`; 0 when within `limit`, else the milliseconds until its window ends. */
export async function takeRegistration(db: Queryable, ip: string, now: Date, limit: number): Promise<number> {
  const row = await db.one<{ count: number; window_start: Date }>(
    `INSERT INTO registration_windows AS w (ip, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (ip) DO UPDATE SET
       count = CASE WHEN w.window_start <= $2::timestamptz - $3 * interval '1 millisecond' THEN 1 ELSE w.count + 1 END,
       window_start = CASE WHEN w.window_start <= $2::timestamptz - $3 * interval '1 millisecond' THEN $2 ELSE w.window_start END
     RETURNING count, window_start`,
    [ip, now, REGISTRATION_WINDOW_MS],
  );
  if (row.count <= limit) return 0;
  return Math.max(1000, row.window_start.getTime() + REGISTRATION_WINDOW_MS - now.getTime());
}
