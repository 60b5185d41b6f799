// Member ids a write refers to (a schedule's, an event's, an album photo's members) must exist:
// checked before the write, so a request naming an unknown member gets 400 with the ids, not a
// foreign-key failure.
import type { Queryable } from '../db/database.ts';
import { unknownMemberIds } from '../db/repositories/members.ts';
import { badRequest } from '../errors.ts';

/** 400 naming the member ids that do not exist. */
export async function assertMembersExist(db: Queryable, memberIds: readonly number[] | undefined): Promise<void> {
  const unknown = await unknownMemberIds(db, memberIds ?? []);
  if (unknown.length > 0) throw badRequest(`존재하지 않는 멤버 ID입니다: ${unknown.join(', ')}`);
}
