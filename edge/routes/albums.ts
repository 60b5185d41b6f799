// Albums, /api/albums (api-service.md 4.3; decisions.md "Members and albums"): albums with their
// tracks and cover, album photos and teasers. Writes need an administrator token; they are checked
// here and done by shared/albums/album-writes.ts.
import {
  Album,
  AlbumCreatePayload,
  AlbumList,
  AlbumUpdatePayload,
  Photo,
  PhotoList,
  PhotoUpdatePayload,
  PhotoUploadPayload,
  PhotoUploadResponse,
  Teaser,
  TeaserList,
  TeaserUploadPayload,
  TrackDetail,
} from '../../schemas/albums.ts';
import { ErrorResponse, SuccessResponse } from '../../schemas/common.ts';
import { compile } from '../../schemas/validate.ts';
import { addPhotos, addTeaser, albumNotFound, createAlbum, deleteAlbum, removePhoto, removeTeaser, updateAlbum, type TeaserUpload, type TrackPayload } from '../../shared/albums/album-writes.ts';
import { albumById, albumByTitle, albumExists, albumVersion, listAlbums, photoOfAlbum, photosByIds, photosOfAlbum, teasersOfAlbum, trackOfAlbum, updatePhoto } from '../../shared/db/repositories/albums.ts';
import { badRequest, HttpError, notFound } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { extensionForContentType, sniffContentType } from '../../shared/storage/content-type.ts';
import { checkPrecondition } from '../../shared/precondition.ts';
import { reply, type Context } from '../context.ts';
import { IMAGE_UPLOAD_BODY_LIMIT, IMAGE_UPLOAD_LIMITS, payloadOf, readMultipart, readPayloadRequest, type MultipartBody, type MultipartLimits, type UploadedFile } from '../multipart.ts';
import { parseId } from '../params.ts';
import { assertMembersExist } from '../../shared/members/member-checks.ts';
import type { Route } from '../router.ts';
import { processUploads } from '../uploads.ts';

const createPayload = compile(AlbumCreatePayload, { plainText: true });
const updatePayload = compile(AlbumUpdatePayload, { plainText: true });
const photoUploadPayload = compile(PhotoUploadPayload, { plainText: true });
const photoUpdatePayload = compile(PhotoUpdatePayload, { plainText: true });
const teaserUploadPayload = compile(TeaserUploadPayload, { plainText: true });

const MB = 1024 * 1024;
const ALBUM_UPLOAD_LIMITS: MultipartLimits = { ...IMAGE_UPLOAD_LIMITS, files: 1 };
const TEASER_UPLOAD_LIMITS: MultipartLimits = { ...IMAGE_UPLOAD_LIMITS, fileSize: 100 * MB, files: 1 };
const PUBLIC_CACHE = 'public, max-age=60';

const photoNotFound = () => notFound('이 앨범에서 해당 사진을 찾을 수 없습니다.');
const teaserNotFound = () => notFound('이 앨범에서 해당 티저를 찾을 수 없습니다.');

/** Titles are compared as stored: trimmed and NFC, the form the router gives path segments. */
function cleanTitle(title: string, field: string): string {
  const clean = title.normalize('NFC').trim();
  if (clean === '') throw badRequest(`'${field}' 항목이 비어 있습니다.`);
  return clean;
}

/** Track numbers and titles unique within the album (track lookups go by title). */
function checkTracks(tracks: TrackPayload[]): TrackPayload[] {
  const numbers = new Set<number>();
  const titles = new Set<string>();
  return tracks.map((track, index) => {
    const title = cleanTitle(track.title, `tracks.${index}.title`);
    if (numbers.has(track.trackNumber)) throw badRequest(`트랙 번호 ${track.trackNumber}이(가) 중복되었습니다.`);
    if (titles.has(title)) throw badRequest(`트랙 제목 '${title.slice(0, 100)}'이(가) 중복되었습니다.`);
    numbers.add(track.trackNumber);
    titles.add(title);
    return { ...track, title };
  });
}

/** The optional cover: at most one file part (the multipart limit), sent as `cover`. */
function coverFileOf(body: MultipartBody): UploadedFile | null {
  const [file] = body.files;
  if (!file) return null;
  if (file.fieldName !== 'cover') throw badRequest(`알 수 없는 파일 항목 '${file.fieldName.slice(0, 50)}'입니다. 표지 이미지는 'cover' 항목으로 보내 주세요.`);
  return file;
}

// ---- albums ------------------------------------------------------------------------------------

async function albumOr404(s: Services, id: number) {
  const album = await albumById(s.db, id);
  if (!album) throw albumNotFound();
  return album;
}

