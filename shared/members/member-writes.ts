// A member's update (api-service.md 4.2): the fields sent and, with a new profile image, its three
// variants stored and the old image's record and files removed; then the listings and search
// documents that show the member's name follow.
import type { Static } from '@sinclair/typebox';
import type { MemberUpdatePayload } from '../../schemas/members.ts';
import type { ProcessedImage } from '../../workers/image-pool.ts';
import { pgErrorCode } from '../db/database.ts';
import { logActivity } from '../db/repositories/activity-log.ts';
import { deleteImages, insertImage } from '../db/repositories/images.ts';
import { scheduleIdsOfMember, updateMember as updateMemberRow } from '../db/repositories/members.ts';
import { conflict } from '../errors.ts';
import { checkPrecondition, type Precondition } from '../precondition.ts';
import { recordMemberChange, type MemberListing } from '../schedules/schedule-changes.ts';
import { syncSchedules } from '../search/sync.ts';
import type { Services } from '../services.ts';
import { posterExtension, storeVariants, variantKeys } from '../storage/image-files.ts';

export type MemberChanges = Static<typeof MemberUpdatePayload>;

/** Applies the changes (names NFC); 409 when the new name is another member's. */
export async function updateMember(
  s: Services,
  member: { id: number; name: string },
  changes: MemberChanges,
  image: { fileName: string; image: ProcessedImage } | undefined,
  precondition?: Precondition | null,
): Promise<void> {
  const written: string[] = [];
  let oldKeys: string[] = [];
  try {
    await s.db.tx('member-update', async (tx) => {
      const listing = () => tx.one<MemberListing & { version: number }>(`SELECT name, to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", is_former AS "isFormer", version FROM members WHERE id = $1 FOR NO KEY UPDATE`, [member.id]);
      // Under the lock: the birthday a change moves from, the name the log names, the version If-Match names.
      const before = await listing();
      checkPrecondition(precondition, before.version);
      let imageId: number | undefined;
      if (image) {
        const key = `member/${member.id}/${s.clock.now()}.${posterExtension(image.fileName, image.image.format)}`;
        imageId = await insertImage(tx, await storeVariants(s.storage, image.image, variantKeys(key), written));
      }
      const { previousImageId } = await updateMemberRow(tx, member.id, { ...changes, nicknames: changes.nicknames?.map((n) => n.normalize('NFC')), name: changes.name?.normalize('NFC'), imageId });
      if (imageId !== undefined && previousImageId !== null) oldKeys = await deleteImages(tx, [previousImageId]);
      await recordMemberChange(tx, member.id, before, await listing());
      await logActivity(tx, { actor: 'admin', action: 'update', category: 'member', targetType: 'member', targetId: member.id, summary: `멤버 '${before.name}' 정보 수정` });
    });
  } catch (error) {
    await s.storage.delete(written).catch(() => undefined);
    if (pgErrorCode(error) === '23505') throw conflict('같은 이름의 멤버가 이미 있습니다.', 'name_taken');
    throw error;
  }
  await s.storage.delete(oldKeys).catch((error: unknown) => s.logger.error({ err: error }, 'could not delete the old member image'));
  // Names and birthdays appear in listings and search documents.
  s.monthlyCache.invalidateAll();
  s.live?.wake();
  await syncSchedules(s.db, s.search, await scheduleIdsOfMember(s.db, member.id)).catch((error: unknown) => s.logger.warn({ err: error }, 'member re-index failed'));
}
