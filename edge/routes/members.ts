// Members, /api/members (api-service.md 4.2): list, detail and update by name, with an image upload.
import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../../schemas/common.ts';
import { Member, MemberUpdatePayload } from '../../schemas/members.ts';
import { compile } from '../../schemas/validate.ts';
import { pgErrorCode } from '../../shared/db/database.ts';
import { logActivity } from '../../shared/db/repositories/activity-log.ts';
import { deleteImages, insertImage } from '../../shared/db/repositories/images.ts';
import { listMembers, memberByName, scheduleIdsOfMember, updateMember } from '../../shared/db/repositories/members.ts';
import { badRequest, conflict, notFound } from '../../shared/errors.ts';
import { syncSchedules } from '../../shared/search/sync.ts';
import type { Services } from '../../shared/services.ts';
import { reply, type Context } from '../context.ts';
import { IMAGE_UPLOAD_LIMITS, payloadOf, readMultipart } from '../multipart.ts';
import type { Route } from '../router.ts';
import { posterExtension, storeVariants, variantKeys } from '../../shared/storage/image-files.ts';
import { processUploads } from '../uploads.ts';

const updatePayload = compile(MemberUpdatePayload);
const MEMBER_UPLOAD = { ...IMAGE_UPLOAD_LIMITS, files: 1 };

export function memberRoutes(s: Services): Route[] {
  async function detail(ctx: Context) {
    const member = await memberByName(s.db, ctx.params.name!);
    if (!member) throw notFound('해당 이름의 멤버를 찾을 수 없습니다.');
    return reply(member);
  }

  async function update(ctx: Context) {
    const body = await readMultipart(ctx, MEMBER_UPLOAD);
    const raw = payloadOf(body);
    const member = await memberByName(s.db, ctx.params.name!);
    if (!member) throw notFound('해당 이름의 멤버를 찾을 수 없습니다.');
    if (raw === undefined && body.files.length === 0) throw badRequest("'payload' 항목이나 'image' 파일이 필요합니다.");
    const changes = raw === undefined ? {} : updatePayload.parse(raw);
    const [image] = await processUploads(s.images, body.files);
    const written: string[] = [];
    let oldKeys: string[] = [];
    try {
      await s.db.tx('member-update', async (tx) => {
        let imageId: number | undefined;
        if (image) {
          const key = `member/${member.id}/${s.clock.now()}.${posterExtension(body.files[0]!.fileName, image.format)}`;
          imageId = await insertImage(tx, await storeVariants(s.storage, image, variantKeys(key), written));
        }
        const { previousImageId } = await updateMember(tx, member.id, { ...changes, nicknames: changes.nicknames?.map((n) => n.normalize('NFC')), name: changes.name?.normalize('NFC'), imageId });
        if (imageId !== undefined && previousImageId !== null) oldKeys = await deleteImages(tx, [previousImageId]);
        await logActivity(tx, { actor: 'admin', action: 'update', category: 'member', targetType: 'member', targetId: member.id, summary: `멤버 '${member.name}' 정보 수정` });
      });
    } catch (error) {
      await s.storage.delete(written).catch(() => undefined);
      if (pgErrorCode(error) === '23505') throw conflict('같은 이름의 멤버가 이미 있습니다.');
      throw error;
    }
    await s.storage.delete(oldKeys).catch((error: unknown) => s.logger.error({ err: error }, 'could not delete the old member image'));
    // Names and birthdays appear in listings and search documents.
    s.monthlyCache.invalidateAll();
    await syncSchedules(s.db, s.search, await scheduleIdsOfMember(s.db, member.id)).catch((error: unknown) => s.logger.warn({ err: error }, 'member re-index failed'));
    const updated = await memberByName(s.db, changes.name?.normalize('NFC') ?? member.name);
    return reply(updated);
  }

  const tags = ['members'];
  return [
    { method: 'get', path: '/api/members', handler: async () => reply(await listMembers(s.db)), cacheControl: 'public, max-age=60', doc: { summary: 'Members in display order', tags, responses: { 200: Type.Array(Member) } } },
    { method: 'get', path: '/api/members/:name', handler: detail, cacheControl: 'public, max-age=60', doc: { summary: 'A member by name (percent-encoded; Hangul and spaces allowed)', tags, responses: { 200: Member, 404: ErrorResponse } } },
    {
      method: 'put', path: '/api/members/:name', handler: update, auth: 'admin', bodyLimit: IMAGE_UPLOAD_LIMITS.fileSize + 1024 * 1024,
      doc: { summary: 'Update a member (only the fields sent change)', tags, body: MemberUpdatePayload, multipart: { files: 'optional `image` file part: the new profile image (three sizes; the old image files are removed)' }, responses: { 200: Member, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 413: ErrorResponse } },
    },
  ];
}
