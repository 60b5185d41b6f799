// Albums, /api/albums (api-service.md 4.3; decisions.md "Members and albums"): albums with their
// tracks and cover, album photos and teasers. Writes need an administrator token.
import type { Static } from '@sinclair/typebox';
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
  TrackInput,
} from '../../schemas/albums.ts';
import { ErrorResponse, SuccessResponse } from '../../schemas/common.ts';
import { compile } from '../../schemas/validate.ts';
import { pgErrorCode, type Tx } from '../../shared/db/database.ts';
import { logActivity } from '../../shared/db/repositories/activity-log.ts';
import {
  albumById,
  albumByTitle,
  albumExists,
  deleteAlbum,
  deletePhoto,
  deleteTeaser,
  DUPLICATE_TITLE_CONSTRAINT,
  insertAlbum,
  insertPhoto,
  insertTeaser,
  keysUnder,
  listAlbums,
  lockAlbum,
  nextSortOrder,
  photoOfAlbum,
  photosByIds,
  photosOfAlbum,
  replaceTracks,
  teasersOfAlbum,
  trackOfAlbum,
  updateAlbum,
  updatePhoto,
} from '../../shared/db/repositories/albums.ts';
import { deleteImages, insertImage, type StoredImage } from '../../shared/db/repositories/images.ts';
import { badRequest, conflict, HttpError, notFound } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { extensionForContentType, sniffContentType } from '../../shared/storage/content-type.ts';
import type { ProcessedImage } from '../../workers/image-pool.ts';
import { reply, type Context } from '../context.ts';
import { IMAGE_UPLOAD_BODY_LIMIT, IMAGE_UPLOAD_LIMITS, payloadOf, readMultipart, type MultipartBody, type MultipartLimits, type UploadedFile } from '../multipart.ts';
import { assertMembersExist, parseId } from '../params.ts';
import type { Route } from '../router.ts';
import { deleteFilesAfterCommit, storeVariants, variantKeys, withFileCleanup } from '../../shared/storage/image-files.ts';
import { processUploads } from '../uploads.ts';

const createPayload = compile(AlbumCreatePayload);
const updatePayload = compile(AlbumUpdatePayload);
const photoUploadPayload = compile(PhotoUploadPayload);
const photoUpdatePayload = compile(PhotoUpdatePayload);
const teaserUploadPayload = compile(TeaserUploadPayload);

const MB = 1024 * 1024;
const ALBUM_UPLOAD_LIMITS: MultipartLimits = { ...IMAGE_UPLOAD_LIMITS, files: 1 };
const TEASER_UPLOAD_LIMITS: MultipartLimits = { ...IMAGE_UPLOAD_LIMITS, fileSize: 100 * MB, files: 1 };
const PUBLIC_CACHE = 'public, max-age=60';

const albumNotFound = () => notFound('해당 앨범을 찾을 수 없습니다.');
const photoNotFound = () => notFound('이 앨범에서 해당 사진을 찾을 수 없습니다.');
const teaserNotFound = () => notFound('이 앨범에서 해당 티저를 찾을 수 없습니다.');

type TrackPayload = Static<typeof TrackInput>;

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

/** A unique violation on the album title becomes 409. */
function duplicateTitleAsConflict(error: unknown): never {
  if (pgErrorCode(error) === '23505' && (error as { constraint?: string }).constraint === DUPLICATE_TITLE_CONSTRAINT) {
    throw conflict('같은 제목의 앨범이 이미 있습니다.');
  }
  throw error;
}

