// Album writes (api-service.md 4.3): albums with their tracks and cover, photos and teasers. Each
// operation owns its transaction, its files (stored inside it, removed again when it does not
// commit; those of deleted records removed after the commit) and the activity log. The routes
// validate the request and decode the images first, so a bad file stores nothing.
import type { Static } from '@sinclair/typebox';
import type { AlbumCreatePayload, AlbumUpdatePayload, PhotoUploadPayload, TeaserUploadPayload, TrackInput } from '../../schemas/albums.ts';
import type { ProcessedImage } from '../../workers/image-pool.ts';
import { pgErrorCode, type Tx } from '../db/database.ts';
import { logActivity, type ActivityEntry } from '../db/repositories/activity-log.ts';
import {
  deleteAlbum as deleteAlbumRows,
  deletePhoto,
  deleteTeaser,
  DUPLICATE_TITLE_CONSTRAINT,
  insertAlbum,
  insertPhoto,
  insertTeaser,
  keysUnder,
  lockAlbum,
  nextSortOrder,
  replaceTracks,
  updateAlbum as updateAlbumRow,
} from '../db/repositories/albums.ts';
import { deleteImages, insertImage, type StoredImage } from '../db/repositories/images.ts';
import { conflict, notFound } from '../errors.ts';
import { checkPrecondition, type Precondition } from '../precondition.ts';
import type { Services } from '../services.ts';
import { deleteFilesAfterCommit, storeVariants, variantKeys, withFileCleanup } from '../storage/image-files.ts';

export type TrackPayload = Static<typeof TrackInput>;
/** An album's fields as validated by the route: title trimmed and NFC, tracks checked. */
export type AlbumFields = Omit<Static<typeof AlbumCreatePayload>, 'title' | 'tracks'> & { title: string; tracks: TrackPayload[] };
export type AlbumChanges = Omit<Static<typeof AlbumUpdatePayload>, 'title' | 'tracks'> & { title: string | undefined; tracks: TrackPayload[] | undefined };

/** A teaser as uploaded: an image decoded by the pool, or a video stored as sent. */
export type TeaserUpload = { kind: 'image'; image: ProcessedImage } | { kind: 'video'; bytes: Uint8Array; contentType: string; extension: string };

export const albumNotFound = () => notFound('해당 앨범을 찾을 수 없습니다.');

const log = (tx: Tx, entry: Omit<ActivityEntry, 'actor' | 'category'>) => logActivity(tx, { actor: 'admin', category: 'album', ...entry });

/** A unique violation on the album title becomes 409. */
function duplicateTitleAsConflict(error: unknown): never {
  if (pgErrorCode(error) === '23505' && (error as { constraint?: string }).constraint === DUPLICATE_TITLE_CONSTRAINT) {
    throw conflict('같은 제목의 앨범이 이미 있습니다.', 'name_taken');
  }
  throw error;
}

/**
 * The millisecond that names new files in an album folder (`<ms>.<ext>`, `<ms><n>.<ext>`), moved on
 * while a stored file already starts with it: a replaced cover must never share its old file's name.
 * Called with the album row locked, so two writes to one album cannot pick the same one.
 */
async function fileStamp(s: Services, tx: Tx, folder: string): Promise<number> {
  const stems = (await keysUnder(tx, folder)).map((key) => key.slice(folder.length + 1));
  let stamp = s.clock.now();
  while (stems.some((stem) => stem.startsWith(String(stamp)))) stamp++;
  return stamp;
}

/** Stores the three variants as `<folder>/<name>.<format>` (named by the bytes' format) and records the image. */
async function storeImage(s: Services, tx: Tx, folder: string, name: string, image: ProcessedImage, written: string[]): Promise<{ id: number; stored: StoredImage }> {
  const stored = await storeVariants(s.storage, image, variantKeys(`${folder}/${name}.${image.format}`), written);
  return { id: await insertImage(tx, stored), stored };
}

