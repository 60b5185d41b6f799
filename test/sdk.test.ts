// The SDK (sdk/) against the real process: its types are the document the code serves today, its
// reads and admin writes (with files as Buffer and Blob) reach the real routes, failures arrive as
// ApiError with status, code and Retry-After, and 429 is retried after Retry-After for reads only.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ApiError, createClient, type FetchLike } from '../sdk/src/index.ts';
import { typesOf, TYPES_FILE } from '../sdk/scripts/generate.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { jpegImage, pngImage } from './helpers/images.ts';
import { ADMIN } from './helpers/process.ts';
import { startProcess, type ServiceProcess } from './helpers/service-process.ts';

let database: TestDatabase;
let server: ServiceProcess;

test.before(async () => {
  database = await createTestDatabase();
  // A small query budget (3 searches, then 1 a second) so a real 429 with Retry-After is reachable.
  server = await startProcess(database, { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', QUERY_BUDGET_BURST: '3', QUERY_BUDGET_PER_SECOND: '1' });
});
test.after.always(async () => {
  await server?.stop();
  await database?.drop();
});

/** A fetch that records each request's method, path and status. */
function recordingFetch(): { fetch: FetchLike; seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      seen.push(`${init?.method ?? 'GET'} ${new URL(input).pathname} ${response.status}`);
      return response;
    },
  };
}

test('the SDK types are generated from the document the code serves now (npm run generate -w sdk when this fails)', async (t) => {
  const document = await (await fetch(`${server.url}/api/openapi.json`)).json();
  const expected = await typesOf(document);
  const committed = await readFile(TYPES_FILE, 'utf8');
  t.true(committed === expected, 'sdk/src/openapi.ts is stale: run `npm run generate -w sdk -- <server URL>`');
});

test.serial('admin writes with files: a schedule with images (Buffer and Blob), an event with posters; reads return them', async (t) => {
  const client = createClient({ baseUrl: server.url });
  t.like(await t.throwsAsync(client.schedules.create({ categoryId: 2, title: '토큰 없이', date: '2035-03-01' }), { instanceOf: ApiError }), { status: 401, code: 'token_missing' });
  const login = await client.login(ADMIN.username, ADMIN.password);
  t.is(login.user.username, ADMIN.username);
  t.is(client.token, login.token);

  const created = await client.schedules.create(
    { categoryId: 2, title: 'SDK 공연 사진', date: '2035-03-14', time: '19:30' },
    { images: [await pngImage(800, 600), new Blob([await jpegImage(900, 600)], { type: 'image/jpeg' })] },
  );
  const detail = await client.schedules.get(created.id);
  t.is(detail.title, 'SDK 공연 사진');
  t.is(detail.images.length, 2, 'both files became images, in order');

  const month = await client.schedules.month(2035, 3);
  t.deepEqual(month.schedules.map((item) => item.id), [created.id]);
  t.is(month.schedules[0]!.time, '19:30');

  const event = await client.events.create(
    { title: 'SDK 대학 축제', date: '2035-03-20', schoolName: 'SDK대학교', venue: { name: 'SDK대학교 대운동장' } },
    { posters: [{ data: await pngImage(600, 900), name: 'poster.png', type: 'image/png' }] },
  );
  const eventDetail = await client.events.get(event.id);
  t.is(eventDetail.posters.length, 1);

  // A JSON body when there are no files; an update that keeps one image and adds none.
  const updated = await client.schedules.update(created.id, { categoryId: 2, title: 'SDK 공연 사진 (수정)', date: '2035-03-14', keepImageIds: [detail.images[0]!.id] });
  t.is(updated.id, created.id);
  t.is((await client.schedules.get(created.id)).images.length, 1);

  // A duplicate category name is its own code; a missing schedule is 404 not_found.
  await client.request('POST', '/api/schedule-categories', { json: { name: 'SDK 분류', color: '#123456' } });
  const duplicate = await t.throwsAsync(client.request('POST', '/api/schedule-categories', { json: { name: 'SDK 분류', color: '#654321' } }));
  t.like(duplicate, { status: 409, code: 'name_taken' });
  const missing = await t.throwsAsync(client.schedules.get(999_999));
  t.true(missing instanceof ApiError);
  t.like(missing, { status: 404, code: 'not_found' });
  t.regex(missing!.message, /[가-힣]/, 'the Korean message for people');
  await client.schedules.remove(created.id);
  t.like(await t.throwsAsync(client.schedules.get(created.id)), { status: 404 });
});

