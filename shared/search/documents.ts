// Search documents are built from the stored schedules: one query for any number of ids.
import { preparedQuery, type Queryable } from '../db/database.ts';
import { placesNamed } from '../korean/gazetteer.ts';
import type { SearchDocument } from './search-index.ts';

interface DocumentRow {
  id: number;
  title: string;
  description: string | null;
  category_id: number;
  category_name: string;
  date: string;
  source_name: string | null;
  school_name: string | null;
  short_names: string[] | null;
  member_names: string[];
  venue_names: string[] | null;
  address: string | null;
}

const DOCUMENT_SELECT = `
  SELECT s.id, s.title, s.description, s.category_id, c.name AS category_name, to_char(s.date, 'YYYY-MM-DD') AS date,
         s.source_name, e.school_name, sn.short_names,
         CASE WHEN v.id IS NOT NULL THEN ARRAY[v.name, v.address, v.road_address] END AS venue_names, v.address,
         COALESCE((SELECT array_agg(n) FROM schedule_members sm JOIN members m ON m.id = sm.member_id,
                          LATERAL unnest(array_prepend(m.name, m.nicknames || COALESCE(ARRAY[m.name_en], '{}'))) AS n
                    WHERE sm.schedule_id = s.id), '{}') AS member_names
    FROM schedules s
    JOIN schedule_categories c ON c.id = s.category_id
    LEFT JOIN events e ON e.schedule_id = s.id
    LEFT JOIN venues v ON v.id = e.venue_id
    LEFT JOIN school_names sn ON sn.full_name = e.school_name OR e.school_name = ANY(sn.short_names)`;

function toDocument(row: DocumentRow): SearchDocument {
  const sources = [row.school_name, row.source_name, ...(row.short_names ?? [])].filter((name): name is string => !!name);
  return {
    scheduleId: row.id,
    title: row.title,
    description: row.description ?? '',
    categoryId: row.category_id,
    categoryName: row.category_name,
    date: row.date,
    sourceNames: [...new Set(sources)],
    memberNames: [...new Set(row.member_names)],
    // The places the title and the address name, with those they lie in (gazetteer.ts): a title
    // naming 도쿄 is found by 일본, an address in 광진구 by 서울 and 대한민국.
    venueNames: [...new Set([...(row.venue_names ?? []), ...placesNamed(`${row.title} ${row.address ?? ''}`)].filter((name) => name !== ''))],
  };
}

/** Run for every written schedule, twice (inline, then by the indexer): prepared. */
const documentsById = preparedQuery('search-documents-by-id', `${DOCUMENT_SELECT} WHERE s.id = ANY($1::int[])`);

export async function loadSearchDocuments(db: Queryable, ids: number[]): Promise<SearchDocument[]> {
  if (ids.length === 0) return [];
  const rows = await db.any<DocumentRow>(documentsById(ids));
  return rows.map(toDocument);
}

export async function loadAllSearchDocuments(db: Queryable): Promise<SearchDocument[]> {
  const rows = await db.any<DocumentRow>(`${DOCUMENT_SELECT} ORDER BY s.id`);
  return rows.map(toDocument);
}
