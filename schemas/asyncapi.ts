// The AsyncAPI 3.0 document of the live calendar (docs/live.md), served at /api/asyncapi.json:
// both transports of GET /api/schedules/live, what a client sends and what it receives. The
// listing item is the same TypeBox schema the month listing is validated and documented with.
import { ScheduleItem } from './schedules.ts';

type Json = Record<string, unknown>;

const month = { type: 'string', pattern: '^(19|2\\d)\\d{2}-(0[1-9]|1[0-2])$', examples: ['2026-05'] };
const seq = { type: 'integer', minimum: 0, description: 'Position in the one change sequence all replicas share; increases with every change (gaps are possible).' };
const months = (description: string) => ({ type: 'array', items: month, minItems: 1, description });

const object = (properties: Json, required: string[], description?: string): Json => ({
  type: 'object', properties, required, additionalProperties: false, ...(description ? { description } : {}),
});

const change = (type: string, what: string): Json => ({
  name: type,
  title: type,
  summary: what,
  contentType: 'application/json',
  payload: object({
    type: { const: type },
    seq,
    id: { oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^birthday-\\d+-\\d{4}$' }], description: 'The schedule id (a birthday: birthday-<memberId>-<year>), as in the month listing.' },
    months: months('Months the change touches: a schedule moved to another month names both.'),
    schedule: type === 'schedule.deleted'
      ? { type: 'null' }
      : { $ref: '#/components/schemas/ScheduleItem' },
  }, ['type', 'seq', 'id', 'months', 'schedule']),
});

/** The JSON Schema of a TypeBox schema without `$id`s (AsyncAPI names it under components; nested ids would be base URIs). */
const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema), (key, value: unknown) => (key === '$id' ? undefined : value)) as Json;