/** A new cover in album/<id>/cover/; its image id. */
async function storeCover(s: Services, tx: Tx, albumId: number, cover: ProcessedImage, written: string[]): Promise<number> {
  const folder = `album/${albumId}/cover`;
  const { id } = await storeImage(s, tx, folder, String(await fileStamp(s, tx, folder)), cover, written);
  await updateAlbumRow(tx, albumId, { coverImageId: id });
  return id;
}

// ---- albums ------------------------------------------------------------------------------------

export async function createAlbum(s: Services, fields: AlbumFields, cover: ProcessedImage | undefined): Promise<number> {
  const { title, tracks } = fields;
  return withFileCleanup(s.storage, s.logger, (written) =>
    s.db.tx('album-create', async (tx) => {
      const albumId = await insertAlbum(tx, { title, albumType: fields.albumType, releaseDate: fields.releaseDate, description: fields.description });
      await replaceTracks(tx, albumId, tracks);
      if (cover) await storeCover(s, tx, albumId, cover, written);
      await log(tx, { action: 'create', targetType: 'album', targetId: albumId, summary: `앨범 '${title}' 등록` });
      return albumId;
    }),
  ).catch(duplicateTitleAsConflict);
}

/** Only the fields given change; a new cover replaces the old one (its record and files go). */
export async function updateAlbum(s: Services, id: number, changes: AlbumChanges, cover: ProcessedImage | undefined, precondition?: Precondition | null): Promise<void> {
  const { title, tracks } = changes;
  const replacedCoverKeys = await withFileCleanup(s.storage, s.logger, (written) =>
    s.db.tx('album-update', async (tx) => {
      // The cover to replace is read under the lock: of two updates with covers, the second drops the first's.
      const current = await lockAlbum(tx, id);
      if (!current) throw albumNotFound();
      checkPrecondition(precondition, current.version);
      await updateAlbumRow(tx, id, { title, albumType: changes.albumType, releaseDate: changes.releaseDate, description: changes.description });
      if (tracks) await replaceTracks(tx, id, tracks);
      let replaced: string[] = [];
      if (cover) {
        await storeCover(s, tx, id, cover, written);
        if (current.coverImageId !== null) replaced = await deleteImages(tx, [current.coverImageId]);
      }
      await log(tx, { action: 'update', targetType: 'album', targetId: id, summary: `앨범 '${title ?? current.title}' 수정` });
      return replaced;
    }),
  ).catch(duplicateTitleAsConflict);
  await deleteFilesAfterCommit(s.storage, s.logger, replacedCoverKeys);
}

/** Deletes the album with its tracks, photos, teasers, cover and all their files; false when there is none. */
export async function deleteAlbum(s: Services, id: number, precondition?: Precondition | null): Promise<boolean> {
  const deleted = await s.db.tx('album-delete', async (tx) => {
    const result = await deleteAlbumRows(tx, id, (version) => checkPrecondition(precondition, version));
    if (result) await log(tx, { action: 'delete', targetType: 'album', targetId: id, summary: `앨범 '${result.title}' 삭제` });
    return result;
  });
  if (!deleted) return false;
  await deleteFilesAfterCommit(s.storage, s.logger, deleted.keys);
  return true;
}

// ---- photos ------------------------------------------------------------------------------------

