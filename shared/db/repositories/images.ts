// Image records (api-service.md 2.4): three URLs and the storage keys behind them.
import type { Queryable } from '../database.ts';

export interface StoredImage {
  originalUrl: string;
  mediumUrl: string;
  thumbUrl: string;
  originalKey: string;
  mediumKey: string;
  thumbKey: string;
  width: number;
  height: number;
}

export interface ImageUrls {
  id: number;
  originalUrl: string;
  mediumUrl: string;
  thumbUrl: string;
}

export async function insertImage(db: Queryable, image: StoredImage): Promise<number> {
  const row = await db.one<{ id: number }>(
    `INSERT INTO images (original_url, medium_url, thumb_url, original_key, medium_key, thumb_key, width, height)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [image.originalKey, image.mediumKey, image.thumbKey, image.originalKey, image.mediumKey, image.thumbKey, image.width, image.height],
  );
  return row.id;
}

/**
 * Image records for a schedule's posters and their links at `firstPosition`, `firstPosition + 1`, …
 * in one statement (one round trip per upload, not two per poster); returns the ids in the order given.
 */
export async function insertScheduleImages(db: Queryable, scheduleId: number, images: StoredImage[], firstPosition: number): Promise<number[]> {
  if (images.length === 0) return [];
  const rows = await db.any<{ image_id: number; position: number }>(...scheduleImagesInsert(scheduleId, images, firstPosition));
  return rows.sort((a, b) => a.position - b.position).map((row) => row.image_id);
}

/** The statement of insertScheduleImages and its values, for a WriteBatch (`batch.none(...scheduleImagesInsert(…))`). */
export function scheduleImagesInsert(scheduleId: number, images: StoredImage[], firstPosition: number): [string, unknown[]] {
  return [
    `WITH posters AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::int[]) WITH ORDINALITY AS p(original_key, medium_key, thumb_key, width, height, n)
     ), inserted AS (
       INSERT INTO images (original_url, medium_url, thumb_url, original_key, medium_key, thumb_key, width, height)
       SELECT original_key, medium_key, thumb_key, original_key, medium_key, thumb_key, width, height FROM posters ORDER BY n
       RETURNING id, original_key
     )
     INSERT INTO schedule_images (schedule_id, image_id, position)
     SELECT $1, inserted.id, $7 + posters.n - 1 FROM inserted JOIN posters USING (original_key)
     RETURNING image_id, position`,
    [
      scheduleId,
      images.map((image) => image.originalKey),
      images.map((image) => image.mediumKey),
      images.map((image) => image.thumbKey),
      images.map((image) => image.width),
      images.map((image) => image.height),
      firstPosition,
    ],
  ];
}

/** Deletes the records and returns their storage keys, to delete the files after the commit. */
export async function deleteImages(db: Queryable, ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.any<{ original_key: string; medium_key: string; thumb_key: string }>(
    'DELETE FROM images WHERE id = ANY($1::int[]) RETURNING original_key, medium_key, thumb_key',
    [ids],
  );
  return rows.flatMap((row) => [row.original_key, row.medium_key, row.thumb_key]);
}

export async function imagesByIds(db: Queryable, ids: number[]): Promise<Map<number, ImageUrls>> {
  if (ids.length === 0) return new Map();
  const rows = await db.any<{ id: number; original_url: string; medium_url: string; thumb_url: string }>(
    'SELECT id, storage_url(original_key) AS original_url, storage_url(medium_key) AS medium_url, storage_url(thumb_key) AS thumb_url FROM images WHERE id = ANY($1::int[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, { id: row.id, originalUrl: row.original_url, mediumUrl: row.medium_url, thumbUrl: row.thumb_url }]));
}

/** The keys no row points at: no image variant and no album teaser (videos are stored without an image record). */
export async function unreferencedKeys(db: Queryable, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db.any<{ key: string }>(
    `SELECT k.key FROM unnest($1::text[]) AS k(key)
     WHERE NOT EXISTS (SELECT 1 FROM images i WHERE i.original_key = k.key OR i.medium_key = k.key OR i.thumb_key = k.key)
       AND NOT EXISTS (SELECT 1 FROM album_teasers t WHERE t.original_key = k.key)`,
    [keys],
  );
  return rows.map((row) => row.key);
}
