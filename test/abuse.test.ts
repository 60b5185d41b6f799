// Abuse limits (docs/security.md), over real HTTP against real PostgreSQL and the
// real bcrypt pool: client addresses from trusted hops only, the atomic per-address lockout, the
// per-account slowdown that never locks the owner out, registration limits and mailbox-only
// addresses, token checks, popularity that one address cannot buy, and quiet aborted uploads.
import test from 'ava';
import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../shared/runtime/config.ts';
import { accountDelayFor, ACCOUNT_DELAY_MAX_MS, ACCOUNT_FREE_FAILURES, LOCKOUT_FAILURES } from '../shared/db/repositories/login-attempts.ts';
import { adminToken, ADMIN, call, startTestService, type LogCapture, type TestService } from './helpers/service.ts';

let proxied: TestService; // TRUST_PROXY=1 (the test helper's default), REGISTER_LIMIT_PER_HOUR=20
let direct: TestService; // TRUST_PROXY=0: the connection's address, headers ignored
const logs: LogCapture = { lines: [] };
const MINUTE = 60_000;

test.before(async () => {
  [proxied, direct] = await Promise.all([
    startTestService({ REGISTER_LIMIT_PER_HOUR: '20' }, { captureLogs: logs }),
    startTestService({ TRUST_PROXY: '0' }),
  ]);
});
test.after.always(async () => {
  await Promise.all([proxied?.stop(), direct?.stop()]);
});

let counter = 0;
const uniqueIp = () => `203.${(++counter >> 8) & 255}.${counter & 255}.9`;
const uniqueEmail = () => `abuse${++counter}-${randomUUID().slice(0, 8)}@example.com`;
/** A distinct loopback source address (Linux routes all of 127/8 to lo). */
const uniqueLoopback = () => `127.0.${10 + ((++counter >> 8) & 127)}.${(counter & 255) || 1}`;

