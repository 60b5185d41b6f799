// Members, /api/members (api-service.md 4.2): list, detail and update by name, with an image upload
// (the write is shared/members/member-writes.ts's).
import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../../schemas/common.ts';
import { Member, MemberUpdatePayload } from '../../schemas/members.ts';
import { compile } from '../../schemas/validate.ts';
import { listMembers, memberByName, memberVersion } from '../../shared/db/repositories/members.ts';
import { checkPrecondition } from '../../shared/precondition.ts';
import { badRequest, notFound } from '../../shared/errors.ts';
import { updateMember } from '../../shared/members/member-writes.ts';
import type { Services } from '../../shared/services.ts';
import { reply, type Context } from '../context.ts';
import { IMAGE_UPLOAD_LIMITS, readPayloadRequest } from '../multipart.ts';
import type { Route } from '../router.ts';
import { processUploads } from '../uploads.ts';

const updatePayload = compile(MemberUpdatePayload, { plainText: true });
const MEMBER_UPLOAD = { ...IMAGE_UPLOAD_LIMITS, files: 1 };

export function memberRoutes(s: Services): Route[] {
  async function detail(ctx: Context) {
    const member = await memberByName(s.db, ctx.params.name!);
    if (!member) throw notFound('해당 이름의 멤버를 찾을 수 없습니다.');
    // Read after the member: a write between the two makes the tag older, never newer (If-Match then fails safe).
    const version = await memberVersion(s.db, member.id);
    return version === null ? reply(member) : { ...reply(member), version };
  }

  async function update(ctx: Context) {
    const { raw, body } = await readPayloadRequest(ctx, MEMBER_UPLOAD);
    const member = await memberByName(s.db, ctx.params.name!);
    if (!member) throw notFound('해당 이름의 멤버를 찾을 수 없습니다.');
    if (raw === undefined && body.files.length === 0) throw badRequest("'payload' 항목이나 'image' 파일이 필요합니다.");
    const changes = raw === undefined ? {} : updatePayload.parse(raw);
    // Checked early, before the image is decoded, and again under the member's lock by the write.
    checkPrecondition(ctx.precondition, (await memberVersion(s.db, member.id)) ?? 0);
    const [image] = await processUploads(s.images, body.files);
    await updateMember(s, member, changes, image ? { fileName: body.files[0]!.fileName, image } : undefined, ctx.precondition);
    const updated = await memberByName(s.db, changes.name?.normalize('NFC') ?? member.name);
    return reply(updated);
  }

  const tags = ['members'];
  return [
    { method: 'get', path: '/api/members', handler: async () => reply(await listMembers(s.db)), cacheControl: 'public, max-age=60', doc: { summary: 'Members in display order', tags, responses: { 200: Type.Array(Member) } } },
    { method: 'get', path: '/api/members/:name', handler: detail, cacheControl: 'public, max-age=60', doc: { versioned: 'read', summary: 'A member by name (percent-encoded; Hangul and spaces allowed)', tags, responses: { 200: Member, 404: ErrorResponse } } },
    {
      method: 'put', path: '/api/members/:name', handler: update, auth: 'admin', bodyLimit: IMAGE_UPLOAD_LIMITS.fileSize + 1024 * 1024,
      doc: { versioned: 'write', summary: 'Update a member (only the fields sent change)', tags, body: MemberUpdatePayload, multipart: { files: 'optional `image` file part: the new profile image (three sizes; the old image files are removed); a payload, an image or both', json: true, payloadOptional: true }, responses: { 200: Member, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 413: ErrorResponse } },
    },
  ];
}
