// The served OpenAPI document is a valid, complete contract: Redocly's recommended
// rules and swagger-parser find no error, every operation has a stable operationId, a security
// requirement and an Error body on every failure, and every schema compiles in one Ajv.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { ERROR_CODES } from '../shared/errors.ts';
import { startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let dir: string;

interface Operation {
  operationId: string;
  security?: unknown[];
  parameters?: Array<{ name: string; in: string }>;
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, { content: Record<string, { schema: unknown }> }> };
}

let document: Document;
let text: string;

test.before(async () => {
  service = await startTestService();
  dir = await mkdtemp(join(tmpdir(), 'openapi-test-'));
  text = await (await fetch(`${service.url}/api/openapi.json`)).text();
  document = JSON.parse(text) as Document;
});

test.after.always(async () => {
  await service?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const operations = () => Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));

test('Redocly (recommended rules) reports no error', async (t) => {
  const file = join(dir, 'openapi.json');
  await writeFile(file, text);
  const run = await promisify(execFile)(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', '--format=json', file], { maxBuffer: 64 << 20 }).catch((error: { stdout: string; stderr: string }) => error);
  const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }> };
  const errors = report.problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
  const warnings = new Map<string, number>();
  for (const problem of report.problems) if (problem.severity === 'warn') warnings.set(problem.ruleId, (warnings.get(problem.ruleId) ?? 0) + 1);
  t.log(`redocly: ${report.totals.errors} errors, ${report.totals.warnings} warnings ${JSON.stringify(Object.fromEntries(warnings))}`);
  t.deepEqual(errors.slice(0, 20), []);
  t.is(report.totals.errors, 0);
  // The only warnings left: the server address (a test server on a loopback address; localhost by
  // default), and /api/albums/by-name/{name} beside /api/albums/{id}/photos and …/teasers, which
  // api-service.md fixes and the router tells apart (a literal segment wins over a parameter).
  const expected = (problem: { ruleId: string; location: Array<{ pointer: string }> }) =>
    problem.ruleId === 'no-server-example.com' ||
    (problem.ruleId === 'no-ambiguous-paths' && ['#/paths/~1api~1albums~1{id}~1photos', '#/paths/~1api~1albums~1{id}~1teasers'].includes(problem.location[0]?.pointer ?? ''));
  const unexpected = report.problems.filter((problem) => problem.severity === 'warn' && !expected(problem)).map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
  t.deepEqual(unexpected, []);
  t.is(report.problems.filter((problem) => problem.ruleId === 'no-ambiguous-paths').length, 2);
});

test('swagger-parser validates the document', async (t) => {
  await t.notThrowsAsync(SwaggerParser.validate(JSON.parse(text) as never));
});

test('every operation: a unique operationId from method and path, security, path templates', (t) => {
  const ids = new Set<string>();
  for (const { path, method, operation } of operations()) {
    t.regex(operation.operationId, /^[a-z]+[A-Za-z0-9]*$/, `${method} ${path}`);
    t.false(ids.has(operation.operationId), operation.operationId);
    ids.add(operation.operationId);
    t.true(Array.isArray(operation.security), `${method} ${path} declares its security`);
    t.notRegex(path, /[:*]/);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    t.deepEqual((operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort(), templated, `${method} ${path}`);
  }
  t.is(document.paths['/api/schedules']?.get?.operationId, 'getApiSchedules');
  t.is(document.paths['/storage/{path}']?.get?.operationId, 'getStorageByPath');
  t.deepEqual(document.paths['/auth/refresh']?.post?.security, [{ userToken: [] }]);
  t.deepEqual(document.paths['/api/admin/bots']?.get?.security, [{ adminToken: [] }]);
  t.deepEqual(document.paths['/api/schedules']?.get?.security, []);
  t.true(ids.size >= 50);
});

test('every 4xx and 5xx response carries the Error body; admin and user-token operations document 401', (t) => {
  const errorRef = { $ref: '#/components/schemas/Error' };
  for (const { path, method, operation } of operations()) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!/^[45]/.test(status)) continue;
      const resolved = response.$ref ? document.components.responses[response.$ref.split('/').pop()!]! : response;
      t.deepEqual(resolved.content?.['application/json']?.schema, errorRef, `${method} ${path} ${status}`);
    }
    const secured = (operation.security ?? []).some((requirement) => Object.keys(requirement as object).length > 0) && !(operation.security ?? []).some((requirement) => Object.keys(requirement as object).length === 0);
    if (secured) t.truthy(operation.responses['401'], `${method} ${path} documents 401`);
  }
  t.truthy(document.paths['/api/admin/events']?.post?.responses['413']);
  t.truthy(document.paths['/api/schedules']?.get?.responses['503']);
});

