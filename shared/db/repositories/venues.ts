// Venues (api-service.md 2.3): created or matched whenever an event is saved with a venue —
// on map_id when it has one, else on name + address.
import pgPromise from 'pg-promise';
import type { Queryable } from '../database.ts';

export interface VenueInput {
  name: string;
  address?: string | null;
  roadAddress?: string | null;
  lat?: number | null;
  lng?: number | null;
  map_id?: string | null;
}

export interface Venue {
  id: number;
  name: string;
  address: string;
  roadAddress: string;
  lat: number | null;
  lng: number | null;
  map_id: string | null;
}

export const VENUE_COLUMNS = 'id, name, address, road_address AS "roadAddress", lat, lng, map_id';

export async function upsertVenue(db: Queryable, venue: VenueInput): Promise<number> {
  const row = await db.one<{ id: number }>(venueUpsert(venue));
  return row.id;
}

/**
 * The statement of upsertVenue, values formatted in (pg-promise), to be a CTE of a larger one:
 * `WITH venue AS (…)`. A venue is shared by every event held there: a field not sent (absent or
 * null) keeps its stored value when the venue is matched, and is empty (or null) when it is created.
 */
export function venueUpsert(venue: VenueInput): string {
  const sent = (value: string | number | null | undefined) => value ?? null;
  const values = [venue.name, sent(venue.address), sent(venue.roadAddress), sent(venue.lat), sent(venue.lng)];
  if (venue.map_id) {
    return pgPromise.as.format(
      `INSERT INTO venues AS v (name, address, road_address, lat, lng, map_id) VALUES ($1, COALESCE($2, ''), COALESCE($3, ''), $4, $5, $6)
       ON CONFLICT (map_id) WHERE map_id IS NOT NULL DO UPDATE
         SET name = EXCLUDED.name, address = COALESCE($2, v.address), road_address = COALESCE($3, v.road_address),
             lat = COALESCE($4, v.lat), lng = COALESCE($5, v.lng)
       RETURNING id`,
      [...values, venue.map_id],
    );
  }
  return pgPromise.as.format(
    `INSERT INTO venues AS v (name, address, road_address, lat, lng) VALUES ($1, COALESCE($2, ''), COALESCE($3, ''), $4, $5)
     ON CONFLICT (name, address) WHERE map_id IS NULL DO UPDATE
       SET road_address = COALESCE($3, v.road_address), lat = COALESCE($4, v.lat), lng = COALESCE($5, v.lng)
     RETURNING id`,
    values,
  );
}
