// Members, addressed by name (decisions.md "Members and albums").
import type { Queryable } from '../database.ts';

export interface Member {
  id: number;
  name: string;
  nameEn: string | null;
  birthDate: string | null;
  position: string | null;
  imageUrl: string | null;
  instagram: string | null;
  isFormer: boolean;
  nicknames: string[];
}

const MEMBER_SELECT = `
  SELECT m.id, m.name, m.name_en AS "nameEn", to_char(m.birth_date, 'YYYY-MM-DD') AS "birthDate", m.position,
         storage_url(i.original_key) AS "imageUrl", m.instagram, m.is_former AS "isFormer", m.nicknames
    FROM members m LEFT JOIN images i ON i.id = m.image_id`;

export const listMembers = (db: Queryable) => db.any<Member>(`${MEMBER_SELECT} ORDER BY m.sort_order, m.id`);

export const memberByName = (db: Queryable, name: string) => db.oneOrNone<Member>(`${MEMBER_SELECT} WHERE m.name = $1`, [name]);

/** A member's version (its ETag), or null when there is none. */
export const memberVersion = async (db: Queryable, id: number) => (await db.oneOrNone<{ version: number }>('SELECT version FROM members WHERE id = $1', [id]))?.version ?? null;

export interface MemberChanges {
  name?: string;
  nameEn?: string | null;
  birthDate?: string | null;
  position?: string | null;
  instagram?: string | null;
  isFormer?: boolean;
  nicknames?: string[];
  sortOrder?: number;
  imageId?: number;
}

const COLUMN_OF: Record<keyof MemberChanges, string> = {
  name: 'name',
  nameEn: 'name_en',
  birthDate: 'birth_date',
  position: 'position',
  instagram: 'instagram',
  isFormer: 'is_former',
  nicknames: 'nicknames',
  sortOrder: 'sort_order',
  imageId: 'image_id',
};

/** Applies the given fields; returns the previous image id (to delete its files) or undefined when absent. */
export async function updateMember(db: Queryable, id: number, changes: MemberChanges): Promise<{ previousImageId: number | null }> {
  const previous = await db.one<{ image_id: number | null }>('SELECT image_id FROM members WHERE id = $1 FOR UPDATE', [id]);
  const entries = (Object.keys(changes) as Array<keyof MemberChanges>).filter((key) => changes[key] !== undefined);
  if (entries.length > 0) {
    const sets = entries.map((key, index) => `${COLUMN_OF[key]} = $${index + 2}`);
    await db.none(`UPDATE members SET ${sets.join(', ')} WHERE id = $1`, [id, ...entries.map((key) => changes[key])]);
  }
  return { previousImageId: previous.image_id };
}

/** Ids of the schedules a member is linked to (their search documents carry her names). */
export async function scheduleIdsOfMember(db: Queryable, memberId: number): Promise<number[]> {
  return (await db.any<{ schedule_id: number }>('SELECT schedule_id FROM schedule_members WHERE member_id = $1', [memberId])).map((row) => row.schedule_id);
}

/** Current members born in a month, in display order: from the year of their birth on. */
export const birthdaysInMonth = (db: Queryable, year: number, month: number) =>
  db.any<{ id: number; name: string; birthDate: string }>(
    `SELECT id, name, to_char(birth_date, 'YYYY-MM-DD') AS "birthDate" FROM members
      WHERE NOT is_former AND birth_date IS NOT NULL AND extract(month FROM birth_date) = $1 AND extract(year FROM birth_date) <= $2
      ORDER BY sort_order, id`,
    [month, year],
  );

/** Ids among these that name no member. */
export async function unknownMemberIds(db: Queryable, memberIds: readonly number[]): Promise<number[]> {
  if (memberIds.length === 0) return [];
  const found = await db.any<{ id: number }>('SELECT id FROM members WHERE id = ANY($1::int[])', [memberIds]);
  const known = new Set(found.map((row) => row.id));
  return memberIds.filter((id) => !known.has(id));
}
