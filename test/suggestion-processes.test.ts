// Suggestions on real processes (docs/search.md, "Suggestions"): two `npm start` processes on one
// database. A schedule renamed or deleted on one leaves the suggestions of both within a second,
// through the same change events as search and the listings; and a blocked query stays out of
// popular searches and completions whatever look-alike spelling it is saved under.
import test from 'ava';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { ADMIN } from './helpers/process.ts';
import { adminToken, call } from './helpers/service.ts';
import { startProcess, type ServiceProcess } from './helpers/service-process.ts';
import { BLOCKED_LOOK_ALIKES } from './helpers/look-alikes.ts';

let database: TestDatabase;
let a: ServiceProcess;
let b: ServiceProcess;
let token: string;
const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', TRUST_PROXY: '1' };

test.before(async () => {
  database = await createTestDatabase();
  // One after the other: both migrate the same database at start.
  a = await startProcess(database, env);
  b = await startProcess(database, env);
  token = await adminToken(a.url);
});
test.after.always(async () => {
  await a?.stop();
  await b?.stop();
  await database?.drop();
});

async function suggest(server: ServiceProcess, q: string): Promise<string[]> {
  const response = await call(server.url, 'GET', `/api/schedules/suggestions?q=${encodeURIComponent(q)}&limit=50`);
  if (response.status !== 200) throw new Error(`suggestions: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.suggestions as string[];
}

/** Milliseconds until `server`'s suggestions for `q` pass `check` (polled), or the failing answer after `limitMs`. */
async function until(server: ServiceProcess, q: string, check: (s: string[]) => boolean, limitMs: number): Promise<{ ms: number; last: string[] }> {
  const started = Date.now();
  for (;;) {
    const last = await suggest(server, q);
    if (check(last)) return { ms: Date.now() - started, last };
    if (Date.now() - started > limitMs) return { ms: Number.POSITIVE_INFINITY, last };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function create(title: string): Promise<number> {
  const response = await call(a.url, 'POST', '/api/schedules', { token, json: { categoryId: 2, title, date: '2035-03-04', time: '18:00' } });
  if (response.status !== 201) throw new Error(`create: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as number;
}

test.serial('a renamed schedule is suggested under its new title only, and a deleted one not at all, on both processes within a second', async (t) => {
  const id = await create('별빛다리 쇼케이스 첫날');
  for (const server of [a, b]) {
    const seen = await until(server, '별빛다리', (s) => s.includes('별빛다리 쇼케이스 첫날'), 10_000);
    t.true(Number.isFinite(seen.ms), `created, on ${server.url}: ${JSON.stringify(seen.last)}`);
  }
  const renamed = await call(a.url, 'PUT', `/api/schedules/${id}`, { token, json: { categoryId: 2, title: '별빛다리 팬미팅 둘째날', date: '2035-03-04', time: '18:00' } });
  t.is(renamed.status, 200, JSON.stringify(renamed.body));
  for (const server of [a, b]) {
    const followed = await until(server, '별빛다리', (s) => s.includes('별빛다리 팬미팅 둘째날') && !s.includes('별빛다리 쇼케이스 첫날'), 1_000);
    t.true(followed.ms <= 1_000, `renamed, on ${server === a ? 'the writing' : 'the other'} process: ${JSON.stringify(followed.last)}`);
    t.deepEqual(await suggest(server, '쇼케이스 첫'), [], 'the old title completes nothing');
  }
  t.is((await call(b.url, 'DELETE', `/api/schedules/${id}`, { token })).status, 200);
  for (const server of [a, b]) {
    const gone = await until(server, '별빛다리', (s) => !s.some((text) => text.startsWith('별빛다리')), 1_000);
    t.true(gone.ms <= 1_000, `deleted on the other process, on ${server.url}: ${JSON.stringify(gone.last)}`);
  }
});

test.serial('a deleted schedule\'s title stays while another schedule carries it', async (t) => {
  const title = '달무리 라디오 공개방송';
  const first = await create(title);
  const second = await create(title);
  for (const server of [a, b]) t.true(Number.isFinite((await until(server, '달무리', (s) => s.includes(title), 10_000)).ms));
  t.is((await call(a.url, 'DELETE', `/api/schedules/${first}`, { token })).status, 200);
  // The other process heard the delete (the listing is the same change event): give it the second.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  for (const server of [a, b]) t.deepEqual(await suggest(server, '달무리'), [title], `still carried by the second schedule, on ${server.url}`);
  t.is((await call(a.url, 'DELETE', `/api/schedules/${second}`, { token })).status, 200);
  for (const server of [a, b]) t.true((await until(server, '달무리', (s) => s.length === 0, 1_000)).ms <= 1_000, `gone with the last one, on ${server.url}`);
});

let host = 0;
/** Each save from its own address in its own /24: every save is one more network. */
const save = (server: ServiceProcess, query: string) => {
  host++;
  return call(server.url, 'POST', '/api/schedules/suggestions/save', { json: { query }, headers: { 'x-forwarded-for': `10.${100 + (host >> 8)}.${host & 255}.7` } });
};

test.serial('a blocked query stays out of popular searches and completions under every look-alike spelling, saved from three networks', async (t) => {
  const blocked = new Set<string>();
  for (const { blocked: query } of BLOCKED_LOOK_ALIKES) {
    if (blocked.has(query)) continue;
    const response = await call(a.url, 'DELETE', `/api/schedules/suggestions/popular?query=${encodeURIComponent(query)}`, { token });
    t.is(response.status, 200);
    blocked.add(query);
  }
  t.true(BLOCKED_LOOK_ALIKES.length >= 50);
  for (const { variant, why } of BLOCKED_LOOK_ALIKES) {
    for (const server of [a, b, a]) t.is((await save(server, variant)).status, 200, why);
  }
  // A control: an unblocked query saved the same way is popular, so the saves did count.
  for (const server of [a, b, a]) await save(server, '별빛다리 응원법');
  const popular = (await call(b.url, 'GET', '/api/schedules/suggestions/popular?limit=50')).body.queries as { query: string }[];
  t.deepEqual(popular.map((row) => row.query), ['별빛다리 응원법'], 'no variant is popular');
  for (const server of [a, b]) {
    for (const { variant, why, typed } of BLOCKED_LOOK_ALIKES) {
      const suggested = await suggest(server, typed);
      t.false(suggested.some((text) => text === variant || blocked.has(text)), `${why}: ${JSON.stringify(suggested)}`);
    }
  }
});