export function albumRoutes(s: Services): Route[] {
  const withCleanup = <T>(work: (written: string[]) => Promise<T>) => withFileCleanup(s.storage, s.logger, work);
  const deleteFiles = (keys: string[]) => deleteFilesAfterCommit(s.storage, s.logger, keys);

  /**
   * The millisecond that names new files in an album folder (`<ms>.<ext>`, `<ms><n>.<ext>`), moved on
   * while a stored file already starts with it: a replaced cover must never share its old file's name.
   * Called with the album row locked, so two writes to one album cannot pick the same one.
   */
  async function fileStamp(tx: Tx, folder: string): Promise<number> {
    const stems = (await keysUnder(tx, folder)).map((key) => key.slice(folder.length + 1));
    let stamp = s.clock.now();
    while (stems.some((stem) => stem.startsWith(String(stamp)))) stamp++;
    return stamp;
  }

  /** Stores the three variants as `<folder>/<name>.<format>` (named by the bytes' format) and records the image. */
  async function storeImage(tx: Tx, folder: string, name: string, image: ProcessedImage, written: string[]): Promise<{ id: number; stored: StoredImage }> {
    const stored = await storeVariants(s.storage, image, variantKeys(`${folder}/${name}.${image.format}`), written);
    return { id: await insertImage(tx, stored), stored };
  }

  // ---- albums ----------------------------------------------------------------------------------

  async function albumOr404(id: number) {
    const album = await albumById(s.db, id);
    if (!album) throw albumNotFound();
    return album;
  }

  const byId = async (ctx: Context) => reply(await albumOr404(parseId(ctx.params.id)));

  async function byName(ctx: Context) {
    const album = await albumByTitle(s.db, ctx.params.name!);
    if (!album) throw notFound('해당 이름의 앨범을 찾을 수 없습니다.');
    return reply(album);
  }

  async function track(ctx: Context) {
    const found = await trackOfAlbum(s.db, ctx.params.name!, ctx.params.trackTitle!);
    if (!found) throw notFound('해당 이름의 앨범을 찾을 수 없습니다.');
    if (!found.track) throw notFound('이 앨범에서 해당 제목의 트랙을 찾을 수 없습니다.');
    return reply({ ...found, track: found.track });
  }

  async function create(ctx: Context) {
    const body = await readMultipart(ctx, ALBUM_UPLOAD_LIMITS);
    const raw = payloadOf(body);
    if (raw === undefined) throw badRequest("'payload' 항목이 없습니다.");
    const payload = createPayload.parse(raw);
    const title = cleanTitle(payload.title, 'title');
    const tracks = checkTracks(payload.tracks ?? []);
    const coverFile = coverFileOf(body);
    const [cover] = await processUploads(s.images, coverFile ? [coverFile] : []);

    const id = await withCleanup((written) =>
      s.db.tx('album-create', async (tx) => {
        const albumId = await insertAlbum(tx, { title, albumType: payload.albumType, releaseDate: payload.releaseDate, description: payload.description });
        await replaceTracks(tx, albumId, tracks);
        if (cover) {
          const folder = `album/${albumId}/cover`;
          const { id: coverImageId } = await storeImage(tx, folder, String(await fileStamp(tx, folder)), cover, written);
          await updateAlbum(tx, albumId, { coverImageId });
        }
        await logActivity(tx, { actor: 'admin', action: 'create', category: 'album', targetType: 'album', targetId: albumId, summary: `앨범 '${title}' 등록` });
        return albumId;
      }),
    ).catch(duplicateTitleAsConflict);
    return reply(await albumOr404(id), 201);
  }

  async function update(ctx: Context) {
    const id = parseId(ctx.params.id);
    const body = await readMultipart(ctx, ALBUM_UPLOAD_LIMITS);
    const raw = payloadOf(body);
    if (raw === undefined) throw badRequest("'payload' 항목이 없습니다.");
    const payload = updatePayload.parse(raw);
    const title = payload.title === undefined ? undefined : cleanTitle(payload.title, 'title');
    const tracks = payload.tracks === undefined ? undefined : checkTracks(payload.tracks);
    const coverFile = coverFileOf(body);
    if (!(await albumExists(s.db, id))) throw albumNotFound();
    const [cover] = await processUploads(s.images, coverFile ? [coverFile] : []);

    const replacedCoverKeys = await withCleanup((written) =>
      s.db.tx('album-update', async (tx) => {
        const current = await lockAlbum(tx, id);
        if (!current) throw albumNotFound();
        await updateAlbum(tx, id, { title, albumType: payload.albumType, releaseDate: payload.releaseDate, description: payload.description });
        if (tracks) await replaceTracks(tx, id, tracks);
        let replaced: string[] = [];
        if (cover) {
          const folder = `album/${id}/cover`;
          const { id: coverImageId } = await storeImage(tx, folder, String(await fileStamp(tx, folder)), cover, written);
          await updateAlbum(tx, id, { coverImageId });
          if (current.coverImageId !== null) replaced = await deleteImages(tx, [current.coverImageId]);
        }
        await logActivity(tx, { actor: 'admin', action: 'update', category: 'album', targetType: 'album', targetId: id, summary: `앨범 '${title ?? current.title}' 수정` });
        return replaced;
      }),
    ).catch(duplicateTitleAsConflict);
    await deleteFiles(replacedCoverKeys);
    return reply(await albumOr404(id));
  }

  async function remove(ctx: Context) {
    const id = parseId(ctx.params.id);
    const deleted = await s.db.tx('album-delete', async (tx) => {
      const result = await deleteAlbum(tx, id);
      if (result) await logActivity(tx, { actor: 'admin', action: 'delete', category: 'album', targetType: 'album', targetId: id, summary: `앨범 '${result.title}' 삭제` });
      return result;
    });
    if (!deleted) throw albumNotFound();
    await deleteFiles(deleted.keys);
    return reply({ success: true });
  }

  // ---- photos ----------------------------------------------------------------------------------

  async function listPhotos(ctx: Context) {
    const albumId = parseId(ctx.params.id);
    if (!(await albumExists(s.db, albumId))) throw albumNotFound();
    return reply(await photosOfAlbum(s.db, albumId));
  }

  async function uploadPhotos(ctx: Context) {
    const albumId = parseId(ctx.params.id);
    const body = await readMultipart(ctx, IMAGE_UPLOAD_LIMITS);
    const raw = payloadOf(body);
    const payload = raw === undefined ? {} : photoUploadPayload.parse(raw);
    if (body.files.length === 0) throw badRequest('사진 파일이 없습니다.');
    if (!(await albumExists(s.db, albumId))) throw albumNotFound();
    await assertMembersExist(s.db, payload.memberIds);
    const images = await processUploads(s.images, body.files);

    const photoIds = await withCleanup((written) =>
      s.db.tx('album-photos-upload', async (tx) => {
        if (!(await lockAlbum(tx, albumId))) throw albumNotFound();
        const folder = `album/${albumId}/photos`;
        const stamp = await fileStamp(tx, folder);
        // The payload applies to every file; without a sortOrder they follow the album's last photo, in the order sent.
        const firstSortOrder = payload.sortOrder ?? (await nextSortOrder(tx, 'album_photos', albumId));
        const ids: number[] = [];
        for (const [index, image] of images.entries()) {
          const { id: imageId } = await storeImage(tx, folder, `${stamp}${index + 1}`, image, written);
          const sortOrder = payload.sortOrder ?? firstSortOrder + index;
          ids.push(await insertPhoto(tx, albumId, imageId, { concept: payload.concept ?? null, memberIds: payload.memberIds ?? [], sortOrder }));
        }
        await logActivity(tx, { actor: 'admin', action: 'create', category: 'album', targetType: 'album_photo', targetId: albumId, summary: `앨범 사진 ${ids.length}장 등록` });
        return ids;
      }),
    );
    return reply({ photos: await photosByIds(s.db, photoIds) }, 201);
  }

  async function editPhoto(ctx: Context) {
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

  async function removePhoto(ctx: Context) {
    const albumId = parseId(ctx.params.id);
    const photoId = parseId(ctx.params.photoId, 'photoId');
    const keys = await s.db.tx('album-photo-delete', async (tx) => {
      const deleted = await deletePhoto(tx, albumId, photoId);
      if (deleted) await logActivity(tx, { actor: 'admin', action: 'delete', category: 'album', targetType: 'album_photo', targetId: photoId, summary: '앨범 사진 삭제' });
      return deleted;
    });
    if (!keys) throw photoNotFound();
    await deleteFiles(keys);
    return reply({ success: true });
  }

  // ---- teasers ---------------------------------------------------------------------------------

  async function listTeasers(ctx: Context) {
    const albumId = parseId(ctx.params.id);
    if (!(await albumExists(s.db, albumId))) throw albumNotFound();
    return reply(await teasersOfAlbum(s.db, albumId));
  }

  async function uploadTeaser(ctx: Context) {
    const albumId = parseId(ctx.params.id);
    const body = await readMultipart(ctx, TEASER_UPLOAD_LIMITS);
    const raw = payloadOf(body);
    const payload = raw === undefined ? {} : teaserUploadPayload.parse(raw);
    const [file] = body.files;
    if (!file) throw badRequest('티저 파일이 없습니다.');
    // The kind comes from the bytes, never from the file name or the declared type.
    const contentType = sniffContentType(file.bytes);
    const videoExtension = contentType?.startsWith('video/') ? extensionForContentType(contentType) : null;
    if (!contentType || (!videoExtension && !contentType.startsWith('image/'))) {
      throw badRequest(`'${file.fileName.slice(0, 100)}': 이미지 또는 동영상(mp4, mov, webm) 파일이 아닙니다.`);
    }
    if (!videoExtension && file.bytes.length > IMAGE_UPLOAD_LIMITS.fileSize) {
      throw new HttpError(413, `이미지 파일 하나의 크기는 ${IMAGE_UPLOAD_LIMITS.fileSize / MB}MB 이하여야 합니다.`);
    }
    if (!(await albumExists(s.db, albumId))) throw albumNotFound();
    const [image] = videoExtension ? [] : await processUploads(s.images, [file]);

    const teaser = await withCleanup((written) =>
      s.db.tx('album-teaser-upload', async (tx) => {
        if (!(await lockAlbum(tx, albumId))) throw albumNotFound();
        const folder = `album/${albumId}/teasers`;
        const stamp = await fileStamp(tx, folder);
        const sortOrder = payload.sortOrder ?? (await nextSortOrder(tx, 'album_teasers', albumId));
        let created;
        if (image) {
          const { id: imageId, stored } = await storeImage(tx, folder, String(stamp), image, written);
          created = await insertTeaser(tx, albumId, { kind: 'image', imageId, originalKey: stored.originalKey, thumbKey: stored.thumbKey, sortOrder });
        } else {
          // Stored as uploaded: no frame-extraction tool is in the stack, so a video has no thumbnail.
          const key = `${folder}/${stamp}.${videoExtension}`;
          await s.storage.put(key, file.bytes, contentType);
          written.push(key);
          created = await insertTeaser(tx, albumId, { kind: 'video', imageId: null, originalKey: key, thumbKey: null, sortOrder });
        }
        await logActivity(tx, { actor: 'admin', action: 'create', category: 'album', targetType: 'album_teaser', targetId: created.id, summary: `앨범 티저(${created.kind}) 등록` });
        return created;
      }),
    );
    return reply(teaser, 201);
  }

  async function removeTeaser(ctx: Context) {
    const albumId = parseId(ctx.params.id);
    const teaserId = parseId(ctx.params.teaserId, 'teaserId');
    const keys = await s.db.tx('album-teaser-delete', async (tx) => {
      const deleted = await deleteTeaser(tx, albumId, teaserId);
      if (deleted) await logActivity(tx, { actor: 'admin', action: 'delete', category: 'album', targetType: 'album_teaser', targetId: teaserId, summary: '앨범 티저 삭제' });
      return deleted;
    });
    if (!keys) throw teaserNotFound();
    await deleteFiles(keys);
    return reply({ success: true });
  }

  const tags = ['albums'];
  const albumWriteRules =
    'Title: trimmed, Unicode NFC, unique (409 when another album has it). Tracks: unique positive trackNumbers and unique titles, else 400. ' +
    'A cover file that is not a decodable image → 400 and nothing stored; over 20 MB or the pixel limit → 413. Cover stored as album/<id>/cover/<ms>.<format> with medium and thumb WebP variants.';
  return [
    { method: 'get', path: '/api/albums', handler: async () => reply(await listAlbums(s.db)), cacheControl: PUBLIC_CACHE, doc: { summary: 'Albums with their tracks, newest release first', tags, responses: { 200: AlbumList } } },
    { method: 'get', path: '/api/albums/by-name/:name', handler: byName, cacheControl: PUBLIC_CACHE, doc: { summary: 'An album by its title (percent-encoded; Hangul and spaces allowed)', tags, responses: { 200: Album, 404: ErrorResponse } } },
    {
      // The router needs one parameter name per position: `:name` here is the spec's `:albumName`.
      method: 'get', path: '/api/albums/by-name/:name/track/:trackTitle', handler: track, cacheControl: PUBLIC_CACHE,
      doc: { summary: 'One track by album title and track title, with the previous and next track by track number', tags, responses: { 200: TrackDetail, 404: ErrorResponse } },
    },
    { method: 'get', path: '/api/albums/:id', handler: byId, cacheControl: PUBLIC_CACHE, doc: { summary: 'An album by id', tags, responses: { 200: Album, 400: ErrorResponse, 404: ErrorResponse } } },
    {
      method: 'post', path: '/api/albums', handler: create, auth: 'admin', bodyLimit: ALBUM_UPLOAD_LIMITS.fileSize + MB,
      doc: { summary: 'Create an album', tags, body: AlbumCreatePayload, multipart: { files: 'optional `cover` file part: the cover image' }, description: `No payload → 400; title required. ${albumWriteRules}`, responses: { 201: Album, 400: ErrorResponse, 409: ErrorResponse, 413: ErrorResponse } },
    },
    {
      method: 'put', path: '/api/albums/:id', handler: update, auth: 'admin', bodyLimit: ALBUM_UPLOAD_LIMITS.fileSize + MB,
      doc: { summary: 'Update an album', tags, body: AlbumUpdatePayload, multipart: { files: 'optional `cover` file part: replaces the cover (the old image record and files are removed)' }, description: `No payload → 400; unknown album → 404. Only the fields sent change; \`tracks\`, when sent, replaces every track. ${albumWriteRules}`, responses: { 200: Album, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 413: ErrorResponse } },
    },
    { method: 'delete', path: '/api/albums/:id', handler: remove, auth: 'admin', doc: { summary: 'Delete an album with its tracks, photos, teasers and cover, and all their files', tags, responses: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse } } },
    { method: 'get', path: '/api/albums/:id/photos', handler: listPhotos, cacheControl: PUBLIC_CACHE, doc: { summary: 'Photos of an album by sortOrder', tags, responses: { 200: PhotoList, 400: ErrorResponse, 404: ErrorResponse } } },
    {
      method: 'post', path: '/api/albums/:id/photos', handler: uploadPhotos, auth: 'admin', bodyLimit: IMAGE_UPLOAD_BODY_LIMIT,
      doc: {
        summary: 'Upload photos to an album', tags, body: PhotoUploadPayload, multipart: { files: 'file parts: one photo each, in order, whatever their field name' },
        description: 'Optional payload applied to every file; unknown member ids → 400; no file → 400; a file that is not a decodable image → 400 and nothing stored; over 20 MB → 413. Without sortOrder the photos follow the album\'s last one in the order sent. Stored as album/<id>/photos/<ms><n>.<format> with medium and thumb WebP variants.',
        responses: { 201: PhotoUploadResponse, 400: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse },
      },
    },
    {
      method: 'put', path: '/api/albums/:id/photos/:photoId', handler: editPhoto, auth: 'admin',
      doc: { summary: 'Update a photo’s concept, members or sort order (only the fields sent change)', tags, body: PhotoUpdatePayload, responses: { 200: Photo, 400: ErrorResponse, 404: ErrorResponse } },
    },
    { method: 'delete', path: '/api/albums/:id/photos/:photoId', handler: removePhoto, auth: 'admin', doc: { summary: 'Delete a photo with its image record and files', tags, responses: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse } } },
    { method: 'get', path: '/api/albums/:id/teasers', handler: listTeasers, cacheControl: PUBLIC_CACHE, doc: { summary: 'Teasers of an album by sortOrder', tags, responses: { 200: TeaserList, 400: ErrorResponse, 404: ErrorResponse } } },
    {
      method: 'post', path: '/api/albums/:id/teasers', handler: uploadTeaser, auth: 'admin', bodyLimit: TEASER_UPLOAD_LIMITS.fileSize + MB,
      doc: {
        summary: 'Upload one teaser (image or video)', tags, body: TeaserUploadPayload, multipart: { files: 'one file part: the teaser, whatever its field name' },
        description:
          'The kind is decided by the file\'s bytes, not its name or declared type. An image (JPEG, PNG, WebP, GIF, AVIF; at most 20 MB) goes through the image pool: originalUrl is the original, thumbUrl the 400 px WebP. ' +
          'A video (MP4, MOV, WebM; at most 100 MB) is stored as uploaded with thumbUrl null: no frame-extraction tool is in the stack, so videos get no thumbnail. ' +
          'Anything else → 400 and nothing stored. Stored as album/<id>/teasers/<ms>.<ext>. Without sortOrder the teaser follows the album\'s last one.',
        responses: { 201: Teaser, 400: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse },
      },
    },
    { method: 'delete', path: '/api/albums/:id/teasers/:teaserId', handler: removeTeaser, auth: 'admin', doc: { summary: 'Delete a teaser with its files', tags, responses: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse } } },
  ];
}
