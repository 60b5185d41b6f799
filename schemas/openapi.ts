// The OpenAPI 3.1 document, assembled from the routes' own schemas so it cannot drift from validation.
// Schemas with an `$id` become named components referenced by `$ref`; every operation gets an
// operationId derived from its method and path, its security, and the failures the edge itself
// can answer (400 on every route, 401, 413, 503, 507) with the Error body. A 500 is a fault,
// documented only where the spec makes it an answer (test/robustness.test.ts fails on any other).
// A multipart body's `payload` part refers to the same named schema as the JSON body the route
// also accepts, so generated clients type both; path ids are integers (edge/params.ts `parseId`).
import type { TSchema } from '@sinclair/typebox';
import type { Route, RouteDoc } from '../edge/router.ts';
import { ErrorResponse, IdParam } from './common.ts';

type Json = Record<string, unknown>;

/** `get /api/albums/by-name/:name` → `getApiAlbumsByNameByName`: deterministic, from method and path only. */
export function operationIdOf(method: string, path: string): string {
  const words = path.split('/').filter(Boolean).flatMap((segment) => {
    const param = /^[:*](.+)$/.exec(segment);
    const parts = (param ? param[1]! : segment).split(/[^A-Za-z0-9]+/).filter(Boolean);
    return param ? ['by', ...parts] : parts;
  });
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** `/storage/*path` → `/storage/{path}`, `/api/albums/:id` → `/api/albums/{id}`. */
export const pathTemplateOf = (path: string) => path.replace(/[:*]([A-Za-z]+)/g, '{$1}');

/**
 * A plain JSON copy of a schema with every `$id`-named subschema moved to `named` and replaced by
 * a `$ref`. Two different schemas under one name are a programming error.
 */
function hoist(schema: unknown, named: Map<string, { json: string; schema: Json }>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => hoist(item, named));
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) if (key !== '$id') copy[key] = hoist(value, named);
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') return copy;
  const json = JSON.stringify(copy);
  const known = named.get(id);
  if (known && known.json !== json) throw new Error(`two different schemas are named ${id}`);
  named.set(id, { json, schema: copy });
  return { $ref: `#/components/schemas/${id}` };
}

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const retryAfter = { 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } } };

/** Failures many operations share, referenced from components.responses. */
const SHARED_RESPONSES: Record<string, { status: string; description: string; retry?: true }> = {
  BadRequest: { status: '400', description: 'invalid request: the path or query string does not decode (percent-encoding), or a parameter, the query or the body does not match its schema' },
  Unauthorized: { status: '401', description: 'missing, invalid or expired token' },
  PayloadTooLarge: { status: '413', description: 'the body is larger than the operation accepts' },
  TooManyRequests: { status: '429', description: 'too many requests from this client address; retry after Retry-After seconds', retry: true },
  ServiceUnavailable: { status: '503', description: 'the database (or an upload slot) is not available now; retry after Retry-After seconds', retry: true },
  InsufficientStorage: { status: '507', description: 'the disk is full: nothing was stored; retry later', retry: true },
};
const sharedRef = (name: keyof typeof SHARED_RESPONSES) => ({ [SHARED_RESPONSES[name]!.status]: { $ref: `#/components/responses/${name}` } });

/** Routes that answer without the database (probes, this document, the reference page). */
const withoutDatabase = (route: Route) => route.doc.tags.includes('operations');

