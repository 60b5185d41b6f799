// GET /api/schedules/live as the API router sees it: the WebSocket upgrade and the event stream
// are answered by the live transports before the router (edge/live/), so what reaches this route
// asked for neither; it is documented here, with the AsyncAPI document of both transports.
import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../../schemas/common.ts';
import { buildAsyncApi } from '../../schemas/asyncapi.ts';
import { HttpError } from '../../shared/errors.ts';
import type { Config } from '../../shared/runtime/config.ts';
import type { Route } from '../router.ts';

const LiveQuery = Type.Object({
  months: Type.String({ pattern: '^\\d{4}-\\d{2}(,\\d{4}-\\d{2})*$', description: 'Comma-separated months (YYYY-MM) to watch, at most LIVE_MAX_MONTHS (default 24)' }),
  since: Type.Optional(Type.String({ pattern: '^\\d+$', description: 'Resume after this seq; the Last-Event-ID header (sent by EventSource when it reconnects) wins' })),
});

const DESCRIPTION = [
  'Server-Sent Events (send `Accept: text/event-stream`, as EventSource does) or, on the same path, a WebSocket upgrade. Each change of a watched month is one event: `id` is its seq (one sequence shared by all replicas), `event` its type (schedule.created, schedule.updated, schedule.deleted; reset: refetch the months), `data` the JSON message with the month listing\'s item.',
  'Reconnecting with `Last-Event-ID` (EventSource does it by itself) or `since` delivers every change missed, in order and once, within the retention window (at least 24 hours and the newest 10,000 changes); older, one `reset` event. A comment line every LIVE_HEARTBEAT_SECONDS (25) keeps proxies open.',
  'Per client address at most LIVE_MAX_CONNECTIONS_PER_CLIENT live connections (429), per network (an IPv4 /24, an IPv6 /48) LIVE_MAX_CONNECTIONS_PER_NETWORK and at most LIVE_MAX_NETWORK_SHARE_PERCENT of the process (429), per process LIVE_MAX_CONNECTIONS (503). A resume is paid from the query budget of the client\'s network; past it, a `reset` event instead of the replay. Both transports and every message: the AsyncAPI 3.0 document at [/api/asyncapi.json](/api/asyncapi.json).',
].join('\n\n');

export function liveRoutes(config: Config): Route[] {
  let document: string | null = null;
  return [
    {
      method: 'get', path: '/api/schedules/live',
      handler: () => {
        throw new HttpError(406, '실시간 일정은 EventSource(Accept: text/event-stream) 또는 WebSocket으로 연결해 주세요. 형식: /api/asyncapi.json', {}, 'not_acceptable');
      },
      doc: {
        summary: 'Live calendar: every change of the watched months as it is written (SSE; WebSocket on the same path)', tags: ['schedules'], description: DESCRIPTION, query: LiveQuery,
        content: { type: 'text/event-stream', schema: Type.String() },
        responses: { 200: 'an event stream that stays open', 400: ErrorResponse, 406: 'not an event-stream request (no Accept: text/event-stream) nor a WebSocket upgrade', 429: ErrorResponse, 503: ErrorResponse },
      },
    },
    {
      method: 'get', path: '/api/asyncapi.json', cacheControl: 'public, max-age=300',
      handler: () => {
        document ??= JSON.stringify(buildAsyncApi({ version: '1.0.0', baseUrl: config.publicBaseUrl, limits: config.live }));
        return { raw: document, contentType: 'application/json; charset=utf-8' };
      },
      doc: { summary: 'AsyncAPI 3.0 description of the live calendar (WebSocket and Server-Sent Events)', tags: ['operations'], content: { type: 'application/json' }, responses: { 200: 'the AsyncAPI document' } },
    },
  ];
}
