// A typed client, proven: TypeScript types generated from the served document with
// openapi-typescript, a small client over openapi-fetch that calls every public and admin operation
// group and creates a schedule through the typed JSON body and an event through a typed multipart
// body (a Blob poster, no cast), type-checked with tsc in a temp folder,
// then run against the real service; every answer (success and failure) matches the schema the
// document gives for its status. Bodies with a wrong field, a missing field or a wrong type do not
// compile.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import { binaryAsBlob } from '../sdk/scripts/generate.ts';
import { ADMIN, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let dir: string;

test.before(async () => {
  service = await startTestService();
  dir = await mkdtemp(join(tmpdir(), 'typed-client-'));
  await symlink(resolve('node_modules'), join(dir, 'node_modules'));
});

test.after.always(async () => {
  await service?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The client a user of the API would write: one call per operation group, typed by the document. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.d.ts';

export interface Answer { method: string; path: string; status: number; body: unknown }

export async function callEveryGroup(baseUrl: string, admin: { username: string; password: string }): Promise<Answer[]> {
  const client = createClient<paths>({ baseUrl });
  const answers: Answer[] = [];
  const keep = (method: string, path: string, response: Response, body: unknown) => answers.push({ method, path, status: response.status, body });

  const month = await client.GET('/api/schedules', { params: { query: { year: 2031, month: 4 } } });
  keep('get', '/api/schedules', month.response, month.data ?? month.error);
  const badMonth = await client.GET('/api/schedules', { params: { query: { year: 2031, month: 13 } } });
  keep('get', '/api/schedules', badMonth.response, badMonth.data ?? badMonth.error);
  if (badMonth.error) { const code: string = badMonth.error.code; void code; }
  const categories = await client.GET('/api/schedule-categories');
  keep('get', '/api/schedule-categories', categories.response, categories.data);
  const missing = await client.GET('/api/schedules/{id}', { params: { path: { id: '999999' } } });
  keep('get', '/api/schedules/{id}', missing.response, missing.data ?? missing.error);
  const members = await client.GET('/api/members');
  keep('get', '/api/members', members.response, members.data);
  const albums = await client.GET('/api/albums');
  keep('get', '/api/albums', albums.response, albums.data);
  const suggestions = await client.GET('/api/schedules/suggestions', { params: { query: { q: '콘서트' } } });
  keep('get', '/api/schedules/suggestions', suggestions.response, suggestions.data ?? suggestions.error);
  const popular = await client.GET('/api/schedules/suggestions/popular');
  keep('get', '/api/schedules/suggestions/popular', popular.response, popular.data);
  const me = await client.GET('/auth/me');
  keep('get', '/auth/me', me.response, me.data);
  const refresh = await client.POST('/auth/refresh', { headers: { authorization: 'Bearer not-a-token' } });
  keep('post', '/auth/refresh', refresh.response, refresh.data ?? refresh.error);
  const register = await client.POST('/auth/register', { body: { email: 'not-an-address', password: 'password-38' } });
  keep('post', '/auth/register', register.response, register.data ?? register.error);

  const unauthorized = await client.GET('/api/admin/bots');
  keep('get', '/api/admin/bots', unauthorized.response, unauthorized.data ?? unauthorized.error);
  const login = await client.POST('/api/auth/login', { body: admin });
  keep('post', '/api/auth/login', login.response, login.data ?? login.error);
  if (!login.data) return answers;
  const authorization = 'Bearer ' + login.data.token;
  const verify = await client.GET('/api/auth/verify', { headers: { authorization } });
  keep('get', '/api/auth/verify', verify.response, verify.data ?? verify.error);
  const bots = await client.GET('/api/admin/bots', { headers: { authorization } });
  keep('get', '/api/admin/bots', bots.response, bots.data ?? bots.error);
  const quota = await client.GET('/api/admin/bots/quota-warning', { headers: { authorization } });
  keep('get', '/api/admin/bots/quota-warning', quota.response, quota.data ?? quota.error);
  const event = await client.GET('/api/admin/events/{id}', { params: { path: { id: 999999 } }, headers: { authorization } });
  keep('get', '/api/admin/events/{id}', event.response, event.data ?? event.error);
  const blocked = await client.GET('/api/schedules/suggestions/blocked', { headers: { authorization } });
  keep('get', '/api/schedules/suggestions/blocked', blocked.response, blocked.data ?? blocked.error);
  const dict = await client.GET('/api/schedules/suggestions/dict', { headers: { authorization } });
  keep('get', '/api/schedules/suggestions/dict', dict.response, dict.data ?? dict.error);
  const stats = await client.GET('/api/stats', { headers: { authorization } });
  keep('get', '/api/stats', stats.response, stats.data ?? stats.error);
  const deleteMissing = await client.DELETE('/api/schedules/{id}', { params: { path: { id: 999999 } }, headers: { authorization } });
  keep('delete', '/api/schedules/{id}', deleteMissing.response, deleteMissing.data ?? deleteMissing.error);
  // A write through the typed JSON body: the payload schema the multipart part also uses.
  const created = await client.POST('/api/schedules', { body: { categoryId: 1, title: '타입 검사 일정', date: '2031-04-05', time: '18:00', memberIds: [] }, headers: { authorization } });
  keep('post', '/api/schedules', created.response, created.data ?? created.error);
  if (created.data) {
    const id: number = created.data.id;
    const read = await client.GET('/api/schedules/{id}', { params: { path: { id } } });
    keep('get', '/api/schedules/{id}', read.response, read.data ?? read.error);
    const replaced = await client.PUT('/api/schedules/{id}', { params: { path: { id } }, body: { categoryId: 2, title: '타입 검사 일정 (수정)', date: '2031-04-06' }, headers: { authorization } });
    keep('put', '/api/schedules/{id}', replaced.response, replaced.data ?? replaced.error);
  }
  // A multipart write typed by the document: the payload part and the file parts, no cast.
  const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
  const withPoster = await client.POST('/api/admin/events', {
    body: { payload: { title: '타입 검사 행사', date: '2031-04-20', schoolName: '타입대학교', venue: { name: '대운동장' } }, posters: [new Blob([png], { type: 'image/png' })] },
    // The body type is the JSON body or the form (the operation takes both): 'payload' tells them apart.
    bodySerializer: (body) => {
      const form = new FormData();
      if (!('payload' in body)) return JSON.stringify(body);
      form.append('payload', new Blob([JSON.stringify(body.payload)], { type: 'application/json' }), 'payload.json');
      for (const poster of body.posters ?? []) form.append('posters', poster, 'poster.png');
      return form;
    },
    headers: { authorization },
  });
  keep('post', '/api/admin/events', withPoster.response, withPoster.data ?? withPoster.error);
  return answers;
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true,
    allowImportingTsExtensions: true, lib: ['ES2022', 'DOM'], types: [],
  },
  files: ['client.ts'],
};

test('types generated from the document type-check a client of every group, and its calls match the document', async (t) => {
  const text = await (await fetch(`${service.url}/api/openapi.json`)).text();
  const document = JSON.parse(text) as { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> }>>; components: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> } };
  // File parts (format: binary) as Blob: openapi-typescript's documented transform, as the SDK generates.
  await writeFile(join(dir, 'schema.d.ts'), astToString(await openapiTS(JSON.parse(text) as never, { transform: binaryAsBlob })));
  await writeFile(join(dir, 'client.ts'), CLIENT);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  const tsc = await promisify(execFile)(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', dir]).catch((error: { stdout: string }) => error);
  t.is(tsc.stdout.trim(), '', 'tsc reports no error');

  const { callEveryGroup } = (await import(pathToFileURL(join(dir, 'client.ts')).href)) as { callEveryGroup: (url: string, admin: { username: string; password: string }) => Promise<Array<{ method: string; path: string; status: number; body: unknown }>> };
  const answers = await callEveryGroup(service.url, ADMIN);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormatsPlugin as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(JSON.parse(text) as object, 'openapi.json');
  const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  const statuses = new Set<number>();
  for (const answer of answers) {
    const documented = document.paths[answer.path]?.[answer.method]?.responses[String(answer.status)];
    t.truthy(documented, `${answer.method} ${answer.path} → ${answer.status} is documented`);
    if (!documented) continue;
    const ref = documented.$ref ? `openapi.json#/${pointer('components', 'responses', documented.$ref.split('/').pop()!, 'content', 'application/json', 'schema')}` : `openapi.json#/${pointer('paths', answer.path, answer.method, 'responses', String(answer.status), 'content', 'application/json', 'schema')}`;
    const validate = ajv.compile({ $ref: ref });
    t.true(validate(answer.body), `${answer.method} ${answer.path} → ${answer.status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(answer.body).slice(0, 200)}`);
    statuses.add(answer.status);
  }
  t.log(`${answers.length} calls, statuses ${[...statuses].sort().join(', ')}`);
  t.true(answers.length >= 20);
  t.true(statuses.has(200) && statuses.has(201) && statuses.has(400) && statuses.has(401) && statuses.has(404));
  const created = answers.find((answer) => answer.method === 'post' && answer.path === '/api/schedules');
  t.is(created?.status, 201, 'the schedule was created through the JSON body');
  const event = answers.find((answer) => answer.method === 'post' && answer.path === '/api/admin/events');
  t.is(event?.status, 201, `the event was created through a typed multipart body: ${JSON.stringify(event?.body)}`);
  const read = answers.find((answer) => answer.method === 'get' && answer.path === '/api/schedules/{id}' && answer.status === 200);
  t.like(read?.body, { title: '타입 검사 일정', date: '2031-04-05', time: '18:00' });
});

/** Request bodies a client must not be able to send: each one alone, so each error is its own. */
const WRONG_BODIES: Array<[string, string]> = [
  ['a misspelt field', `{ categoryId: 1, titel: '오타', date: '2031-04-05' }`],
  ['a missing required field', `{ categoryId: 1, date: '2031-04-05' }`],
  ['a field of the wrong type', `{ categoryId: '1', title: '문자열 ID', date: '2031-04-05' }`],
];

test.serial('the generated types refuse a schedule body with a wrong field, a missing field or a wrong type, and a text path id', async (t) => {
  const text = await (await fetch(`${service.url}/api/openapi.json`)).text();
  await writeFile(join(dir, 'schema.d.ts'), astToString(await openapiTS(JSON.parse(text) as never)));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  const compile = async (name: string, source: string) => {
    await writeFile(join(dir, `${name}.ts`), `import createClient from 'openapi-fetch';\nimport type { paths } from './schema.d.ts';\nconst client = createClient<paths>({ baseUrl: 'http://127.0.0.1:1' });\nexport const call = () => ${source};\n`);
    await writeFile(join(dir, `tsconfig.${name}.json`), JSON.stringify({ ...TSCONFIG, files: [`${name}.ts`] }));
    const run = await promisify(execFile)(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', join(dir, `tsconfig.${name}.json`)]).catch((error: { stdout: string }) => error);
    return run.stdout.trim();
  };
  // The right body compiles, so the failures below are the bodies' own.
  t.is(await compile('right', `client.POST('/api/schedules', { body: { categoryId: 1, title: '맞음', date: '2031-04-05' } })`), '');
  for (const [what, body] of WRONG_BODIES) {
    const errors = await compile(`wrong${WRONG_BODIES.findIndex(([w]) => w === what)}`, `client.POST('/api/schedules', { body: ${body} })`);
    t.regex(errors, /error TS\d+/, `${what}: tsc refuses ${body}`);
  }
  t.regex(await compile('textid', `client.DELETE('/api/schedules/{id}', { params: { path: { id: 'abc' } } })`), /error TS\d+/, 'a text id where the document says integer');
});
