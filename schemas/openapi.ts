// The OpenAPI 3.1 document, assembled from the routes' own schemas so it cannot drift from validation.
import type { TSchema } from '@sinclair/typebox';
import type { Route } from '../edge/router.ts';

const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema));

export function buildOpenApi(routes: readonly Route[], info: { version: string; serverUrl: string }): unknown {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters: unknown[] = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const query = route.doc.query as (TSchema & { properties?: Record<string, TSchema>; required?: string[] }) | undefined;
    for (const [name, schema] of Object.entries(query?.properties ?? {})) {
      parameters.push({ name, in: 'query', required: query?.required?.includes(name) ?? false, schema: plain(schema) });
    }
    const responses: Record<string, unknown> = {};
    for (const [status, body] of Object.entries(route.doc.responses)) {
      responses[status] =
        typeof body === 'string'
          ? { description: body }
          : { description: status.startsWith('2') ? 'success' : 'failure: {error}', content: { 'application/json': { schema: plain(body) } } };
    }
    if (route.auth === 'admin' && !responses['401']) responses['401'] = { description: 'missing, invalid or expired administrator token' };
    const operation: Record<string, unknown> = {
      summary: route.doc.summary,
      tags: route.doc.tags,
      ...(route.doc.description ? { description: route.doc.description } : {}),
      ...(parameters.length ? { parameters } : {}),
      responses,
      ...(route.auth === 'admin' ? { security: [{ adminToken: [] }] } : {}),
    };
    if (route.doc.body || route.doc.multipart) {
      operation.requestBody = route.doc.multipart
        ? {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: { payload: { type: 'string', contentMediaType: 'application/json', contentSchema: route.doc.body ? plain(route.doc.body) : {} } },
                },
                description: route.doc.multipart.files,
              },
            },
          }
        : { required: true, content: { 'application/json': { schema: plain(route.doc.body!) } } };
    }
    (paths[path] ??= {})[route.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Schedule calendar API',
      version: info.version,
      description: [
        'Account service (/auth) and schedule, member, album, search and admin API (/api). Failure bodies are {error: string} with a Korean message. Any route that needs the database answers 503 with Retry-After when the database cannot be reached in time (retry later), never 500.',
        // docs/security.md: replaces auth-service.md 4.3's first-entry rule, which a client controls.
        'Client address (lockout, limits): the connection\'s address, unless the server is configured with TRUST_PROXY=N reverse proxies in front; then the N-th X-Forwarded-For entry from the right, else X-Real-IP. Entries a client writes itself are never trusted.',
        'Every bcrypt operation (login, registration) is admitted fairly per client address: more than 2 in flight from one address is 429 with Retry-After; 503 only when the server is full. Tokens without exp are refused.',
        'Uploads (the routes that take files) are held in memory until they are stored: a server process admits them while the bodies it holds stay within its upload budget (UPLOAD_BUDGET_MB, 200 MB by default), and answers the next one 503 with Retry-After: 2 until an upload is done. One upload at a time is always admitted.',
      ].join('\n\n'),
    },
    servers: [{ url: info.serverUrl }],
    components: {
      securitySchemes: {
        adminToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT (HS256, audience admin, 24 h) from POST /api/auth/login' },
        userToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT (HS256, audience user, 30 days) from POST /auth/login' },
      },
    },
    paths,
  };
}