function operationOf(route: Route, named: Map<string, { json: string; schema: Json }>): Json {
  const doc = route.doc;
  const schema = (value: TSchema) => hoist(JSON.parse(JSON.stringify(value)), named);
  const parameters: Json[] = [...route.path.matchAll(/([:*])([A-Za-z]+)/g)].map((m) => ({
    name: m[2],
    in: 'path',
    required: true,
    ...(m[1] === '*' ? { description: 'the rest of the path, slashes included' } : {}),
    schema: pathParameterSchema(doc, m[2]!, schema),
  }));
  const query = doc.query as (TSchema & { properties?: Record<string, TSchema>; required?: string[] }) | undefined;
  for (const [name, value] of Object.entries(query?.properties ?? {})) {
    parameters.push({ name, in: 'query', required: query?.required?.includes(name) ?? false, schema: schema(value) });
  }
  const takesBody = Boolean(doc.body || doc.multipart);
  // The failures the edge answers itself, before or around the handler; the route's own win. Every
  // route can answer 400: a query string that does not decode is refused before the handler.
  const responses: Json = {
    ...sharedRef('BadRequest'),
    ...(route.auth === 'admin' || doc.security === 'user' ? sharedRef('Unauthorized') : {}),
    ...(takesBody ? sharedRef('PayloadTooLarge') : {}),
    ...(withoutDatabase(route) ? {} : sharedRef('ServiceUnavailable')),
    ...(route.method !== 'get' && !withoutDatabase(route) ? sharedRef('InsufficientStorage') : {}),
  };
  for (const [status, body] of Object.entries(doc.responses)) {
    const success = /^[23]/.test(status);
    const shared = Object.keys(SHARED_RESPONSES).find((name) => SHARED_RESPONSES[name]!.status === status);
    if (body === ErrorResponse && shared) Object.assign(responses, sharedRef(shared));
    else if (status === '304') responses[status] = { description: typeof body === 'string' ? body : 'not modified' };
    else if (typeof body !== 'string') {
      responses[status] = { description: success ? 'success' : 'failure', content: { 'application/json': { schema: schema(body) } } };
    } else if (success) {
      const content = doc.content ?? { type: 'application/octet-stream' };
      responses[status] = { description: body, content: { [content.type]: { schema: content.schema ? schema(content.schema) : {} } } };
    } else responses[status] = { description: body, content: errorContent };
  }
  if (route.cacheControl && !responses['304']) responses['304'] = { description: 'not modified (If-None-Match matched the ETag)' };
  versioning(doc, parameters, responses);
  const security = route.auth === 'admin' ? [{ adminToken: [] }] : doc.security === 'user' ? [{ userToken: [] }] : doc.security === 'user-optional' ? [{ userToken: [] }, {}] : [];
  const operation: Json = {
    operationId: operationIdOf(route.method, route.path),
    summary: doc.summary,
    tags: doc.tags,
    ...(doc.description ? { description: doc.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    security,
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
  };
  if (takesBody) operation.requestBody = requestBodyOf(doc, schema);
  return operation;
}

const IF_MATCH_DESCRIPTION = 'Optimistic concurrency: the ETag of the resource as last read (its GET). The write applies only while that is still the current version; otherwise 412 `precondition_failed` and nothing changes. `*` applies to any current version. Without If-Match the write applies (last write wins).';

/** Versioned resources: their GET answers an ETag; their writes honour If-Match and may answer 412. */
function versioning(doc: RouteDoc, parameters: Json[], responses: Json): void {
  if (doc.versioned === 'read' && responses['200']) {
    responses['200'] = { ...(responses['200'] as Json), headers: { ETag: { description: 'the version and a hash of this representation: send it back as If-Match to write over exactly this version', schema: { type: 'string' } } } };
  }
  if (doc.versioned === 'write') {
    parameters.push({ name: 'If-Match', in: 'header', required: false, description: IF_MATCH_DESCRIPTION, schema: { type: 'string' } });
    responses['412'] = { description: 'If-Match named a version that is no longer current: nothing changed', content: errorContent };
  }
}

/** `id` and `…Id` parameters are positive integers (`parseId`) unless the route names their schema; others are text. */
function pathParameterSchema(doc: RouteDoc, name: string, schema: (value: TSchema) => unknown): unknown {
  const own = doc.params?.[name];
  if (own) return schema(own);
  return /^(id|[a-z]+Id)$/.test(name) ? schema(IdParam) : { type: 'string' };
}

/**
 * A JSON body, or a multipart body whose `payload` part is JSON of the route's named body schema
 * (`encoding` gives the part's media type); routes whose files are optional take that payload as
 * an `application/json` body too.
 */
function requestBodyOf(doc: RouteDoc, schema: (value: TSchema) => unknown): Json {
  if (!doc.multipart) return { required: true, content: { 'application/json': { schema: schema(doc.body!) } } };
  const payload = doc.body ? schema(doc.body) : {};
  const multipart = {
    schema: { type: 'object', ...(doc.multipart.payloadOptional ? {} : { required: ['payload'] }), properties: { payload, ...filePartsOf(doc.multipart.files) } },
    encoding: { payload: { contentType: 'application/json' } },
  };
  const json = doc.multipart.json ? 'the payload alone as an application/json body when there are no files, or ' : '';
  return {
    required: true,
    description: `${json}multipart/form-data: a \`payload\` part holding the JSON${doc.multipart.payloadOptional ? ' (optional)' : ''}; ${doc.multipart.files}`,
    content: { ...(doc.multipart.json ? { 'application/json': { schema: payload } } : {}), 'multipart/form-data': multipart },
  };
}

/**
 * The file parts as typed properties (`format: binary`), so a generated client sends a FormData
 * without casts. The field name is the one the route's description names in backticks (the server
 * reads files whatever their field name where it says so); several files are an array.
 */
function filePartsOf(description: string): Json {
  const name = /`([A-Za-z]+)`/.exec(description)?.[1] ?? 'files';
  const file = { type: 'string', format: 'binary', description: 'a file (its part\'s Content-Type and filename are kept)' };
  return { [name]: /\bfile parts\b/.test(description) ? { type: 'array', items: file, description } : { ...file, description } };
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  account: 'Accounts of the site’s users (/auth): registration, e-mail verification, tokens',
  'admin-auth': 'Administrator login and token check',
  albums: 'Albums, tracks, photos and teasers',
  bots: 'Collecting bots (video platform, microblog) and their state',
  events: 'Event schedules (category 11) with venues and posters',
  members: 'Members of the group',
  operations: 'Probes and this API description',
  platform: 'Schedules made from a video or a post',
  schedules: 'The schedule calendar: monthly listing, search, details',
  search: 'What administrators teach the search: aliases, translations, and the searches that miss',
  stats: 'Dashboard counts',
  storage: 'Stored files (images)',
  suggestions: 'Search suggestions, popular and saved searches, the user dictionary',
};

export function buildOpenApi(routes: readonly Route[], info: { version: string; serverUrl: string }): unknown {
  const named = new Map<string, { json: string; schema: Json }>();
  hoist(JSON.parse(JSON.stringify(ErrorResponse)), named);
  const paths: Record<string, Json> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const operation = operationOf(route, named);
    if (operationIds.has(operation.operationId as string)) throw new Error(`duplicate operationId ${String(operation.operationId)}`);
    operationIds.add(operation.operationId as string);
    (paths[pathTemplateOf(route.path)] ??= {})[route.method] = operation;
  }
  const tags = [...new Set(routes.flatMap((route) => route.doc.tags))].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  const responses = Object.fromEntries(Object.entries(SHARED_RESPONSES).map(([name, shared]) => [name, {
    description: shared.description,
    ...(shared.retry ? { headers: retryAfter } : {}),
    content: errorContent,
  }]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Schedule calendar API',
      version: info.version,
      license: { name: 'UNLICENSED', identifier: 'LicenseRef-Proprietary' },
      description: [
        'Account service (/auth) and schedule, member, album, search and admin API (/api). Failure bodies are the Error schema: {error, code}, a Korean message for people and a stable machine-readable code. Any route that needs the database answers 503 with Retry-After when the database cannot be reached in time (retry later), never 500.',
        // docs/security.md: replaces auth-service.md 4.3's first-entry rule, which a client controls.
        'Client address (lockout, limits): the connection\'s address, unless the server is configured with TRUST_PROXY=N reverse proxies in front; then the N-th X-Forwarded-For entry from the right, else X-Real-IP. Entries a client writes itself are never trusted.',
        'Every bcrypt operation (login, registration) is admitted fairly per client address: more than 2 in flight from one address is 429 with Retry-After; 503 only when the server is full. Tokens without exp are refused.',
        'Live updates: `GET /api/schedules/live` streams every schedule change of the months asked for, as Server-Sent Events or over a WebSocket on the same path, resumable from the last seq; both transports and every message are described by the AsyncAPI 3.0 document at [/api/asyncapi.json](/api/asyncapi.json).',
        'Uploads (the routes that take files) are held in memory until they are stored: a server process admits them while the bodies it holds stay within its upload budget (UPLOAD_BUDGET_MB, 200 MB by default), and answers the next one 503 with Retry-After: 2 until an upload is done. One upload at a time is always admitted.',
      ].join('\n\n'),
    },
    servers: [{ url: info.serverUrl }],
    tags,
    paths,
    components: {
      schemas: Object.fromEntries([...named].sort(([a], [b]) => a.localeCompare(b)).map(([name, { schema }]) => [name, schema])),
      responses,
      securitySchemes: {
        adminToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'JWT (HS256, audience admin, 24 h) from POST /api/auth/login' },
        userToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'JWT (HS256, audience user, 30 days) from POST /auth/login' },
      },
    },
  };
}