async function byId(s: Services, ctx: Context) {
  const id = parseId(ctx.params.id);
  const album = await albumOr404(s, id);
  // Read after the album: a write between the two makes the tag older, never newer (If-Match then fails safe).
  const version = await albumVersion(s.db, id);
  return version === null ? reply(album) : { ...reply(album), version };
}

async function byName(s: Services, ctx: Context) {
  const album = await albumByTitle(s.db, ctx.params.name!);
  if (!album) throw notFound('해당 이름의 앨범을 찾을 수 없습니다.');
  return reply(album);
}

async function track(s: Services, ctx: Context) {
  const found = await trackOfAlbum(s.db, ctx.params.name!, ctx.params.trackTitle!);
  if (!found) throw notFound('해당 이름의 앨범을 찾을 수 없습니다.');
  if (!found.track) throw notFound('이 앨범에서 해당 제목의 트랙을 찾을 수 없습니다.');
  return reply({ ...found, track: found.track });
}

/** The cover file, if sent, through the image pool (400/413 before any write). */
async function coverOf(s: Services, body: MultipartBody) {
  const coverFile = coverFileOf(body);
  const [cover] = await processUploads(s.images, coverFile ? [coverFile] : []);
  return cover;
}

async function create(s: Services, ctx: Context) {
  const { raw, body } = await readPayloadRequest(ctx, ALBUM_UPLOAD_LIMITS);
  if (raw === undefined) throw badRequest("'payload' 항목이 없습니다.");
  const payload = createPayload.parse(raw);
  const fields = { ...payload, title: cleanTitle(payload.title, 'title'), tracks: checkTracks(payload.tracks ?? []) };
  const id = await createAlbum(s, fields, await coverOf(s, body));
  return reply(await albumOr404(s, id), 201);
}

async function update(s: Services, ctx: Context) {
  const id = parseId(ctx.params.id);
  const { raw, body } = await readPayloadRequest(ctx, ALBUM_UPLOAD_LIMITS);
  if (raw === undefined) throw badRequest("'payload' 항목이 없습니다.");
  const payload = updatePayload.parse(raw);
  const title = payload.title === undefined ? undefined : cleanTitle(payload.title, 'title');
  const tracks = payload.tracks === undefined ? undefined : checkTracks(payload.tracks);
  const coverFile = coverFileOf(body);
  // Checked early, before the cover is decoded, and again under the album's lock by the write.
  const version = await albumVersion(s.db, id);
  if (version === null) throw albumNotFound();
  checkPrecondition(ctx.precondition, version);
  const [cover] = await processUploads(s.images, coverFile ? [coverFile] : []);
  await updateAlbum(s, id, { ...payload, title, tracks }, cover, ctx.precondition);
  return reply(await albumOr404(s, id));
}

async function remove(s: Services, ctx: Context) {
  if (!(await deleteAlbum(s, parseId(ctx.params.id), ctx.precondition))) throw albumNotFound();
  return reply({ success: true });
}

// ---- photos ------------------------------------------------------------------------------------

async function listPhotos(s: Services, ctx: Context) {
  const albumId = parseId(ctx.params.id);
  if (!(await albumExists(s.db, albumId))) throw albumNotFound();
  return reply(await photosOfAlbum(s.db, albumId));
}

async function uploadPhotos(s: Services, ctx: Context) {
  const albumId = parseId(ctx.params.id);
  const body = await readMultipart(ctx, IMAGE_UPLOAD_LIMITS);
  const raw = payloadOf(body);
  const payload = raw === undefined ? {} : photoUploadPayload.parse(raw);
  if (body.files.length === 0) throw badRequest('사진 파일이 없습니다.');
  if (!(await albumExists(s.db, albumId))) throw albumNotFound();
  await assertMembersExist(s.db, payload.memberIds);
  const images = await processUploads(s.images, body.files);
  const photoIds = await addPhotos(s, albumId, payload, images);
  return reply({ photos: await photosByIds(s.db, photoIds) }, 201);
}

async function editPhoto(s: Services, ctx: Context) {
  const albumId = parseId(ctx.params.id);
  const photoId = parseId(ctx.params.photoId, 'photoId');
  const changes = photoUpdatePayload.parse(await ctx.json());
  if (!(await photoOfAlbum(s.db, albumId, photoId))) throw photoNotFound();
  await assertMembersExist(s.db, changes.memberIds);
  await updatePhoto(s.db, albumId, photoId, changes);
  const photo = await photoOfAlbum(s.db, albumId, photoId);
  if (!photo) throw photoNotFound();
  return reply(photo);
}

