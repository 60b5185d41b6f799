// Dashboard statistics, /api/stats (decisions.md "Statistics"), in one round trip to the database.
import { Stats } from '../../schemas/schedules.ts';
import type { Services } from '../../shared/services.ts';
import { reply } from '../context.ts';
import type { Route } from '../router.ts';

const STATS_SQL = `
  SELECT (SELECT count(*)::int FROM members) AS members,
         (SELECT count(*)::int FROM albums) AS albums,
         (SELECT count(*)::int FROM tracks) AS tracks,
         (SELECT count(*)::int FROM album_photos) AS photos,
         (SELECT count(*)::int FROM schedules) AS schedules,
         (SELECT COALESCE(json_agg(json_build_object('categoryId', c.id, 'name', c.name, 'count', c.n) ORDER BY c.sort_order, c.id), '[]'::json)
            FROM (SELECT c.id, c.name, c.sort_order, count(s.id)::int AS n
                    FROM schedule_categories c LEFT JOIN schedules s ON s.category_id = c.id
                   GROUP BY c.id) AS c) AS "schedulesByCategory",
         (SELECT COALESCE(json_agg(json_build_object('year', y.year, 'count', y.n) ORDER BY y.year), '[]'::json)
            FROM (SELECT extract(year FROM date)::int AS year, count(*)::int AS n FROM schedules GROUP BY 1) AS y) AS "schedulesByYear",
         json_build_object('total', (SELECT count(*)::int FROM bots),
                           'running', (SELECT count(*)::int FROM bots WHERE status = 'running')) AS bots`;

export function statsRoutes(s: Services): Route[] {
  return [
    {
      method: 'get', path: '/api/stats', cacheControl: 'public, max-age=30',
      handler: async () => reply(await s.db.one(STATS_SQL)),
      doc: { summary: 'Dashboard counts', tags: ['stats'], responses: { 200: Stats } },
    },
  ];
}
