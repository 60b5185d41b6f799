// Findings of an outside security and specification review, each tried on the real server as a
// client or an attacker sees it. Each test failed on the code before its fix.
import test from 'ava';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startFakeVideoPlatform, type FakeVideo, type FakeVideoPlatform } from './fakes/video-platform.ts';
import { createTestDatabase } from './helpers/database.ts';
import { insertMember } from './helpers/factory.ts';
import { pngImage } from './helpers/images.ts';
import { ADMIN, adminToken, call, startTestService, type TestService } from './helpers/service.ts';

const API_KEY = 'AIzaReviewTestKey-0123456789';
const CHANNEL = 'UCreviewchannel00000000a';
const METRICS_HOST = '127.0.0.2';
const REGISTER_LIMIT = 3;

let fake: FakeVideoPlatform;
let service: TestService;
let token: string;
let configDir: string;

test.before(async () => {
  fake = await startFakeVideoPlatform({ apiKey: API_KEY });
  const videos: FakeVideo[] = Array.from({ length: 120 }, (_, i) => ({ videoId: `rev${String(i).padStart(8, '0')}`, title: `루미네 영상 ${i}`, publishedAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString() }));
  fake.setChannel(CHANNEL, videos, { title: 'LUMINE' });
  configDir = await mkdtemp(join(tmpdir(), 'review-bots-'));
  const botsFile = join(configDir, 'bots.json');
  await writeFile(botsFile, JSON.stringify([{ id: 'review-channel', name: '리뷰 채널', type: 'video', intervalMinutes: 60, config: { channelId: CHANNEL, channelName: 'LUMINE', titleFilter: { include: [], exclude: [] }, defaultMemberIds: [], extractMembers: false } }]));
  service = await startTestService({
    REGISTER_LIMIT_PER_HOUR: String(REGISTER_LIMIT),
    BOTS_CONFIG: botsFile,
    VIDEO_API_URL: fake.url,
    VIDEO_API_KEY: API_KEY,
    METRICS_HOST,
  });
  token = await adminToken(service.url);
});
test.after.always(async () => {
  await service?.stop();
  await fake?.close();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

const db = () => service.running.services.db;
let clients = 0;
/** A client address of its own for each call: the registration limit counts per address. */
const freshClient = () => `10.37.${(++clients >> 8) & 255}.${clients & 255}`;
const register = (email: string, client = freshClient()) =>
  call(service.url, 'POST', '/auth/register', { json: { email, password: 'password1' }, headers: { 'x-forwarded-for': client } });

/** A request with header lines as given, several lines of one name included (fetch joins them into one). */
function rawHeaders(method: string, path: string, headers: Record<string, string | string[]>, body?: string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const url = new URL(path, service.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path: url.pathname + url.search, headers: { ...headers, ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Writes raw bytes on one connection; everything the server sends until it closes (or `waitMs` passes). */
/** What the server sends back within `waitMs`, or until `answers` status lines came (a loaded machine answers late). */
function rawExchange(bytes: string, waitMs = 1500, answers = Number.POSITIVE_INFINITY): Promise<{ text: string; closed: boolean }> {
  const { port } = new URL(service.url);
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, waitMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (statusLines(text).length >= answers) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ text, closed: false });
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}
const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];

// ---- 1. one mailbox, one account ---------------------------------------------------------------

test('full-width spellings of a domain are the one mailbox nodemailer delivers to: 409, stored in ASCII', async (t) => {
  const local = `lookalike-${randomUUID().slice(0, 8)}`;
  t.is((await register(`${local}@example.org`)).status, 200);
  for (const spelling of [`${local}@ｅxample.org`, `${local}@ＥＸＡＭＰＬＥ.org`, `${local}@ｅｘａｍｐｌｅ.ｏｒｇ`]) {
    const response = await register(spelling);
    t.is(response.status, 409, spelling);
  }
  const other = `fw-${randomUUID().slice(0, 8)}`;
  t.is((await register(`${other}@ｅｘａｍｐｌｅ.net`)).status, 200);
  const stored = await db().any<{ email: string }>('SELECT email FROM users WHERE email LIKE $1 ORDER BY id', [`${other}@%`]);
  t.deepEqual(stored.map((row) => row.email), [`${other}@example.net`]);
  // The full-width spelling logs in to it (403: not verified yet, so the account was found).
  const login = await call(service.url, 'POST', '/auth/login', { json: { email: `${other}@ＥＸＡＭＰＬＥ.net`, password: 'password1' }, headers: { 'x-forwarded-for': freshClient() } });
  t.is(login.status, 403);
});

test('a zero-width character in an address, or a domain UTS #46 cannot map, gives 400', async (t) => {
  const id = randomUUID().slice(0, 8);
  for (const email of [`zw-${id}@exa\u200bmple.org`, `zw\u200d-${id}@example.org`, `bom-${id}@example.org\ufeff`, `bad-${id}@xn--zz.example`]) {
    const response = await register(email);
    t.is(response.status, 400, JSON.stringify(email));
    t.is(typeof response.body.error, 'string');
  }
  t.is((await db().one<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE email LIKE $1', [`%${id}%`])).n, 0);
});

// ---- 2. client addresses -------------------------------------------------------------------------

test('X-Forwarded-For on two lines is one list: the proxy’s entry locks after 5 failures whatever the client wrote', async (t) => {
  const proxyEntry = '198.51.100.37';
  const attempt = (i: number) => rawHeaders('POST', '/auth/login', { 'x-forwarded-for': [`10.200.${i}.1`, proxyEntry] }, JSON.stringify({ email: `nobody-${i}@example.org`, password: 'wrong-password' }));
  for (let i = 0; i < 5; i++) t.is((await attempt(i)).status, 401, `attempt ${i + 1}`);
  const locked = await attempt(5);
  t.is(locked.status, 429, locked.text);
});

test('IPv6 neighbours in one /64 share the login lockout and the registration limit', async (t) => {
  const login = (host: number) => call(service.url, 'POST', '/auth/login', { json: { email: `nobody@example.org`, password: 'wrong-password' }, headers: { 'x-forwarded-for': `2001:db8:37:1::${host.toString(16)}` } });
  for (let host = 1; host <= 5; host++) t.is((await login(host)).status, 401);
  t.is((await login(0xffff)).status, 429, 'a sixth address of the same /64');
  t.is((await call(service.url, 'POST', '/auth/login', { json: { email: 'nobody@example.org', password: 'wrong-password' }, headers: { 'x-forwarded-for': '2001:db8:37:2::1' } })).status, 401, 'the next /64 is another client');

  const id = randomUUID().slice(0, 8);
  for (let host = 1; host <= REGISTER_LIMIT; host++) t.is((await register(`v6-${host}-${id}@example.org`, `2001:db8:37:3::${host}`)).status, 200);
  t.is((await register(`v6-more-${id}@example.org`, '2001:db8:37:3:ffff:ffff:ffff:ffff')).status, 429);
});

// ---- 3. administrator tokens ---------------------------------------------------------------------

const execFileAsync = promisify(execFile);

test('a restart with a new ADMIN_PASSWORD revokes earlier tokens; the same password keeps them; npm run admin disables and removes', async (t) => {
  const database = await createTestDatabase();
  const secret = randomBytes(32).toString('hex');
  const start = (password: string) => startTestService({ JWT_SECRET: secret, ADMIN_PASSWORD: password }, { database });
  const verify = (url: string, adminToken: string) => call(url, 'GET', '/api/auth/verify', { token: adminToken });
  const login = async (url: string, username: string, password: string) => call(url, 'POST', '/api/auth/login', { json: { username, password }, headers: { 'x-forwarded-for': freshClient() } });
  let running: TestService | null = null;
  try {
    running = await start(ADMIN.password);
    const first = (await login(running.url, ADMIN.username, ADMIN.password)).body.token as string;
    t.is((await verify(running.url, first)).status, 200);
    await running.stop();
    running = null;
    running = await start(ADMIN.password);
    t.is((await verify(running.url, first)).status, 200, 'same password: still valid');
    await running.stop();
    running = null;
    running = await start('a-new-password-2');
    t.is((await verify(running.url, first)).status, 401, 'new password: the earlier token is revoked');
    t.is((await login(running.url, ADMIN.username, ADMIN.password)).status, 401);
    const second = (await login(running.url, ADMIN.username, 'a-new-password-2')).body.token as string;
    t.is((await verify(running.url, second)).status, 200);

    // The operator's CLI, against the running server's database.
    const dataDir = running.dataDir;
    const admin = (...args: string[]) => execFileAsync(process.execPath, ['--import', 'tsx', 'app/admin-cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: database.url, JWT_SECRET: secret, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_USERNAME: '', ADMIN_PASSWORD: '' },
    });
    t.regex((await admin('list')).stdout, new RegExp(`\\t${ADMIN.username}\\tenabled`));
    await admin('disable', ADMIN.username);
    t.is((await verify(running.url, second)).status, 401, 'disabled: its token is revoked at once');
    t.is((await login(running.url, ADMIN.username, 'a-new-password-2')).status, 401, 'disabled: cannot log in');
    await admin('enable', ADMIN.username);
    t.is((await verify(running.url, second)).status, 401, 'enabled again: the revoked token stays revoked');
    const third = (await login(running.url, ADMIN.username, 'a-new-password-2')).body.token as string;
    t.is((await verify(running.url, third)).status, 200);
    await admin('remove', ADMIN.username);
    t.is((await verify(running.url, third)).status, 401, 'removed');
    t.regex((await admin('list')).stdout, /no administrators/);
    await t.throwsAsync(admin('disable', 'nobody'));
  } finally {
    await running?.stop();
    await database.drop();
  }
});

// ---- 4. HEAD is safe -----------------------------------------------------------------------------

test('HEAD /auth/verify/<token> answers but leaves the account unverified; GET verifies it', async (t) => {
  const email = `head-${randomUUID().slice(0, 8)}@example.org`;
  t.is((await register(email)).status, 200);
  const { verify_token: verifyToken } = await db().one<{ verify_token: string }>('SELECT verify_token FROM users WHERE email = $1', [email]);
  const head = await fetch(`${service.url}/auth/verify/${verifyToken}`, { method: 'HEAD' });
  t.is(head.status, 200);
  t.false((await db().one<{ email_verified: boolean }>('SELECT email_verified FROM users WHERE email = $1', [email])).email_verified);
  t.is((await call(service.url, 'GET', `/auth/verify/${verifyToken}`)).status, 200);
  t.true((await db().one<{ email_verified: boolean }>('SELECT email_verified FROM users WHERE email = $1', [email])).email_verified);
});

// ---- 5. sync-all runs once -----------------------------------------------------------------------

test('ten parallel sync-all calls make one pass of video API reads and get its one result', async (t) => {
  const before = fake.requests.length;
  fake.delayNext(400); // the first page is slow: every call arrives while the pass runs
  const responses = await Promise.all(Array.from({ length: 10 }, () => call(service.url, 'POST', '/api/admin/bots/review-channel/sync-all', { token })));
  for (const response of responses) t.is(response.status, 200, JSON.stringify(response.body));
  t.deepEqual(new Set(responses.map((response) => JSON.stringify(response.body))).size, 1, 'the same result');
  t.deepEqual(responses[0]!.body, { success: true, added: 120, total: 120 });
  const pages = fake.requests.slice(before).filter((request) => request.endpoint === 'playlistItems');
  t.is(pages.length, 3, '120 uploads = 3 pages of 50, read once');
});

// ---- 6, 7. events --------------------------------------------------------------------------------

function eventForm(venue: Record<string, unknown>, posters: Array<{ fileName: string; bytes: Uint8Array }> = []): FormData {
  const data = new FormData();
  data.append('payload', JSON.stringify({ title: `리뷰 행사 ${randomUUID().slice(0, 6)}`, date: '2026-05-14', time: '19:30', schoolName: '리뷰대학교', memberIds: [], venue }));
  for (const poster of posters) data.append('posters', new Blob([poster.bytes], { type: 'application/octet-stream' }), poster.fileName);
  return data;
}
const createEvent = async (form: FormData) => {
  const response = await call(service.url, 'POST', '/api/admin/events/', { body: form, token });
  if (response.status !== 201) throw new Error(`create: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as number;
};
const getEvent = async (id: number) => (await call(service.url, 'GET', `/api/admin/events/${id}`, { token })).body;

test('an event saved with a venue of only {name, map_id} keeps the shared venue’s address, road address, lat and lng', async (t) => {
  const mapId = `review-map-${randomUUID()}`;
  const full = { name: '리뷰 홀', address: '서울 종로구 리뷰동 1', roadAddress: '리뷰로 1', lat: 37.5, lng: 127.0, map_id: mapId };
  const first = await createEvent(eventForm(full));
  const second = await createEvent(eventForm({ name: '리뷰 홀', map_id: mapId }));
  for (const id of [first, second]) {
    const venue = (await getEvent(id)).venue;
    t.like(venue, { address: full.address, roadAddress: full.roadAddress, lat: full.lat, lng: full.lng, map_id: mapId }, `event ${id}`);
  }
});

test('a poster without extension is stored under the extension of its bytes and served with their type', async (t) => {
  const png = await pngImage(320, 240, 37);
  const id = await createEvent(eventForm({ name: '포스터 홀', address: '서울' }, [{ fileName: 'poster', bytes: png }]));
  const [poster] = (await getEvent(id)).posters;
  t.regex(poster.originalUrl, /\/01\.png$/);
  const served = await fetch(poster.originalUrl);
  t.is(served.status, 200);
  t.is(served.headers.get('content-type'), 'image/png');
  const bytes = Buffer.from(await served.arrayBuffer());
  t.deepEqual(bytes.subarray(0, 8), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'PNG bytes');
});

// ---- 8. birthdays --------------------------------------------------------------------------------

test('a member’s birthday is listed from her birth year on, never before', async (t) => {
  const member = await insertMember(db(), { name: `생일리뷰${randomUUID().slice(0, 4)}`, birthDate: '2003-01-17' });
  const birthdayIn = async (year: number) => {
    const response = await call(service.url, 'GET', `/api/schedules/?year=${year}&month=1`);
    t.is(response.status, 200);
    return JSON.stringify(response.body).includes(`birthday-${member.id}-${year}`);
  };
  t.false(await birthdayIn(1900));
  t.false(await birthdayIn(2002));
  t.true(await birthdayIn(2003));
  t.true(await birthdayIn(2030));
  // The detail answers exactly the birthdays the listing shows.
  const detail = async (year: string) => (await call(service.url, 'GET', `/api/schedules/birthday-${member.id}-${year}`)).status;
  for (const year of ['1900', '2002', '0000', '1899', '3000', '9999']) t.is(await detail(year), 404, year);
  for (const year of ['2003', '2030', '2999']) t.is(await detail(year), 200, year);
  const former = await insertMember(db(), { name: `전멤버리뷰${randomUUID().slice(0, 4)}`, birthDate: '2001-03-03', isFormer: true });
  t.is((await call(service.url, 'GET', `/api/schedules/birthday-${former.id}-2030`)).status, 404, 'a former member’s birthday is not listed, so it has no detail');
});

// ---- 9. headers ----------------------------------------------------------------------------------

test('answers carrying a token are no-store; JSON answers are nosniff; a 401 names Bearer', async (t) => {
  const adminLogin = await call(service.url, 'POST', '/api/auth/login', { json: ADMIN, headers: { 'x-forwarded-for': freshClient() } });
  t.is(adminLogin.status, 200);
  t.is(adminLogin.headers.get('cache-control'), 'no-store');

  const email = `hdr-${randomUUID().slice(0, 8)}@example.org`;
  t.is((await register(email)).status, 200);
  await db().none('UPDATE users SET email_verified = true WHERE email = $1', [email]);
  const login = await call(service.url, 'POST', '/auth/login', { json: { email, password: 'password1' }, headers: { 'x-forwarded-for': freshClient() } });
  t.is(login.status, 200);
  t.is(login.headers.get('cache-control'), 'no-store');
  const refresh = await call(service.url, 'POST', '/auth/refresh', { token: login.body.token });
  t.is(refresh.status, 200);
  t.is(refresh.headers.get('cache-control'), 'no-store');

  // The cached month (twice: filled, then from the cache), an error, a 304-able answer.
  for (const path of ['/api/schedules/?year=2026&month=3', '/api/schedules/?year=2026&month=3', '/no/such/path', '/auth/me']) {
    const response = await fetch(service.url + path);
    t.is(response.headers.get('x-content-type-options'), 'nosniff', path);
  }
  const unauthorized = await call(service.url, 'GET', '/api/admin/bots');
  t.is(unauthorized.status, 401);
  t.is(unauthorized.headers.get('www-authenticate'), 'Bearer');
  t.is(unauthorized.headers.get('x-content-type-options'), 'nosniff');
});

test('the metrics listener binds METRICS_HOST only', async (t) => {
  const port = new URL(service.metricsUrl).port;
  t.is((await fetch(`http://${METRICS_HOST}:${port}/metrics`)).status, 200);
  await t.throwsAsync(fetch(`http://127.0.0.1:${port}/metrics`), undefined, 'not on the other loopback address');
});

// ---- 10. framing ---------------------------------------------------------------------------------

const SMUGGLED = 'GET /smuggled-request HTTP/1.1\r\nHost: x\r\n\r\n';

test('pipelined requests with sound framing are both answered (the method below sees a second answer)', async (t) => {
  const { text } = await rawExchange(`GET /no/such/path HTTP/1.1\r\nHost: x\r\n\r\n${SMUGGLED}`, 10_000, 2);
  t.is(statusLines(text).length, 2, text);
});

for (const [name, head, body] of [
  ['two different Content-Length values', 'Content-Length: 5\r\nContent-Length: 48', 'hello'],
  ['Transfer-Encoding gzip, chunked', 'Transfer-Encoding: gzip, chunked', '5\r\nhello\r\n0\r\n\r\n'],
  ['Transfer-Encoding on two lines, chunked then identity', 'Transfer-Encoding: chunked\r\nTransfer-Encoding: identity', '5\r\nhello\r\n0\r\n\r\n'],
] as const) {
  test(`10: ${name}: 400 and the connection closed; no request smuggled behind it`, async (t) => {
    const request = `POST /auth/logout HTTP/1.1\r\nHost: x\r\n${head}\r\n\r\n${body}`;
    const alone = await rawExchange(request);
    t.deepEqual(statusLines(alone.text), ['HTTP/1.1 400'], alone.text);
    t.true(alone.closed, 'closed');
    t.regex(alone.text, /"error"/);

    const smuggling = await rawExchange(request + SMUGGLED);
    t.true(smuggling.closed, 'closed');
    t.false(statusLines(smuggling.text).some((line) => line !== 'HTTP/1.1 400'), smuggling.text);
    t.true(statusLines(smuggling.text).length <= 1, `the smuggled request got no answer: ${smuggling.text}`);
  });
}