async function removePhotoRoute(s: Services, ctx: Context) {
  const albumId = parseId(ctx.params.id);
  const photoId = parseId(ctx.params.photoId, 'photoId');
  if (!(await removePhoto(s, albumId, photoId))) throw photoNotFound();
  return reply({ success: true });
}

// ---- teasers -----------------------------------------------------------------------------------

async function listTeasers(s: Services, ctx: Context) {
  const albumId = parseId(ctx.params.id);
  if (!(await albumExists(s.db, albumId))) throw albumNotFound();
  return reply(await teasersOfAlbum(s.db, albumId));
}

/** The teaser file checked by its bytes, never by its name or declared type; an image goes through the pool. */
async function teaserOf(s: Services, file: UploadedFile, albumId: number): Promise<TeaserUpload> {
  const contentType = sniffContentType(file.bytes);
  const videoExtension = contentType?.startsWith('video/') ? extensionForContentType(contentType) : null;
  if (!contentType || (!videoExtension && !contentType.startsWith('image/'))) {
    throw badRequest(`'${file.fileName.slice(0, 100)}': 이미지 또는 동영상(mp4, mov, webm) 파일이 아닙니다.`);
  }
  if (!videoExtension && file.bytes.length > IMAGE_UPLOAD_LIMITS.fileSize) {
    throw new HttpError(413, `이미지 파일 하나의 크기는 ${IMAGE_UPLOAD_LIMITS.fileSize / MB}MB 이하여야 합니다.`, {}, 'image_too_large');
  }
  if (!(await albumExists(s.db, albumId))) throw albumNotFound();
  if (videoExtension) return { kind: 'video', bytes: file.bytes, contentType, extension: videoExtension };
  const [image] = await processUploads(s.images, [file]);
  return { kind: 'image', image: image! };
}

async function uploadTeaser(s: Services, ctx: Context) {
  const albumId = parseId(ctx.params.id);
  const body = await readMultipart(ctx, TEASER_UPLOAD_LIMITS);
  const raw = payloadOf(body);
  const payload = raw === undefined ? {} : teaserUploadPayload.parse(raw);
  const [file] = body.files;
  if (!file) throw badRequest('티저 파일이 없습니다.');
  return reply(await addTeaser(s, albumId, payload, await teaserOf(s, file, albumId)), 201);
}

async function removeTeaserRoute(s: Services, ctx: Context) {
  const albumId = parseId(ctx.params.id);
  const teaserId = parseId(ctx.params.teaserId, 'teaserId');
  if (!(await removeTeaser(s, albumId, teaserId))) throw teaserNotFound();
  return reply({ success: true });
}

