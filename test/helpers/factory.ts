// Small factories for rows no public route creates (members come from administration or seed data).
import type { Db } from '../../shared/db/database.ts';

let sequence = 0;

export async function insertMember(db: Db, fields: { name?: string; nicknames?: string[]; birthDate?: string | null; sortOrder?: number; isFormer?: boolean; nameEn?: string } = {}): Promise<{ id: number; name: string }> {
  sequence++;
  return db.one(
    `INSERT INTO members (name, name_en, birth_date, sort_order, nicknames, is_former) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, name`,
    [fields.name ?? `멤버${sequence}-${Math.random().toString(36).slice(2, 7)}`, fields.nameEn ?? null, fields.birthDate ?? null, fields.sortOrder ?? sequence, fields.nicknames ?? [], fields.isFormer ?? false],
  );
}

/** Rows in a table, for "nothing was stored" checks. */
export async function countRows(db: Db, table: 'schedules' | 'events' | 'images' | 'schedule_members' | 'schedule_images' | 'venues' | 'activity_log' | 'outbox' | 'members' | 'albums' | 'tracks' | 'album_photos' | 'album_teasers'): Promise<number> {
  return (await db.one<{ n: number }>('SELECT count(*)::int AS n FROM $1:name', [table])).n;
}