test('no duplicate $id: every schema of the document compiles in one Ajv', (t) => {
  t.false(text.includes('"$id"'));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormatsPlugin as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(JSON.parse(text) as object, 'openapi.json');
  const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  let compiled = 0;
  for (const name of Object.keys(document.components.schemas)) {
    ajv.compile({ $ref: `openapi.json#/${pointer('components', 'schemas', name)}` });
    compiled++;
  }
  for (const { path, method, operation } of operations()) {
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const type of Object.keys(response.content ?? {})) {
        t.notThrows(() => ajv.compile({ $ref: `openapi.json#/${pointer('paths', path, method, 'responses', status, 'content', type, 'schema')}` }), `${method} ${path} ${status}`);
        compiled++;
      }
    }
  }
  t.log(`${compiled} schemas compiled`);
  t.true(compiled > 100);
});

interface RequestBody {
  content: Record<string, { schema: { $ref?: string; type?: string; required?: string[]; properties?: Record<string, { $ref?: string; type?: string; format?: string; items?: { type?: string; format?: string } }> }; encoding?: Record<string, { contentType?: string }> }>;
}

test('every multipart body types its JSON payload with a named schema and its file parts as binary, and declares the JSON body where files are optional', (t) => {
  let multipart = 0;
  for (const { path, method, operation } of operations()) {
    const body = (operation as unknown as { requestBody?: RequestBody }).requestBody;
    const form = body?.content['multipart/form-data'];
    if (!form) continue;
    multipart++;
    const payload = form.schema.properties?.payload?.$ref;
    t.regex(payload ?? '', /^#\/components\/schemas\/[A-Z][A-Za-z]+Payload$/, `${method} ${path}: the payload part names its schema`);
    t.truthy(document.components.schemas[payload?.split('/').pop() ?? ''], `${method} ${path}: ${payload} exists`);
    t.is(form.encoding?.payload?.contentType, 'application/json', `${method} ${path}: the payload part is JSON`);
    // The file parts are typed too, so a generated client builds its FormData without a cast.
    const files = Object.entries(form.schema.properties ?? {}).filter(([name]) => name !== 'payload');
    t.is(files.length, 1, `${method} ${path}: one file field`);
    const [, file] = files[0]!;
    t.is(file.type === 'array' ? file.items?.format : file.format, 'binary', `${method} ${path}: files are binary`);
    const json = body.content['application/json'];
    // Photos and teasers: the files are the request, so a JSON body alone is no request at all.
    const filesRequired = /\/(photos|teasers)$/.test(path);
    if (filesRequired) t.is(json, undefined, `${method} ${path}: files are required, no JSON body`);
    else t.deepEqual(json?.schema, { $ref: payload }, `${method} ${path}: the same schema as an application/json body`);
  }
  t.is(multipart, 9);
  const fields = (path: string, method: string) => Object.keys((document.paths[path]?.[method] as unknown as { requestBody: RequestBody }).requestBody.content['multipart/form-data']!.schema.properties ?? {});
  t.deepEqual(fields('/api/admin/events', 'post'), ['payload', 'posters']);
  t.deepEqual(fields('/api/albums', 'post'), ['payload', 'cover']);
  t.deepEqual(document.paths['/api/schedules']?.post && (document.paths['/api/schedules'].post as unknown as { requestBody: RequestBody }).requestBody.content['application/json']?.schema, { $ref: '#/components/schemas/ScheduleCreatePayload' });
  t.false(text.includes('contentSchema'), 'no contentSchema, which generators ignore');
});

test('path ids are integers where they are ids; bot ids and birthday entries say what they are', (t) => {
  const schemaOf = (path: string, method: string, name: string) =>
    (document.paths[path]?.[method]?.parameters as Array<{ name: string; in: string; schema: { type?: string; anyOf?: Array<{ type: string }> } }> | undefined)?.find((p) => p.in === 'path' && p.name === name)?.schema;
  let ids = 0;
  for (const { path, method, operation } of operations()) {
    for (const parameter of (operation.parameters ?? []) as Array<{ name: string; in: string; schema: { type?: string; minimum?: number } }>) {
      if (parameter.in !== 'path' || !/^(id|[a-z]+Id)$/.test(parameter.name)) continue;
      ids++;
      if (path.startsWith('/api/admin/bots/') || (path === '/api/schedules/{id}' && method === 'get')) continue;
      t.like(parameter.schema, { type: 'integer', minimum: 1 }, `${method} ${path}: ${parameter.name}`);
    }
  }
  t.true(ids >= 20, `${ids} id parameters`);
  t.like(schemaOf('/api/admin/bots/{id}/start', 'post', 'id'), { type: 'string' });
  t.deepEqual(schemaOf('/api/schedules/{id}', 'get', 'id')?.anyOf?.map((s) => s.type), ['integer', 'string']);
  t.like(schemaOf('/api/albums/{id}/photos/{photoId}', 'put', 'photoId'), { type: 'integer' });
});

test('every operation documents a 4xx answer, and the 400 every route can give is real', async (t) => {
  for (const { path, method, operation } of operations()) {
    t.true(Object.keys(operation.responses).some((status) => /^4/.test(status)), `${method} ${path}`);
    t.truthy(operation.responses['400'], `${method} ${path}: 400 (a query string that does not decode)`);
  }
  // Routes without parameters of their own, probes included: a broken percent-escape in the query is 400, not ignored.
  for (const path of ['/healthz?x=%ZZ', '/api/members?x=%E0%A4%A', '/api/openapi.json?100%', '/api/schedules?year=2026&month=%E0%A4%A', '/api/schedule-categories?v=100%']) {
    const response = await fetch(`${service.url}${path}`);
    t.is(response.status, 400, path);
    t.like(await response.json(), { code: 'invalid_query' }, path);
  }
  // A well-formed query is still read, or ignored where the route takes none.
  t.is((await fetch(`${service.url}/api/members?v=${encodeURIComponent('100%')}`)).status, 200);
  t.is((await fetch(`${service.url}/api/schedules?year=2026&month=5`)).status, 200);
});

test('error bodies are {error, code}; code is an open string whose description lists every known code', async (t) => {
  const ajv = new Ajv2020({ strict: false });
  (addFormatsPlugin as unknown as (a: Ajv2020) => void)(ajv);
  const errorSchema = document.components.schemas.Error as { properties: { code: { type: string; enum?: unknown; description: string; examples: string[] } } };
  // Open: a client generated today still accepts a code added tomorrow.
  t.is(errorSchema.properties.code.type, 'string');
  t.is(errorSchema.properties.code.enum, undefined);
  t.deepEqual(errorSchema.properties.code.examples, [...ERROR_CODES]);
  for (const code of ERROR_CODES) t.true(errorSchema.properties.code.description.includes(`\`${code}\``), code);
  const known = new Set<string>(ERROR_CODES);
  const isError = ajv.compile({ ...(document.components.schemas.Error as object), properties: { ...errorSchema.properties, code: { type: 'string', enum: [...known] } } });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.38.0.1', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as { error: string; code: string };
    t.true(isError(json), `${method} ${path}: ${JSON.stringify(json)}`);
    return { status: response.status, code: json.code, error: json.error };
  };
  t.like(await call('GET', '/api/no-such-route'), { status: 404, code: 'not_found' });
  t.like(await call('PATCH', '/api/members'), { status: 405, code: 'method_not_allowed' });
  t.like(await call('POST', '/auth/register', { email: 'x' }), { status: 400, code: 'invalid_body' });
  const account = { email: 'codes@example.org', password: 'password-38' };
  t.is((await fetch(`${service.url}/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.38.0.2' }, body: JSON.stringify(account) })).status, 200);
  t.like(await call('POST', '/auth/register', account), { status: 409, code: 'email_taken', error: '이미 가입된 이메일입니다.' });
  t.like(await call('POST', '/auth/login', account), { status: 403, code: 'email_unverified' });
  t.like(await call('GET', '/api/admin/bots'), { status: 401, code: 'token_missing' });
  t.like(await call('GET', '/api/admin/bots', undefined, { authorization: 'Bearer not-a-token' }), { status: 401, code: 'token_invalid' });
  t.like(await call('POST', '/auth/refresh', undefined, { authorization: 'Bearer not-a-token' }), { status: 401, code: 'token_invalid' });
  const wrong = { email: 'nobody@example.org', password: 'wrong-password' };
  const lockoutHeaders = { 'x-forwarded-for': '10.38.0.3' };
  for (let attempt = 0; attempt < 5; attempt++) t.like(await call('POST', '/auth/login', wrong, lockoutHeaders), { status: 401, code: 'invalid_credentials' });
  t.like(await call('POST', '/auth/login', wrong, lockoutHeaders), { status: 429, code: 'locked_out' });
  t.like(await call('GET', '/api/albums/%E0%A4%A'), { status: 400, code: 'invalid_path' });
});