export function albumRoutes(s: Services): Route[] {
  const tags = ['albums'];
  const albumWriteRules =
    'Title: trimmed, Unicode NFC, unique (409 when another album has it). Tracks: unique positive trackNumbers and unique titles, else 400. ' +
    'A cover file that is not a decodable image → 400 and nothing stored; over 20 MB or the pixel limit → 413. Cover stored as album/<id>/cover/<ms>.<format> with medium and thumb WebP variants.';
  return [
    { method: 'get', path: '/api/albums', handler: async () => reply(await listAlbums(s.db)), cacheControl: PUBLIC_CACHE, doc: { summary: 'Albums with their tracks, newest release first', tags, responses: { 200: AlbumList } } },
    { method: 'get', path: '/api/albums/by-name/:name', handler: (ctx) => byName(s, ctx), cacheControl: PUBLIC_CACHE, doc: { summary: 'An album by its title (percent-encoded; Hangul and spaces allowed)', tags, responses: { 200: Album, 404: ErrorResponse } } },
    {
      // The router needs one parameter name per position: `:name` here is the spec's `:albumName`.
      method: 'get', path: '/api/albums/by-name/:name/track/:trackTitle', handler: (ctx) => track(s, ctx), cacheControl: PUBLIC_CACHE,
      doc: { summary: 'One track by album title and track title, with the previous and next track by track number', tags, responses: { 200: TrackDetail, 404: ErrorResponse } },
    },
    { method: 'get', path: '/api/albums/:id', handler: (ctx) => byId(s, ctx), cacheControl: PUBLIC_CACHE, doc: { versioned: 'read', summary: 'An album by id', tags, responses: { 200: Album, 400: ErrorResponse, 404: ErrorResponse } } },
    {
      method: 'post', path: '/api/albums', handler: (ctx) => create(s, ctx), auth: 'admin', bodyLimit: ALBUM_UPLOAD_LIMITS.fileSize + MB,
      doc: { summary: 'Create an album', tags, body: AlbumCreatePayload, multipart: { files: 'optional `cover` file part: the cover image', json: true }, description: `No payload → 400; title required. ${albumWriteRules}`, responses: { 201: Album, 400: ErrorResponse, 409: ErrorResponse, 413: ErrorResponse } },
    },
    {
      method: 'put', path: '/api/albums/:id', handler: (ctx) => update(s, ctx), auth: 'admin', bodyLimit: ALBUM_UPLOAD_LIMITS.fileSize + MB,
      doc: { versioned: 'write', summary: 'Update an album', tags, body: AlbumUpdatePayload, multipart: { files: 'optional `cover` file part: replaces the cover (the old image record and files are removed)', json: true }, description: `No payload → 400; unknown album → 404. Only the fields sent change; \`tracks\`, when sent, replaces every track. ${albumWriteRules}`, responses: { 200: Album, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 413: ErrorResponse } },
    },
    { method: 'delete', path: '/api/albums/:id', handler: (ctx) => remove(s, ctx), auth: 'admin', doc: { versioned: 'write', summary: 'Delete an album with its tracks, photos, teasers and cover, and all their files', tags, responses: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse } } },
    { method: 'get', path: '/api/albums/:id/photos', handler: (ctx) => listPhotos(s, ctx), cacheControl: PUBLIC_CACHE, doc: { summary: 'Photos of an album by sortOrder', tags, responses: { 200: PhotoList, 400: ErrorResponse, 404: ErrorResponse } } },
    {
      method: 'post', path: '/api/albums/:id/photos', handler: (ctx) => uploadPhotos(s, ctx), auth: 'admin', bodyLimit: IMAGE_UPLOAD_BODY_LIMIT,
      doc: {
        summary: 'Upload photos to an album', tags, body: PhotoUploadPayload, multipart: { files: 'file parts: one photo each, in order, whatever their field name', payloadOptional: true },
        description: 'Optional payload applied to every file; unknown member ids → 400; no file → 400; a file that is not a decodable image → 400 and nothing stored; over 20 MB → 413. Without sortOrder the photos follow the album\'s last one in the order sent. Stored as album/<id>/photos/<ms><n>.<format> with medium and thumb WebP variants.',
        responses: { 201: PhotoUploadResponse, 400: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse },
      },
    },
    {
      method: 'put', path: '/api/albums/:id/photos/:photoId', handler: (ctx) => editPhoto(s, ctx), auth: 'admin',
      doc: { summary: 'Update a photo’s concept, members or sort order (only the fields sent change)', tags, body: PhotoUpdatePayload, responses: { 200: Photo, 400: ErrorResponse, 404: ErrorResponse } },
    },
    { method: 'delete', path: '/api/albums/:id/photos/:photoId', handler: (ctx) => removePhotoRoute(s, ctx), auth: 'admin', doc: { summary: 'Delete a photo with its image record and files', tags, responses: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse } } },
    { method: 'get', path: '/api/albums/:id/teasers', handler: (ctx) => listTeasers(s, ctx), cacheControl: PUBLIC_CACHE, doc: { summary: 'Teasers of an album by sortOrder', tags, responses: { 200: TeaserList, 400: ErrorResponse, 404: ErrorResponse } } },
    {
      method: 'post', path: '/api/albums/:id/teasers', handler: (ctx) => uploadTeaser(s, ctx), auth: 'admin', bodyLimit: TEASER_UPLOAD_LIMITS.fileSize + MB,
      doc: {
        summary: 'Upload one teaser (image or video)', tags, body: TeaserUploadPayload, multipart: { files: 'one file part: the teaser, whatever its field name', payloadOptional: true },
        description:
          'The kind is decided by the file\'s bytes, not its name or declared type. An image (JPEG, PNG, WebP, GIF, AVIF; at most 20 MB) goes through the image pool: originalUrl is the original, thumbUrl the 400 px WebP. ' +
          'A video (MP4, MOV, WebM; at most 100 MB) is stored as uploaded with thumbUrl null: no frame-extraction tool is in the stack, so videos get no thumbnail. ' +
          'Anything else → 400 and nothing stored. Stored as album/<id>/teasers/<ms>.<ext>. Without sortOrder the teaser follows the album\'s last one.',
        responses: { 201: Teaser, 400: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse },
      },
    },
    { method: 'delete', path: '/api/albums/:id/teasers/:teaserId', handler: (ctx) => removeTeaserRoute(s, ctx), auth: 'admin', doc: { summary: 'Delete a teaser with its files', tags, responses: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse } } },
  ];
}