test.serial('public reads: members, albums, categories, suggestions, search, and a bad query as ApiError 400', async (t) => {
  const client = createClient({ baseUrl: server.url });
  t.true(Array.isArray(await client.members.list()));
  t.true(Array.isArray(await client.albums.list()));
  t.true((await client.schedules.categories()).some((category) => category.id === 11));
  const results = await client.schedules.search('SDK 대학 축제', { limit: 5 });
  t.true(results.schedules.some((item) => item.title === 'SDK 대학 축제'));
  t.is(typeof results.total, 'number');
  const bad = await t.throwsAsync(client.schedules.month(2035, 13));
  t.like(bad, { status: 400, code: 'invalid_request' });
});

test.serial('429: a read waits Retry-After (with jitter) and succeeds; a login refused 429 is not repeated', async (t) => {
  const { fetch, seen } = recordingFetch();
  const client = createClient({ baseUrl: server.url, fetch, retry: { baseDelayMs: 50 } });
  // Past the burst of the query budget: some search is refused 429, then retried and answered.
  const started = Date.now();
  for (let i = 0; i < 6; i++) await client.schedules.suggestions(`재시도 ${i}`);
  const refused = seen.filter((line) => line.endsWith(' 429'));
  t.true(refused.length >= 1, seen.join('\n'));
  t.true(Date.now() - started >= 1000, 'waited at least the Retry-After second');
  t.true(seen.filter((line) => line.endsWith(' 200')).length === 6, 'every call finally answered');

  // A fan's login locked out (POST): the error comes back at once with its Retry-After.
  const fan = recordingFetch();
  const other = createClient({ baseUrl: server.url, fetch: fan.fetch });
  for (let i = 0; i < 5; i++) t.like(await t.throwsAsync(other.auth.login('nobody-sdk@example.org', 'wrong-password')), { status: 401, code: 'invalid_credentials' });
  const locked = (await t.throwsAsync(other.auth.login('nobody-sdk@example.org', 'wrong-password'))) as ApiError;
  t.like(locked, { status: 429, code: 'locked_out' });
  t.true((locked.retryAfter ?? 0) > 0, `Retry-After ${String(locked.retryAfter)}`);
  t.is(fan.seen.length, 6, 'no POST was repeated');
});

test('a network failure is ApiError status 0 network_error after the retries of a read', async (t) => {
  const client = createClient({ baseUrl: 'http://127.0.0.1:1', retry: { attempts: 1, baseDelayMs: 10 } });
  t.like(await t.throwsAsync(client.members.list()), { status: 0, code: 'network_error' });
});

test('the built package: ESM with declarations that a strict consumer type-checks (the ws class as its WebSocket)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'sdk-consumer-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const tsc = (...args: string[]) => promisify(execFile)(process.execPath, [resolve('node_modules/typescript/bin/tsc'), ...args]).catch((error: { stdout: string }) => error);
  const pkg = join(dir, 'node_modules', '@schedule-calendar', 'sdk');
  await mkdir(pkg, { recursive: true });
  await writeFile(join(pkg, 'package.json'), await readFile('sdk/package.json'));
  t.is((await tsc('-p', 'sdk/tsconfig.json', '--outDir', join(pkg, 'dist'))).stdout.trim(), '', 'the SDK builds');
  for (const name of ['ws', '@types', 'typescript']) await symlink(resolve('node_modules', name), join(dir, 'node_modules', name));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'] }, files: ['app.ts'] }));
  await writeFile(join(dir, 'app.ts'), [
    "import { ApiError, createClient, followMonth } from '@schedule-calendar/sdk';",
    "import WebSocket from 'ws';",
    "const api = createClient({ baseUrl: 'http://127.0.0.1:1', live: { WebSocket } });",
    "export const code = api.schedules.month(2026, 5).then((listing) => listing.schedules.map((item) => item.title), (error: unknown) => (error instanceof ApiError ? error.code : ''));",
    'export const followed = followMonth(api, 2026, 5, { onUpdate: (listing) => listing.schedules.length });',
  ].join('\n'));
  t.is((await tsc('-p', dir)).stdout.trim(), '', 'the consumer type-checks');
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', "const sdk = await import('@schedule-calendar/sdk'); console.log(Object.keys(sdk).sort().join(','))"], { cwd: dir });
  t.is(stdout.trim(), 'ApiError,applyChange,createClient,followMonth,formOf');
});