export function buildAsyncApi(info: { version: string; baseUrl: string; limits: { maxMonths: number; heartbeatSeconds: number } }): Json {
  const messages: Record<string, Json> = {
    subscribe: {
      name: 'subscribe', title: 'Subscribe', contentType: 'application/json',
      summary: 'Watch months; with `since`, first receive every change after that seq (in order, once), then `subscribed`.',
      payload: object({ type: { const: 'subscribe' }, months: { ...months(`At most ${info.limits.maxMonths} months per connection.`), maxItems: info.limits.maxMonths }, since: seq }, ['type', 'months']),
    },
    unsubscribe: {
      name: 'unsubscribe', title: 'Unsubscribe', contentType: 'application/json',
      payload: object({ type: { const: 'unsubscribe' }, months: months('Months to stop watching.') }, ['type', 'months']),
    },
    ping: { name: 'ping', title: 'Ping', contentType: 'application/json', summary: 'Answered by pong (for clients that cannot send WebSocket ping frames).', payload: object({ type: { const: 'ping' } }, ['type']) },
    pong: { name: 'pong', title: 'Pong', contentType: 'application/json', payload: object({ type: { const: 'pong' } }, ['type']) },
    subscribed: {
      name: 'subscribed', title: 'Subscribed', contentType: 'application/json',
      summary: 'Sent when a subscription is live: every change up to `seq` of these months has been sent; later ones follow as they are written.',
      payload: object({ type: { const: 'subscribed' }, months: months('Every month the connection now watches.'), seq }, ['type', 'months', 'seq']),
    },
    unsubscribed: {
      name: 'unsubscribed', title: 'Unsubscribed', contentType: 'application/json',
      payload: object({ type: { const: 'unsubscribed' }, months: months('The months no longer watched.'), seq }, ['type', 'months', 'seq']),
    },
    created: change('schedule.created', 'A schedule was created (or a birthday appeared).'),
    updated: change('schedule.updated', 'A schedule changed; `schedule` is the listing item after the change.'),
    deleted: change('schedule.deleted', 'A schedule was deleted (or a birthday is no longer listed).'),
    reset: {
      name: 'reset', title: 'Reset', contentType: 'application/json',
      summary: 'Refetch the watched months: what was missed is older than the retention window, or the change touched every month (a category, a member\'s name, the demo data). Changes after `seq` follow.',
      payload: object({ type: { const: 'reset' }, seq }, ['type', 'seq']),
    },
    error: {
      name: 'error', title: 'Error', contentType: 'application/json',
      summary: 'A refused message or connection; the server closes the socket after it (1008 policy, 1013 server busy, 1011 unavailable).',
      payload: object({ type: { const: 'error' }, code: { type: 'string', examples: ['invalid_message', 'unknown_type', 'invalid_months', 'invalid_month', 'too_many_months', 'invalid_since', 'too_many_connections', 'server_busy', 'service_unavailable', 'message_too_large', 'too_many_messages', 'rate_limited'] }, error: { type: 'string', description: 'Korean message for people' } }, ['type', 'code', 'error']),
    },
  };
  const ref = (name: string) => ({ $ref: `#/components/messages/${name}` });
  const changes = ['created', 'updated', 'deleted', 'reset'];
  const query = object({
    months: { type: 'string', description: 'Comma-separated months, e.g. 2026-05,2026-06.' },
    since: { type: 'string', pattern: '^\\d+$', description: 'Resume after this seq (the Last-Event-ID header wins when both are sent).' },
  }, ['months']);
  // The servers are where clients connect: behind TLS (an https PUBLIC_BASE_URL) wss and https.
  const base = new URL(info.baseUrl);
  const secure = base.protocol === 'https:';
  const pathname = base.pathname.replace(/\/+$/, '');
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Schedule calendar live updates',
      version: info.version,
      description: [
        'Open calendar pages see a schedule created, changed or deleted the moment its transaction commits, on any replica. One stream, two transports on `GET /api/schedules/live`: a WebSocket (upgrade) and Server-Sent Events (`Accept: text/event-stream`).',
        'Every change carries `seq`, one increasing sequence shared by all replicas. Reconnect with the highest seq received (`since`, or EventSource\'s own Last-Event-ID) to receive every change missed, in order and once, within the retention window (at least 24 hours and the newest 10,000 changes); older than that, one `reset` says to refetch the months.',
        `Limits: connections per client address, per network and per process (SSE: 429 / 503; WebSocket: close 1008 / 1013), ${info.limits.maxMonths} months per connection, a WebSocket message of at most 4 KiB (longer: close 1009), 4 subscribe/unsubscribe messages waiting and 2 a second after a burst of 20 (past them: close 1008), resumes paid from the network's budget (past it: a reset instead of the replay), a subscriber that stops reading is dropped once its unsent bytes pass the server's limit (it resumes with since). WebSocket pings keep idle connections; SSE sends a comment line every ${info.limits.heartbeatSeconds} s. A replica that stops closes sockets with 1001 and ends streams: reconnect.`,
        'The month listing (`GET /api/schedules?year=&month=`) reads every change already delivered.',
      ].join('\n\n'),
    },
    defaultContentType: 'application/json',
    servers: {
      websocket: { host: base.host, ...(pathname ? { pathname } : {}), protocol: secure ? 'wss' : 'ws', description: 'WebSocket' },
      eventStream: { host: base.host, ...(pathname ? { pathname } : {}), protocol: secure ? 'https' : 'http', description: 'Server-Sent Events (an HTTP GET whose response stays open)' },
    },
    channels: {
      liveWebSocket: {
        address: '/api/schedules/live',
        title: 'Live calendar over WebSocket',
        servers: [{ $ref: '#/servers/websocket' }],
        messages: Object.fromEntries(Object.keys(messages).map((name) => [name, ref(name)])),
        bindings: { ws: { method: 'GET', bindingVersion: '0.1.0' } },
      },
      liveEventStream: {
        address: '/api/schedules/live',
        title: 'Live calendar as Server-Sent Events',
        description: 'GET with `Accept: text/event-stream` and `?months=`. Each change is an event whose `id` is its seq, whose `event` is its type (schedule.created, schedule.updated, schedule.deleted, reset, subscribed) and whose `data` is the same JSON as over WebSocket.',
        servers: [{ $ref: '#/servers/eventStream' }],
        messages: Object.fromEntries([...changes, 'subscribed'].map((name) => [name, ref(name)])),
      },
    },
    operations: {
      sendSubscription: {
        action: 'send', title: 'Subscribe, unsubscribe, ping', channel: { $ref: '#/channels/liveWebSocket' },
        messages: ['subscribe', 'unsubscribe', 'ping'].map((name) => ({ $ref: `#/channels/liveWebSocket/messages/${name}` })),
      },
      receiveOverWebSocket: {
        action: 'receive', title: 'Changes over WebSocket', channel: { $ref: '#/channels/liveWebSocket' },
        messages: [...changes, 'subscribed', 'unsubscribed', 'pong', 'error'].map((name) => ({ $ref: `#/channels/liveWebSocket/messages/${name}` })),
      },
      receiveEvents: {
        action: 'receive', title: 'Changes as Server-Sent Events', channel: { $ref: '#/channels/liveEventStream' },
        // An HTTP GET (with Accept: text/event-stream): the HTTP binding, not the WebSocket one.
        bindings: { http: { method: 'GET', query, bindingVersion: '0.3.0' } },
        messages: [...changes, 'subscribed'].map((name) => ({ $ref: `#/channels/liveEventStream/messages/${name}` })),
      },
    },
    components: {
      messages,
      schemas: { ScheduleItem: plain(ScheduleItem) },
    },
  };
}
