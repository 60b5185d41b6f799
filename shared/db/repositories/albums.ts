// Albums, tracks, album photos and teasers (api-service.md 4.3) in the shapes of schemas/albums.ts.
import type { Static } from '@sinclair/typebox';
import type { Album, Photo, Teaser, TrackDetail, TrackInput } from '../../../schemas/albums.ts';
import type { Queryable } from '../database.ts';
import { deleteImages } from './images.ts';

export type AlbumRecord = Static<typeof Album>;
export type PhotoRecord = Static<typeof Photo>;
export type TeaserRecord = Static<typeof Teaser>;
export type TrackDetailRecord = Static<typeof TrackDetail>;

const COVER_JSON = `CASE WHEN i.id IS NULL THEN NULL
       ELSE json_build_object('originalUrl', storage_url(i.original_key), 'mediumUrl', storage_url(i.medium_key), 'thumbUrl', storage_url(i.thumb_key)) END`;

const TRACK_JSON = `json_build_object('id', t.id, 'trackNumber', t.track_number, 'title', t.title, 'isTitleTrack', t.is_title_track,
       'duration', t.duration, 'lyricist', t.lyricist, 'composer', t.composer, 'arranger', t.arranger, 'lyrics', t.lyrics,
       'musicVideoUrl', t.music_video_url)`;

const ALBUM_SELECT = `
  SELECT a.id, a.title, a.album_type AS "albumType", to_char(a.release_date, 'YYYY-MM-DD') AS "releaseDate",
         ${COVER_JSON} AS cover, a.description,
         COALESCE((SELECT json_agg(${TRACK_JSON} ORDER BY t.track_number) FROM tracks t WHERE t.album_id = a.id), '[]'::json) AS tracks
    FROM albums a LEFT JOIN images i ON i.id = a.cover_image_id`;

/** Newest release first; albums without a release date after the dated ones; then newest first. */
export const listAlbums = (db: Queryable) => db.any<AlbumRecord>(`${ALBUM_SELECT} ORDER BY a.release_date DESC NULLS LAST, a.id DESC`);

export const albumById = (db: Queryable, id: number) => db.oneOrNone<AlbumRecord>(`${ALBUM_SELECT} WHERE a.id = $1`, [id]);

export const albumByTitle = (db: Queryable, title: string) => db.oneOrNone<AlbumRecord>(`${ALBUM_SELECT} WHERE a.title = $1`, [title]);

export const albumExists = async (db: Queryable, id: number) => (await db.oneOrNone('SELECT 1 FROM albums WHERE id = $1', [id])) !== null;

/** Locks the album row for the rest of the transaction (writes to one album run one at a time); null when absent. */
export const lockAlbum = (db: Queryable, id: number) =>
  db.oneOrNone<{ title: string; coverImageId: number | null; version: number }>('SELECT title, cover_image_id AS "coverImageId", version FROM albums WHERE id = $1 FOR UPDATE', [id]);

/** An album's version (its ETag), or null when there is none. */
export const albumVersion = async (db: Queryable, id: number) => (await db.oneOrNone<{ version: number }>('SELECT version FROM albums WHERE id = $1', [id]))?.version ?? null;

/** A track with its album and neighbours by track number; `track` null when the album has no such track; null when no album has the title. */
export type TrackLookup = Omit<TrackDetailRecord, 'track'> & { track: TrackDetailRecord['track'] | null };

export async function trackOfAlbum(db: Queryable, albumTitle: string, trackTitle: string): Promise<TrackLookup | null> {
  const row = await db.oneOrNone<{ id: number; title: string; cover: TrackDetailRecord['album']['cover'] } & Omit<TrackLookup, 'album'>>(
    `SELECT a.id, a.title, ${COVER_JSON} AS cover, tr.track, tr."prevTrack", tr."nextTrack"
       FROM albums a
       LEFT JOIN images i ON i.id = a.cover_image_id
       LEFT JOIN LATERAL (
         SELECT ${TRACK_JSON} AS track,
                (SELECT json_build_object('title', p.title) FROM tracks p WHERE p.album_id = a.id AND p.track_number < t.track_number
                  ORDER BY p.track_number DESC LIMIT 1) AS "prevTrack",
                (SELECT json_build_object('title', n.title) FROM tracks n WHERE n.album_id = a.id AND n.track_number > t.track_number
                  ORDER BY n.track_number LIMIT 1) AS "nextTrack"
           FROM tracks t WHERE t.album_id = a.id AND t.title = $2
          ORDER BY t.track_number LIMIT 1
       ) tr ON true
      WHERE a.title = $1`,
    [albumTitle, trackTitle],
  );
  if (!row) return null;
  return { album: { id: row.id, title: row.title, cover: row.cover }, track: row.track, prevTrack: row.prevTrack ?? null, nextTrack: row.nextTrack ?? null };
}