/** One JSON request from a chosen local (source) address, with raw headers. */
function fromAddress(base: string, localAddress: string, method: string, path: string, json: unknown, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: any; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const body = Buffer.from(JSON.stringify(json));
    const req = request(base + path, { method, localAddress, headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function verifiedUser(service: TestService, password = 'correct horse 1') {
  const email = uniqueEmail();
  const registered = await call(service.url, 'POST', '/auth/register', { json: { email, password }, headers: { 'x-forwarded-for': uniqueIp() } });
  if (registered.status !== 200) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  await service.running.services.db.none('UPDATE users SET email_verified = true WHERE email = $1', [email]);
  return { email, password };
}

/** Token times from the service's clock (serial tests move it forward). */
const lifetime = (seconds: number) => {
  const iat = Math.floor(proxied.clock.now() / 1000);
  return { iat, exp: iat + seconds };
};

const statusCounts = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

// ---- TRUST_PROXY ---------------------------------------------------------------------------------

test('TRUST_PROXY is validated at start: an integer 0..10, default 0', (t) => {
  const base = { JWT_SECRET: 'x'.repeat(40) };
  t.is(loadConfig(base).trustProxy, 0);
  t.is(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy, 2);
  for (const bad of ['-1', 'yes', '1.5', '11']) {
    const error = t.throws(() => loadConfig({ ...base, TRUST_PROXY: bad }), { instanceOf: ConfigError });
    t.is(error?.variable, 'TRUST_PROXY');
  }
  t.is(loadConfig(base).registerLimitPerHour, 20);
  t.throws(() => loadConfig({ ...base, REGISTER_LIMIT_PER_HOUR: '0' }), { instanceOf: ConfigError });
});

test('TRUST_PROXY=0: a new X-Forwarded-For or X-Real-IP on every wrong login still locks the connection address', async (t) => {
  const source = uniqueLoopback();
  const { email } = await verifiedUser(direct);
  for (let i = 0; i < LOCKOUT_FAILURES; i++) {
    const wrong = await fromAddress(direct.url, source, 'POST', '/auth/login', { email, password: 'wrong-password' }, { 'x-forwarded-for': uniqueIp(), 'x-real-ip': uniqueIp() });
    t.is(wrong.status, 401);
  }
  const locked = await fromAddress(direct.url, source, 'POST', '/auth/login', { email, password: 'wrong-password' }, { 'x-forwarded-for': uniqueIp() });
  t.is(locked.status, 429);
  // Another source address is not affected, whatever header it writes: nobody can lock out a victim by naming it.
  const other = await fromAddress(direct.url, uniqueLoopback(), 'POST', '/auth/login', { email, password: 'wrong-password' }, { 'x-forwarded-for': source });
  t.is(other.status, 401);
  const row = await direct.running.services.db.one("SELECT failure_count FROM login_attempts WHERE scope = 'user' AND ip = $1", [source]);
  t.is(row.failure_count, LOCKOUT_FAILURES);
});

test('TRUST_PROXY=0: parallel logins from different connections are each counted for their own address', async (t) => {
  const sources = Array.from({ length: 12 }, () => uniqueLoopback());
  const responses = await Promise.all(sources.map((source) => fromAddress(direct.url, source, 'POST', '/auth/login', { email: uniqueEmail(), password: 'wrong-password' })));
  t.deepEqual(responses.map((r) => r.status), sources.map(() => 401));
  const rows = await direct.running.services.db.any("SELECT ip, failure_count FROM login_attempts WHERE scope = 'user' AND ip IN ($1:csv) ORDER BY ip", [sources]);
  t.deepEqual(rows, [...sources].sort().map((ip) => ({ ip, failure_count: 1 })));
});

test('TRUST_PROXY=1: the last X-Forwarded-For entry is the client; rotating the entries a client writes before it locks nothing else', async (t) => {
  const { email } = await verifiedUser(proxied);
  const client = uniqueIp();
  const victim = uniqueIp();
  // The client writes anything first; the trusted proxy appends the address it saw.
  for (let i = 0; i < LOCKOUT_FAILURES; i++) {
    const wrong = await call(proxied.url, 'POST', '/auth/login', { json: { email, password: 'wrong-password' }, headers: { 'x-forwarded-for': `${uniqueIp()}, ${victim}, ${client}` } });
    t.is(wrong.status, 401);
  }
  const locked = await call(proxied.url, 'POST', '/auth/login', { json: { email, password: 'wrong-password' }, headers: { 'x-forwarded-for': `${uniqueIp()}, ${client}` } });
  t.is(locked.status, 429);
  t.is((await call(proxied.url, 'POST', '/auth/login', { json: { email, password: 'wrong-password' }, headers: { 'x-forwarded-for': victim } })).status, 401, 'the victim named in the header is not locked');
  // X-Real-IP counts only when X-Forwarded-For is absent.
  t.is((await call(proxied.url, 'POST', '/auth/login', { json: { email, password: 'wrong-password' }, headers: { 'x-real-ip': client } })).status, 429);
  t.is((await call(proxied.url, 'POST', '/auth/login', { json: { email, password: 'wrong-password' }, headers: { 'x-real-ip': client, 'x-forwarded-for': uniqueIp() } })).status, 401);
});

test('TRUST_PROXY=1: the chosen entry is read as an address: a port, brackets or an IPv4-mapped spelling is the same client', async (t) => {
  const { email } = await verifiedUser(proxied);
  const ip = uniqueIp();
  const spellings = [`${ip}:5678`, `[::ffff:${ip}]:80`, `::ffff:${ip}`, `[::FFFF:${ip}]`, ip];
  for (const spelling of spellings.slice(0, LOCKOUT_FAILURES)) {
    const wrong = await call(proxied.url, 'POST', '/auth/login', { json: { email, password: 'wrong-password' }, headers: { 'x-forwarded-for': `${uniqueIp()}, ${spelling}` } });
    t.is(wrong.status, 401, spelling);
  }
  for (const spelling of [`${ip}:1`, `[0:0:0:0:0:ffff:${ip}]:443`]) {
    t.is((await call(proxied.url, 'POST', '/auth/login', { json: { email, password: 'wrong-password' }, headers: { 'x-forwarded-for': spelling } })).status, 429, spelling);
  }
  const rows = await proxied.running.services.db.any("SELECT ip, failure_count FROM login_attempts WHERE scope = 'user' AND ip LIKE $1", [`%${ip}%`]);
  t.deepEqual(rows, [{ ip, failure_count: LOCKOUT_FAILURES }], 'one row, under the plain address');
});

test('TRUST_PROXY=1: a chosen entry that is not an address is a 400 naming its header', async (t) => {
  for (const [headers, named] of [
    [{ 'x-forwarded-for': 'not-an-address' }, 'X-Forwarded-For'],
    [{ 'x-forwarded-for': `${uniqueIp()}, unknown` }, 'X-Forwarded-For'],
    [{ 'x-forwarded-for': '1.2.3.4:99999' }, 'X-Forwarded-For'],
    [{ 'x-forwarded-for': '[1.2.3.4]' }, 'X-Forwarded-For'],
    [{ 'x-real-ip': '::1:80:zz' }, 'X-Real-IP'],
  ] as const) {
    const response = await call(proxied.url, 'POST', '/auth/login', { json: { email: uniqueEmail(), password: 'wrong-password' }, headers });
    t.is(response.status, 400, JSON.stringify(headers));
    t.is(response.body.code, 'invalid_client_address');
    t.true(response.body.error.includes(named), response.body.error);
  }
  // Only the chosen entry is read: what the client wrote before it does not matter.
  const ok = await call(proxied.url, 'POST', '/auth/login', { json: { email: uniqueEmail(), password: 'wrong-password' }, headers: { 'x-forwarded-for': `garbage, ${uniqueIp()}` } });
  t.is(ok.status, 401);
  // Without a trusted proxy the headers are not read at all.
  const unread = await fromAddress(direct.url, uniqueLoopback(), 'POST', '/auth/login', { email: uniqueEmail(), password: 'wrong-password' }, { 'x-forwarded-for': 'not-an-address' });
  t.is(unread.status, 401);
});

// ---- atomic lockout ------------------------------------------------------------------------------

for (const [route, scope] of [['/auth/login', 'user'], ['/api/auth/login', 'admin']] as const) {
  test(`lockout: 40 parallel wrong logins from one address on ${route} evaluate at most ${LOCKOUT_FAILURES} passwords`, async (t) => {
    const ip = uniqueIp();
    const { email } = await verifiedUser(proxied);
    // An unknown administrator name costs the same comparison (against a dummy hash).
    const body = scope === 'user' ? { email, password: 'wrong-password' } : { username: `ghost-${randomUUID().slice(0, 8)}`, password: 'wrong-password' };
    const responses = await Promise.all(Array.from({ length: 40 }, () => call(proxied.url, 'POST', route, { json: body, headers: { 'x-forwarded-for': ip } })));
    const counts = statusCounts(responses.map((r) => r.status));
    t.log(route, counts);
    t.true((counts[401] ?? 0) >= 1 && (counts[401] ?? 0) <= LOCKOUT_FAILURES, JSON.stringify(counts));
    t.is((counts[401] ?? 0) + (counts[429] ?? 0), 40, JSON.stringify(counts));
    for (const refused of responses.filter((r) => r.status === 429)) {
      t.truthy(refused.body.error);
      t.regex(refused.headers.get('retry-after') ?? '', /^\d+$/);
    }
    const row = await proxied.running.services.db.one('SELECT failure_count FROM login_attempts WHERE scope = $1 AND ip = $2', [scope, ip]);
    t.is(row.failure_count, counts[401], 'exactly the evaluated attempts are counted');
  });
}

test('lockout: the right password for an unverified account (403) is never counted, even in parallel', async (t) => {
  const ip = uniqueIp();
  const email = uniqueEmail();
  await call(proxied.url, 'POST', '/auth/register', { json: { email, password: 'password-1' }, headers: { 'x-forwarded-for': uniqueIp() } });
  const statuses = await Promise.all(Array.from({ length: 8 }, () => call(proxied.url, 'POST', '/auth/login', { json: { email, password: 'password-1' }, headers: { 'x-forwarded-for': ip } })));
  for (const s of statuses) t.true(s.status === 403 || s.status === 429, String(s.status));
  // 429s here come from the per-address bcrypt cap, not the lockout: one more try is a 403.
  t.is((await call(proxied.url, 'POST', '/auth/login', { json: { email, password: 'password-1' }, headers: { 'x-forwarded-for': ip } })).status, 403);
  const row = await proxied.running.services.db.oneOrNone("SELECT failure_count FROM login_attempts WHERE scope = 'user' AND ip = $1", [ip]);
  t.is(row?.failure_count ?? 0, 0);
});

// ---- per-account slowdown ------------------------------------------------------------------------

test('credential stuffing: the per-account delay grows exponentially from the 5th failure and is capped', (t) => {
  t.deepEqual([0, 4, 5, 6, 7, 8, 9, 50].map(accountDelayFor), [0, 0, 500, 1000, 2000, 4000, 8000, ACCOUNT_DELAY_MAX_MS]);
});

test.serial('credential stuffing: many addresses failing on one account slow it down but never lock the owner out', async (t) => {
  const { email, password } = await verifiedUser(proxied);
  const db = proxied.running.services.db;
  const attempts = await Promise.all(Array.from({ length: 12 }, () => call(proxied.url, 'POST', '/auth/login', { json: { email, password: 'guess-guess' }, headers: { 'x-forwarded-for': uniqueIp() } })));
  t.deepEqual(attempts.map((a) => a.status), attempts.map(() => 401));
  const { id } = await db.one('SELECT id FROM users WHERE email = $1', [email]);
  const row = await db.one("SELECT failure_count FROM login_account_failures WHERE scope = 'user' AND account_id = $1", [id]);
  t.is(row.failure_count, 12);
  // The owner is slowed (at most ACCOUNT_DELAY_MAX_MS after the last failure), never refused.
  proxied.clock.advance(ACCOUNT_DELAY_MAX_MS);
  const owner = await call(proxied.url, 'POST', '/auth/login', { json: { email, password }, headers: { 'x-forwarded-for': uniqueIp() } });
  t.is(owner.status, 200);
  t.is(await db.oneOrNone("SELECT 1 FROM login_account_failures WHERE scope = 'user' AND account_id = $1", [id]), null, 'a success clears the account\'s failures');
});

test.serial('credential stuffing: past the free failures, the owner\'s right password waits out the account\'s delay before the 200', async (t) => {
  const { email, password } = await verifiedUser(proxied);
  // One more failure than is free, each from its own address, one after another (the last already waits).
  for (let i = 0; i <= ACCOUNT_FREE_FAILURES; i++) {
    const wrong = await call(proxied.url, 'POST', '/auth/login', { json: { email, password: 'guess-guess' }, headers: { 'x-forwarded-for': uniqueIp() } });
    t.is(wrong.status, 401);
  }
  // The delay runs from the last failure, recorded just before its answer was sent.
  const lastFailureAnswered = performance.now();
  const delay = accountDelayFor(ACCOUNT_FREE_FAILURES + 1);
  t.true(delay > 0);
  const owner = await call(proxied.url, 'POST', '/auth/login', { json: { email, password }, headers: { 'x-forwarded-for': uniqueIp() } });
  t.is(owner.status, 200);
  // Measured from the last failure's answer, less the time that answer took to arrive after the
  // failure was recorded (a loaded machine: tens of milliseconds): the owner waited out the delay.
  const waited = performance.now() - lastFailureAnswered;
  t.true(waited >= delay - 100, `answered ${waited.toFixed(0)} ms after the last failure, the delay is ${delay} ms`);
});

// ---- registration --------------------------------------------------------------------------------

for (const email of ['target@example.org,0', 'a@example.org,b@example.org', '<victim@example.org>', 'Name <victim@example.org>', 'g:victim@example.org;', 'victim@example.org (comment)', 'victim(comment)@example.org', 'a b@example.org', 'victim@example.org\r\nBcc: x@y.zz', 'victim\u0001@example.org', '"quoted"@example.org', 'victim@[127.0.0.1]', 'a\\b@example.org']) {
  test(`registration: the non-mailbox address ${JSON.stringify(email)} gives 400`, async (t) => {
    const response = await call(proxied.url, 'POST', '/auth/register', { json: { email, password: 'password-1' }, headers: { 'x-forwarded-for': uniqueIp() } });
    t.is(response.status, 400, JSON.stringify(response.body));
    t.truthy(response.body.error);
  });
}

test('registration: an address is NFC-normalised before uniqueness (é in two forms is one account)', async (t) => {
  const local = `caf${randomUUID().slice(0, 6)}`;
  const composed = `${local}\u00e9@example.com`;
  const decomposed = `${local}e\u0301@example.com`;
  t.is((await call(proxied.url, 'POST', '/auth/register', { json: { email: decomposed, password: 'password-1' }, headers: { 'x-forwarded-for': uniqueIp() } })).status, 200);
  t.is((await call(proxied.url, 'POST', '/auth/register', { json: { email: composed, password: 'password-1' }, headers: { 'x-forwarded-for': uniqueIp() } })).status, 409);
  const rows = await proxied.running.services.db.any('SELECT email FROM users WHERE email LIKE $1', [`${local}%`]);
  t.deepEqual(rows.map((r) => r.email), [composed]);
  // Logging in with either form finds the account.
  await proxied.running.services.db.none('UPDATE users SET email_verified = true WHERE email = $1', [composed]);
  t.is((await call(proxied.url, 'POST', '/auth/login', { json: { email: decomposed, password: 'password-1' }, headers: { 'x-forwarded-for': uniqueIp() } })).status, 200);
});

test.serial('registration: the 21st registration from one address within an hour gives 429 with Retry-After', async (t) => {
  const ip = uniqueIp();
  const register = (from: string) => call(proxied.url, 'POST', '/auth/register', { json: { email: uniqueEmail(), password: 'password-1' }, headers: { 'x-forwarded-for': from } });
  for (let i = 0; i < 20; i++) t.is((await register(ip)).status, 200, `registration ${i + 1}`);
  const refused = await register(ip);
  t.is(refused.status, 429);
  t.truthy(refused.body.error);
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.true(retryAfter > 0 && retryAfter <= 3600, String(retryAfter));
  t.is((await register(uniqueIp())).status, 200, 'another address is not affected');
  proxied.clock.advance(60 * MINUTE);
  t.is((await register(ip)).status, 200, 'a new hour, a new window');
});

test('mail files in DATA_DIR/mail are readable by the owner only (they hold verification tokens)', async (t) => {
  await call(proxied.url, 'POST', '/auth/register', { json: { email: uniqueEmail(), password: 'password-1' }, headers: { 'x-forwarded-for': uniqueIp() } });
  const dir = join(proxied.dataDir, 'mail');
  let files: string[] = [];
  for (let i = 0; i < 100 && files.length === 0; i++) {
    files = (await readdir(dir).catch(() => [])).filter((name) => name.endsWith('.eml'));
    if (files.length === 0) await new Promise((r) => setTimeout(r, 50));
  }
  t.true(files.length > 0, 'a verification mail was written');
  for (const file of files) t.is((await stat(join(dir, file))).mode & 0o777, 0o600, file);
  t.is((await stat(dir)).mode & 0o777, 0o700);
});

// ---- tokens --------------------------------------------------------------------------------------

test('tokens: a correctly signed token without exp is refused (user and admin)', async (t) => {
  const secret = proxied.config.jwtSecret!;
  const { email, password } = await verifiedUser(proxied);
  const login = await call(proxied.url, 'POST', '/auth/login', { json: { email, password }, headers: { 'x-forwarded-for': uniqueIp() } });
  const user = login.body.user;
  const forever = jwt.sign({ id: user.id, email: user.email, isAdmin: false, iat: lifetime(0).iat }, secret, { algorithm: 'HS256', audience: 'user' });
  t.is((await call(proxied.url, 'POST', '/auth/refresh', { token: forever })).status, 401);
  t.deepEqual((await call(proxied.url, 'GET', '/auth/me', { token: forever })).body, { loggedIn: false });
  const admin = await proxied.running.services.db.one('SELECT id, username FROM admin_users WHERE username = $1', [ADMIN.username]);
  const adminForever = jwt.sign({ id: admin.id, username: admin.username, iat: lifetime(0).iat }, secret, { algorithm: 'HS256', audience: 'admin' });
  t.is((await call(proxied.url, 'GET', '/api/auth/verify', { token: adminForever })).status, 401);
  // The same claims with an exp pass: the refusal is the missing exp.
  const withExp = jwt.sign({ id: admin.id, username: admin.username, ...lifetime(60) }, secret, { algorithm: 'HS256', audience: 'admin' });
  t.is((await call(proxied.url, 'GET', '/api/auth/verify', { token: withExp })).status, 200);
});

test('tokens: the token of an administrator removed from admin_users gives 401', async (t) => {
  const db = proxied.running.services.db;
  const { id } = await db.one("INSERT INTO admin_users (username, password_hash) VALUES ($1, $2) RETURNING id", [`temp-${randomUUID().slice(0, 8)}`, '$2b$10$ZemMaJ0cxrw342bT8jg3iuYARJUp3a0lFfKt68S35z4iPaa6EcY62']);
  const token = jwt.sign({ id, username: 'temp', ...lifetime(3600) }, proxied.config.jwtSecret!, { algorithm: 'HS256', audience: 'admin' });
  t.is((await call(proxied.url, 'GET', '/api/auth/verify', { token })).status, 200);
  await db.none('DELETE FROM admin_users WHERE id = $1', [id]);
  const refused = await call(proxied.url, 'GET', '/api/auth/verify', { token });
  t.is(refused.status, 401);
  t.truthy(refused.body.error);
  t.is((await call(proxied.url, 'GET', '/api/schedules/suggestions/dict', { token })).status, 401);
  // The configured administrator still works.
  t.is((await call(proxied.url, 'GET', '/api/auth/verify', { token: await adminToken(proxied.url) })).status, 200);
});

test('login: a password over 72 bytes is 401 even when its first 72 bytes are the password (bcrypt would accept it)', async (t) => {
  const { email, password } = await verifiedUser(proxied, 'p'.repeat(72));
  const ip = uniqueIp();
  t.is((await call(proxied.url, 'POST', '/auth/login', { json: { email, password: `${password}-and-more` }, headers: { 'x-forwarded-for': ip } })).status, 401);
  t.is((await call(proxied.url, 'POST', '/api/auth/login', { json: { username: ADMIN.username, password: `${ADMIN.password}${'x'.repeat(80)}` }, headers: { 'x-forwarded-for': ip } })).status, 401);
  t.is((await call(proxied.url, 'POST', '/auth/login', { json: { email, password }, headers: { 'x-forwarded-for': ip } })).status, 200);
});

// ---- popularity ----------------------------------------------------------------------------------

test('popular: saves from one or two addresses do not move it; a third address does, once per address and day', async (t) => {
  const query = `인기 조작 ${randomUUID().slice(0, 6)}`;
  const one = uniqueIp();
  const save = (from: string) => call(proxied.url, 'POST', '/api/schedules/suggestions/save', { json: { query }, headers: { 'x-forwarded-for': from } });
  for (let i = 0; i < 30; i++) t.is((await save(one)).status, 200);
  const popular = async () => (await call(proxied.url, 'GET', `/api/schedules/suggestions/popular?limit=50&_=${randomUUID()}`)).body.queries as Array<{ query: string; count: number }>;
  t.is((await popular()).find((q) => q.query === query), undefined, 'one address is not popular');
  const two = uniqueIp();
  await save(two);
  await save(two);
  t.is((await popular()).find((q) => q.query === query), undefined, 'two addresses are not popular (SUGGEST_MIN_NETWORKS 3)');
  await save(uniqueIp());
  t.deepEqual((await popular()).find((q) => q.query === query), { query, count: 3 });
  const rows = await proxied.running.services.db.one('SELECT count(*)::int AS n FROM saved_searches WHERE query = $1', [query]);
  t.is(rows.n, 3, 'one row per address and day');
});

// ---- logs ----------------------------------------------------------------------------------------

test('logs: a client that aborts an upload is logged at debug, not as an error', async (t) => {
  const token = await adminToken(proxied.url);
  const before = logs.lines.length;
  await new Promise<void>((resolve) => {
    const boundary = 'abort-boundary';
    const req = request(`${proxied.url}/api/admin/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': '5000000' },
    });
    req.on('error', () => resolve());
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`);
    req.write(Buffer.alloc(64 * 1024, 1));
    setTimeout(() => {
      req.destroy();
      resolve();
    }, 300);
  });
  let lines: Array<{ level: string; msg: string }> = [];
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 50));
    lines = logs.lines.slice(before).map((line) => JSON.parse(line));
    if (lines.some((l) => l.msg === 'request aborted by the client')) break;
  }
  t.true(lines.some((l) => l.msg === 'request aborted by the client' && l.level === 'debug'), JSON.stringify(lines));
  t.deepEqual(lines.filter((l) => l.level === 'error' || l.level === 'fatal'), []);
});
