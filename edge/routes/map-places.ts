// Place search for the admin console's venue picker: GET /api/admin/map/places?query=…,
// the map platform's keyword search (shared/map/map-client.ts) in the venue shape events take.
import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../../schemas/common.ts';
import { badRequest, HttpError } from '../../shared/errors.ts';
import { CircuitOpenError, MapClient, MapPlatformError } from '../../shared/map/map-client.ts';
import type { Services } from '../../shared/services.ts';
import { reply, type Context } from '../context.ts';
import type { Route } from '../router.ts';

const QUERY_MAX_LENGTH = 100;

const PlacesQuery = Type.Object({ query: Type.String({ minLength: 1, maxLength: QUERY_MAX_LENGTH }) });
const PlacesResponse = Type.Object({
  places: Type.Array(Type.Object({
    name: Type.String(), address: Type.String(), roadAddress: Type.String(),
    lat: Type.Union([Type.Number(), Type.Null()]), lng: Type.Union([Type.Number(), Type.Null()]), map_id: Type.String(),
  })),
});

export function mapPlaceRoutes(s: Services): Route[] {
  const client = s.config.mapApi ? new MapClient({ baseUrl: s.config.mapApi.url, apiKey: s.config.mapApi.key }) : null;

  async function places(ctx: Context) {
    if (!client) throw new HttpError(503, '지도 검색이 설정되지 않았습니다 (MAP_API_URL, MAP_API_KEY). 장소는 직접 입력해 주세요.');
    const query = (ctx.query.get('query') ?? '').trim();
    if (query === '') throw badRequest('검색할 장소 이름(query)을 입력해 주세요.');
    if (query.length > QUERY_MAX_LENGTH) throw badRequest(`검색어는 ${QUERY_MAX_LENGTH}자 이하여야 합니다.`);
    try {
      return reply({ places: await client.search(query) });
    } catch (error) {
      if (error instanceof CircuitOpenError) throw new HttpError(503, `지도 플랫폼 오류가 이어져 검색을 잠시 멈췄습니다. ${Math.ceil(error.retryAfterMs / 1000)}초 후 다시 시도해 주세요.`, { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) });
      if (error instanceof MapPlatformError) {
        s.logger.warn({ status: error.status, err: error.message }, 'map platform search failed');
        throw new HttpError(502, `${error.message} 잠시 후 다시 시도해 주세요.`);
      }
      throw error;
    }
  }

  return [{
    method: 'get', path: '/api/admin/map/places', handler: places, auth: 'admin',
    doc: {
      summary: 'Search places on the map platform (venue picker)', tags: ['events'], query: PlacesQuery,
      description: 'Kakao Local keyword search through MAP_API_URL with MAP_API_KEY; each place in the venue shape of events (lat/lng from the platform\'s y/x, map_id its place id). Not configured → 503; the platform unreachable, slow (10 s) or failing → 502; after 5 failures in a row the search is refused for a minute → 503 with Retry-After.',
      responses: { 200: PlacesResponse, 400: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse },
    },
  }];
}
