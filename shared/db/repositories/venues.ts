// Venues (api-service.md 2.3): created or matched whenever an event is saved with a venue —
// on map_id when it has one, else on name + address.
import pgPromise from 'pg-promise';
import type { Queryable } from '../database.ts';

export interface VenueInput {
  name: string;
  address?: string;
  roadAddress?: string;
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

/** The statement of upsertVenue, values formatted in (pg-promise), to be a CTE of a larger one: `WITH venue AS (…)`. */
export function venueUpsert(venue: VenueInput): string {
  const values = [venue.name, venue.address ?? '', venue.roadAddress ?? '', venue.lat ?? null, venue.lng ?? null];
  if (venue.map_id) {
    return pgPromise.as.format(
      `INSERT INTO venues (name, address, road_address, lat, lng, map_id) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (map_id) WHERE map_id IS NOT NULL DO UPDATE
         SET name = EXCLUDED.name, address = EXCLUDED.address, road_address = EXCLUDED.road_address, lat = EXCLUDED.lat, lng = EXCLUDED.lng
       RETURNING id`,
      [...values, venue.map_id],
    );
  }
  return pgPromise.as.format(
    `INSERT INTO venues (name, address, road_address, lat, lng) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (name, address) WHERE map_id IS NULL DO UPDATE
       SET road_address = EXCLUDED.road_address, lat = COALESCE(EXCLUDED.lat, venues.lat), lng = COALESCE(EXCLUDED.lng, venues.lng)
     RETURNING id`,
    values,
  );
}