/** Adds the photos (album/<id>/photos/<ms><n>.<format>); their ids in the order given. */
export async function addPhotos(s: Services, albumId: number, payload: Static<typeof PhotoUploadPayload>, images: ProcessedImage[]): Promise<number[]> {
  return withFileCleanup(s.storage, s.logger, (written) =>
    s.db.tx('album-photos-upload', async (tx) => {
      if (!(await lockAlbum(tx, albumId))) throw albumNotFound();
      const folder = `album/${albumId}/photos`;
      const stamp = await fileStamp(s, tx, folder);
      // The payload applies to every file; without a sortOrder they follow the album's last photo, in the order sent.
      const firstSortOrder = payload.sortOrder ?? (await nextSortOrder(tx, 'album_photos', albumId));
      const ids: number[] = [];
      for (const [index, image] of images.entries()) {
        const { id: imageId } = await storeImage(s, tx, folder, `${stamp}${index + 1}`, image, written);
        const sortOrder = payload.sortOrder ?? firstSortOrder + index;
        ids.push(await insertPhoto(tx, albumId, imageId, { concept: payload.concept ?? null, memberIds: payload.memberIds ?? [], sortOrder }));
      }
      await log(tx, { action: 'create', targetType: 'album_photo', targetId: albumId, summary: `앨범 사진 ${ids.length}장 등록` });
      return ids;
    }),
  );
}

/**
 * Deletes one album entry (`remove` returns its files' keys, or null when there was none) with its
 * audit line in one transaction, then its files once committed; false when there was none.
 */
async function removeWithFiles(s: Services, name: string, remove: (tx: Tx) => Promise<string[] | null>, audit: Omit<ActivityEntry, 'actor' | 'category' | 'action'>): Promise<boolean> {
  const keys = await s.db.tx(name, async (tx) => {
    const deleted = await remove(tx);
    if (deleted) await log(tx, { action: 'delete', ...audit });
    return deleted;
  });
  if (!keys) return false;
  await deleteFilesAfterCommit(s.storage, s.logger, keys);
  return true;
}

/** Deletes a photo with its image record and files; false when the album has no such photo. */
export function removePhoto(s: Services, albumId: number, photoId: number): Promise<boolean> {
  return removeWithFiles(s, 'album-photo-delete', (tx) => deletePhoto(tx, albumId, photoId), { targetType: 'album_photo', targetId: photoId, summary: '앨범 사진 삭제' });
}

// ---- teasers -----------------------------------------------------------------------------------

/** Adds a teaser (album/<id>/teasers/<ms>.<ext>); a video is stored as uploaded, without a thumbnail. */
export async function addTeaser(s: Services, albumId: number, payload: Static<typeof TeaserUploadPayload>, teaser: TeaserUpload) {
  return withFileCleanup(s.storage, s.logger, (written) =>
    s.db.tx('album-teaser-upload', async (tx) => {
      if (!(await lockAlbum(tx, albumId))) throw albumNotFound();
      const folder = `album/${albumId}/teasers`;
      const stamp = await fileStamp(s, tx, folder);
      const sortOrder = payload.sortOrder ?? (await nextSortOrder(tx, 'album_teasers', albumId));
      let created;
      if (teaser.kind === 'image') {
        const { id: imageId, stored } = await storeImage(s, tx, folder, String(stamp), teaser.image, written);
        created = await insertTeaser(tx, albumId, { kind: 'image', imageId, originalKey: stored.originalKey, thumbKey: stored.thumbKey, sortOrder });
      } else {
        // Stored as uploaded: no frame-extraction tool is in the stack, so a video has no thumbnail.
        const key = `${folder}/${stamp}.${teaser.extension}`;
        await s.storage.put(key, teaser.bytes, teaser.contentType);
        written.push(key);
        created = await insertTeaser(tx, albumId, { kind: 'video', imageId: null, originalKey: key, thumbKey: null, sortOrder });
      }
      await log(tx, { action: 'create', targetType: 'album_teaser', targetId: created.id, summary: `앨범 티저(${created.kind}) 등록` });
      return created;
    }),
  );
}

/** Deletes a teaser with its files; false when the album has no such teaser. */
export function removeTeaser(s: Services, albumId: number, teaserId: number): Promise<boolean> {
  return removeWithFiles(s, 'album-teaser-delete', (tx) => deleteTeaser(tx, albumId, teaserId), { targetType: 'album_teaser', targetId: teaserId, summary: '앨범 티저 삭제' });
}