export interface AlbumFields {
  title?: string;
  albumType?: string;
  releaseDate?: string | null;
  description?: string | null;
  coverImageId?: number;
}

const ALBUM_COLUMN: Record<keyof AlbumFields, string> = {
  title: 'title',
  albumType: 'album_type',
  releaseDate: 'release_date',
  description: 'description',
  coverImageId: 'cover_image_id',
};

export const DUPLICATE_TITLE_CONSTRAINT = 'albums_title_key';

export async function insertAlbum(db: Queryable, fields: AlbumFields & { title: string }): Promise<number> {
  const row = await db.one<{ id: number }>(
    'INSERT INTO albums (title, album_type, release_date, description) VALUES ($1, $2, $3, $4) RETURNING id',
    [fields.title, fields.albumType ?? '', fields.releaseDate ?? null, fields.description ?? null],
  );
  return row.id;
}

/** Applies the fields that are not undefined; with none, the row is still updated, so its version moves (its tracks changed). */
export async function updateAlbum(db: Queryable, id: number, fields: AlbumFields): Promise<void> {
  const keys = (Object.keys(fields) as Array<keyof AlbumFields>).filter((key) => fields[key] !== undefined);
  const sets = keys.length === 0 ? ['version = version'] : keys.map((key, index) => `${ALBUM_COLUMN[key]} = $${index + 2}`);
  await db.none(`UPDATE albums SET ${sets.join(', ')} WHERE id = $1`, [id, ...keys.map((key) => fields[key])]);
}

/** Deletes every track of the album and inserts these instead. */
export async function replaceTracks(db: Queryable, albumId: number, tracks: Array<Static<typeof TrackInput>>): Promise<void> {
  await db.none('DELETE FROM tracks WHERE album_id = $1', [albumId]);
  if (tracks.length === 0) return;
  await db.none(
    `INSERT INTO tracks (album_id, track_number, title, is_title_track, duration, lyricist, composer, arranger, lyrics, music_video_url)
     SELECT $1, t."trackNumber", t.title, COALESCE(t."isTitleTrack", false), t.duration, t.lyricist, t.composer, t.arranger, t.lyrics, t."musicVideoUrl"
       FROM json_to_recordset($2::json) AS t("trackNumber" integer, title text, "isTitleTrack" boolean, duration text, lyricist text,
                                             composer text, arranger text, lyrics text, "musicVideoUrl" text)`,
    [albumId, JSON.stringify(tracks)],
  );
}

/** Deletes the album with its tracks, photos, teasers and cover; returns the storage keys of all their files, or null when absent. */
export async function deleteAlbum(db: Queryable, id: number, check: (version: number) => void = () => {}): Promise<{ title: string; keys: string[] } | null> {
  const album = await lockAlbum(db, id);
  if (!album) return null;
  check(album.version);
  // Read after the lock: photos a write added while this one waited are among them.
  const photos = await db.any<{ image_id: number }>('SELECT image_id FROM album_photos WHERE album_id = $1', [id]);
  const teasers = await db.any<{ image_id: number | null; original_key: string }>('SELECT image_id, original_key FROM album_teasers WHERE album_id = $1', [id]);
  // Tracks, photos and teasers go with the album (ON DELETE CASCADE); their image records after them.
  await db.none('DELETE FROM albums WHERE id = $1', [id]);
  const imageIds = [album.coverImageId, ...photos.map((photo) => photo.image_id), ...teasers.map((teaser) => teaser.image_id)];
  const imageKeys = await deleteImages(db, imageIds.filter((imageId): imageId is number => imageId !== null));
  const videoKeys = teasers.filter((teaser) => teaser.image_id === null).map((teaser) => teaser.original_key);
  return { title: album.title, keys: [...imageKeys, ...videoKeys] };
}

/**
 * Original keys already stored under a folder of the album (images and teaser videos), so that a new
 * file named from the current millisecond never takes the name of an existing one.
 */
export async function keysUnder(db: Queryable, folder: string): Promise<string[]> {
  const rows = await db.any<{ key: string }>(
    `SELECT original_key AS key FROM images WHERE starts_with(original_key, $1)
     UNION SELECT original_key FROM album_teasers WHERE starts_with(original_key, $1)`,
    [`${folder}/`],
  );
  return rows.map((row) => row.key);
}

// ---- photos ------------------------------------------------------------------------------------

const PHOTO_SELECT = `
  SELECT p.id, p.concept, storage_url(i.original_key) AS "originalUrl", storage_url(i.medium_key) AS "mediumUrl", storage_url(i.thumb_key) AS "thumbUrl",
         i.width, i.height, p.member_ids AS "memberIds", p.sort_order AS "sortOrder"
    FROM album_photos p JOIN images i ON i.id = p.image_id`;

export const photosOfAlbum = (db: Queryable, albumId: number) => db.any<PhotoRecord>(`${PHOTO_SELECT} WHERE p.album_id = $1 ORDER BY p.sort_order, p.id`, [albumId]);

export const photosByIds = (db: Queryable, ids: number[]) => db.any<PhotoRecord>(`${PHOTO_SELECT} WHERE p.id = ANY($1::int[]) ORDER BY p.sort_order, p.id`, [ids]);

export const photoOfAlbum = (db: Queryable, albumId: number, photoId: number) =>
  db.oneOrNone<PhotoRecord>(`${PHOTO_SELECT} WHERE p.album_id = $1 AND p.id = $2`, [albumId, photoId]);

/** The sort order after the album's last photo or teaser (1 for the first). */
export const nextSortOrder = async (db: Queryable, table: 'album_photos' | 'album_teasers', albumId: number) =>
  (await db.one<{ next: number }>('SELECT COALESCE(max(sort_order) + 1, 1) AS next FROM $1:name WHERE album_id = $2', [table, albumId])).next;

export interface PhotoFields {
  concept?: string | null;
  memberIds?: number[];
  sortOrder?: number;
}

export async function insertPhoto(db: Queryable, albumId: number, imageId: number, fields: Required<PhotoFields>): Promise<number> {
  const row = await db.one<{ id: number }>(
    'INSERT INTO album_photos (album_id, image_id, concept, member_ids, sort_order) VALUES ($1, $2, $3, $4::int[], $5) RETURNING id',
    [albumId, imageId, fields.concept, fields.memberIds, fields.sortOrder],
  );
  return row.id;
}

const PHOTO_COLUMN: Record<keyof PhotoFields, string> = { concept: 'concept', memberIds: 'member_ids', sortOrder: 'sort_order' };

/** Applies the fields that are not undefined to the album's photo. */
export async function updatePhoto(db: Queryable, albumId: number, photoId: number, fields: PhotoFields): Promise<void> {
  const keys = (Object.keys(fields) as Array<keyof PhotoFields>).filter((key) => fields[key] !== undefined);
  if (keys.length === 0) return;
  const sets = keys.map((key, index) => `${PHOTO_COLUMN[key]} = $${index + 3}`);
  await db.none(`UPDATE album_photos SET ${sets.join(', ')} WHERE album_id = $1 AND id = $2`, [albumId, photoId, ...keys.map((key) => fields[key])]);
}

/** Deletes the album's photo and its image record; returns the keys of its files, or null when the album has no such photo. */
export async function deletePhoto(db: Queryable, albumId: number, photoId: number): Promise<string[] | null> {
  if (!(await lockAlbum(db, albumId))) return null; // the album first, as every album write
  const row = await db.oneOrNone<{ image_id: number }>('DELETE FROM album_photos WHERE album_id = $1 AND id = $2 RETURNING image_id', [albumId, photoId]);
  if (!row) return null;
  return deleteImages(db, [row.image_id]);
}

// ---- teasers -----------------------------------------------------------------------------------

const TEASER_COLUMNS = 'id, kind, storage_url(original_key) AS "originalUrl", storage_url(thumb_url) AS "thumbUrl", sort_order AS "sortOrder"';
const TEASER_SELECT = `SELECT ${TEASER_COLUMNS} FROM album_teasers`;

export const teasersOfAlbum = (db: Queryable, albumId: number) => db.any<TeaserRecord>(`${TEASER_SELECT} WHERE album_id = $1 ORDER BY sort_order, id`, [albumId]);

export interface TeaserFields {
  kind: TeaserRecord['kind'];
  /** The image record of an image teaser; null for a video. */
  imageId: number | null;
  originalKey: string;
  /** The image's thumbnail key; null for a video (no frame extraction). */
  thumbKey: string | null;
  sortOrder: number;
}

export async function insertTeaser(db: Queryable, albumId: number, teaser: TeaserFields): Promise<TeaserRecord> {
  return db.one<TeaserRecord>(
    `INSERT INTO album_teasers (album_id, kind, image_id, original_url, original_key, thumb_url, sort_order)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING ${TEASER_COLUMNS}`,
    [albumId, teaser.kind, teaser.imageId, teaser.originalKey, teaser.originalKey, teaser.thumbKey, teaser.sortOrder],
  );
}

/** Deletes the album's teaser (and its image record); returns the keys of its files, or null when the album has no such teaser. */
export async function deleteTeaser(db: Queryable, albumId: number, teaserId: number): Promise<string[] | null> {
  if (!(await lockAlbum(db, albumId))) return null; // the album first, as every album write
  const row = await db.oneOrNone<{ image_id: number | null; original_key: string }>(
    'DELETE FROM album_teasers WHERE album_id = $1 AND id = $2 RETURNING image_id, original_key',
    [albumId, teaserId],
  );
  if (!row) return null;
  return row.image_id === null ? [row.original_key] : deleteImages(db, [row.image_id]);
}
