// The account service, /auth: every rule of auth-service.md and the account-security decisions,
// over real HTTP, against real PostgreSQL, with the verification e-mail captured by a real SMTP server.
import test from 'ava';
import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { startMailCapture, type MailCapture } from './helpers/smtp.ts';
import { call, startTestService, type LogCapture, type TestService } from './helpers/service.ts';

let service: TestService;
let mail: MailCapture;
const logs: LogCapture = { lines: [] };
const MINUTE = 60_000;

test.before(async () => {
  mail = await startMailCapture();
  service = await startTestService({ SMTP_URL: mail.url, MAIL_FROM: 'calendar@example.test' }, { captureLogs: logs });
});
test.after.always(async () => {
  await service?.stop();
  await mail?.close();
});

let counter = 0;
const uniqueEmail = () => `fan${++counter}-${randomUUID().slice(0, 8)}@example.com`;
const uniqueIp = () => `198.18.${(++counter >> 8) & 255}.${counter & 255}`;
// Each call from its own client address unless a test names one: the tests run concurrently, and one
// address may only have a few bcrypt operations in flight (docs/security.md).
const post = (path: string, json: unknown, headers: Record<string, string> = {}) => call(service.url, 'POST', path, { json, headers: { 'x-forwarded-for': uniqueIp(), ...headers } });
const db = () => service.running.services.db;

/** Registers and verifies through the e-mailed link; returns the credentials. */
async function verifiedUser() {
  const email = uniqueEmail();
  const password = 'correct horse 1';
  const registered = await post('/auth/register', { email, password });
  if (registered.status !== 200) throw new Error(`register: ${registered.status}`);
  const message = await mail.waitFor(email);
  const link = /http:\/\/127\.0\.0\.1:\d+\/auth\/verify\/[0-9a-f-]{36}/.exec(message.text ?? '')![0];
  const verified = await fetch(link);
  if (verified.status !== 200) throw new Error(`verify: ${verified.status}`);
  return { email, password };
}

async function login(email: string, password: string, ip = uniqueIp()) {
  return post('/auth/login', { email, password }, { 'x-forwarded-for': ip });
}

// ---- 4.1 register -------------------------------------------------------------------------------

for (const [name, body] of [
  ['no e-mail', { password: 'password1' }],
  ['no password', { email: 'a@b.co' }],
  ['empty e-mail', { email: '', password: 'password1' }],
  ['empty password', { email: 'a@b.co', password: '' }],
  ['no body at all', undefined],
] as const) {
  test(`R0: ${name} gives 400`, async (t) => {
    const response = await call(service.url, 'POST', '/auth/register', body === undefined ? {} : { json: body });
    t.is(response.status, 400);
    t.is(typeof response.body.error, 'string');
  });
}

for (const email of ['plain', 'no-at.example.com', 'a@b', '@b.co', 'a@.co', 'a b@c.de', 'a@b.c@', 'a@b.', 'a@@b.co']) {
  test(`R1: e-mail "${email}" gives 400`, async (t) => {
    const response = await post('/auth/register', { email, password: 'password1' });
    t.is(response.status, 400, JSON.stringify(response.body));
    t.truthy(response.body.error);
  });
}

test('R1: an e-mail of the pattern with unusual characters is accepted', async (t) => {
  const response = await post('/auth/register', { email: `ü.ñ+${randomUUID().slice(0, 6)}@bücher.example`, password: 'password1' });
  t.is(response.status, 200);
});

test('R2: a password of 7 characters gives 400, 8 characters are enough', async (t) => {
  t.is((await post('/auth/register', { email: uniqueEmail(), password: '1234567' })).status, 400);
  t.is((await post('/auth/register', { email: uniqueEmail(), password: '12345678' })).status, 200);
});

test('R2: length counts characters, not bytes (8 Hangul syllables pass)', async (t) => {
  t.is((await post('/auth/register', { email: uniqueEmail(), password: '가나다라마바사아' })).status, 200);
  t.is((await post('/auth/register', { email: uniqueEmail(), password: '가나다라마바사' })).status, 400);
});

test('security: a password over 72 bytes in UTF-8 gives 400 (bcrypt would ignore the rest)', async (t) => {
  const response = await post('/auth/register', { email: uniqueEmail(), password: '비'.repeat(25) }); // 75 bytes
  t.is(response.status, 400);
  t.is((await post('/auth/register', { email: uniqueEmail(), password: 'a'.repeat(72) })).status, 200);
});

test('R0 before R1: an invalid e-mail with an empty password is still a 400', async (t) => {
  t.is((await post('/auth/register', { email: 'invalid', password: '' })).status, 400);
});

test('R3: an e-mail already registered gives 409, whatever its letter case', async (t) => {
  const email = uniqueEmail();
  t.is((await post('/auth/register', { email, password: 'password1' })).status, 200);
  const again = await post('/auth/register', { email, password: 'password2' });
  t.is(again.status, 409);
  t.truthy(again.body.error);
  t.is((await post('/auth/register', { email: email.toUpperCase(), password: 'password2' })).status, 409);
});

test('R3: two simultaneous registrations of one e-mail create one account', async (t) => {
  const email = uniqueEmail();
  const statuses = (await Promise.all([1, 2, 3].map(() => post('/auth/register', { email, password: 'password1' })))).map((r) => r.status).sort();
  t.deepEqual(statuses, [200, 409, 409]);
  const rows = await db().one('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [email]);
  t.is(rows.n, 1);
});

test('register: wrong types, a JSON array, malformed JSON give 400; nothing is stored', async (t) => {
  const before = await db().one('SELECT count(*)::int AS n FROM users');
  for (const json of [{ email: 123, password: 'password1' }, { email: 'a@b.co', password: 12345678 }, ['a@b.co', 'password1'], 'text']) {
    t.is((await post('/auth/register', json)).status, 400, JSON.stringify(json));
  }
  const broken = await call(service.url, 'POST', '/auth/register', { body: '{"email": "a@b.co",', headers: { 'content-type': 'application/json' } });
  t.is(broken.status, 400);
  t.truthy(broken.body.error);
  t.is((await db().one('SELECT count(*)::int AS n FROM users')).n, before.n);
});

test('register: a body over the size limit gives 413', async (t) => {
  const response = await call(service.url, 'POST', '/auth/register', { json: { email: 'a@b.co', password: 'x'.repeat(100_000) } });
  t.is(response.status, 413);
  t.truthy(response.body.error);
});

test('register: the response is {success: true, message}', async (t) => {
  const response = await post('/auth/register', { email: uniqueEmail(), password: 'password1' });
  t.is(response.status, 200);
  t.is(response.body.success, true);
  t.is(typeof response.body.message, 'string');
  t.deepEqual(Object.keys(response.body).sort(), ['message', 'success']);
});

test('2.1: the password is stored only as a bcrypt hash of cost 10; the user starts unverified with a 24-hour UUID token', async (t) => {
  const email = uniqueEmail();
  const before = service.clock.now();
  await post('/auth/register', { email, password: 'password1' });
  const after = service.clock.now();
  const row = await db().one('SELECT password, email_verified, verify_token, verify_expires, is_admin FROM users WHERE email = $1', [email]);
  t.regex(row.password, /^\$2b\$10\$.{53}$/);
  t.false(row.password.includes('password1'));
  t.false(row.email_verified);
  t.false(row.is_admin);
  t.regex(row.verify_token, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  // Creation time + 24 hours, creation being somewhere within the request.
  const expires = row.verify_expires.getTime();
  t.true(expires >= before + 24 * 3600_000 && expires <= after + 24 * 3600_000, `expires ${expires - before - 24 * 3600_000} ms after the request began + 24 h`);
});

test('2.3: the nickname is an adjective, a space and a noun from the word table', async (t) => {
  const email = uniqueEmail();
  await post('/auth/register', { email, password: 'password1' });
  const { name } = await db().one('SELECT name FROM users WHERE email = $1', [email]);
  const [adjective, noun, ...rest] = name.split(' ');
  t.is(rest.length, 0);
  t.truthy(await db().oneOrNone("SELECT 1 FROM nickname_words WHERE type = 'adjective' AND word = $1", [adjective]));
  t.truthy(await db().oneOrNone("SELECT 1 FROM nickname_words WHERE type = 'noun' AND word = $1", [noun]));
});

test.serial('2.3: with no adjective in the table the nickname is 사용자 followed by 0-9999', async (t) => {
  const saved = await db().any("DELETE FROM nickname_words WHERE type = 'adjective' RETURNING word");
  try {
    const email = uniqueEmail();
    t.is((await post('/auth/register', { email, password: 'password1' })).status, 200);
    const { name } = await db().one('SELECT name FROM users WHERE email = $1', [email]);
    t.regex(name, /^사용자(\d{1,4})$/);
    t.true(Number(/\d+/.exec(name)![0]) <= 9999);
  } finally {
    for (const { word } of saved) await db().none("INSERT INTO nickname_words (word, type) VALUES ($1, 'adjective')", [word]);
  }
});

test('2.4: the profile picture is {storage_url}/<bucket>/profile/default_profile_<1..16>.png', async (t) => {
  const seen = new Set<number>();
  for (let i = 0; i < 12; i++) {
    const email = uniqueEmail();
    await post('/auth/register', { email, password: 'password1' });
    // Stored as a key, answered as a URL on the current base (migration 011).
    const { profile_url } = await db().one('SELECT storage_url(profile_url) AS profile_url FROM users WHERE email = $1', [email]);
    const match = /^http:\/\/127\.0\.0\.1:\d+\/storage\/media\/profile\/default_profile_(\d+)\.png$/.exec(profile_url);
    t.truthy(match, profile_url);
    const n = Number(match![1]);
    t.true(n >= 1 && n <= 16);
    seen.add(n);
  }
  t.true(seen.size > 1, 'pictures are chosen at random');
});

test('4.1 step 5: the verification e-mail carries the link, the token and the nickname', async (t) => {
  const email = uniqueEmail();
  await post('/auth/register', { email, password: 'password1' });
  const message = await mail.waitFor(email);
  const { name, verify_token } = await db().one('SELECT name, verify_token FROM users WHERE email = $1', [email]);
  t.true(message.text!.includes(`${service.url}/auth/verify/${verify_token}`));
  t.true(message.text!.includes(name));
  t.is(message.from?.value[0]?.address, 'calendar@example.test');
});

test.serial('4.1 step 5: registration succeeds when the mail server refuses the message', async (t) => {
  mail.refuseAll(true);
  try {
    const email = uniqueEmail();
    const response = await post('/auth/register', { email, password: 'password1' });
    t.is(response.status, 200);
    t.truthy(await db().oneOrNone('SELECT 1 FROM users WHERE email = $1', [email]));
  } finally {
    mail.refuseAll(false);
  }
});

// ---- 4.2 verify -----------------------------------------------------------------------------------

test('state table: following the e-mailed link verifies the account; the same link again gives 400 (rule 1)', async (t) => {
  const email = uniqueEmail();
  await post('/auth/register', { email, password: 'password1' });
  const link = /http:\/\/\S+\/auth\/verify\/[0-9a-f-]{36}/.exec((await mail.waitFor(email)).text!)![0];
  const first = await call(service.url, 'GET', new URL(link).pathname);
  t.is(first.status, 200);
  t.is(first.body.success, true);
  t.truthy(first.body.message);
  const row = await db().one('SELECT email_verified, verify_token, verify_expires FROM users WHERE email = $1', [email]);
  t.deepEqual(row, { email_verified: true, verify_token: null, verify_expires: null });
  const second = await call(service.url, 'GET', new URL(link).pathname);
  t.is(second.status, 400);
  t.truthy(second.body.error);
});

for (const token of [randomUUID(), 'not-a-uuid', "'; DROP TABLE users; --", '0'.repeat(500)]) {
  test(`rule 1: token ${token.slice(0, 20)} that no user holds gives 400`, async (t) => {
    const response = await call(service.url, 'GET', `/auth/verify/${encodeURIComponent(token)}`);
    t.is(response.status, 400);
    t.truthy(response.body.error);
  });
}

test.serial('rule 3: an expired link gives 400, changes nothing, and the address may register again', async (t) => {
  const email = uniqueEmail();
  await post('/auth/register', { email, password: 'password1' });
  const { verify_token } = await db().one('SELECT verify_token FROM users WHERE email = $1', [email]);
  service.clock.advance(24 * 3600_000 + MINUTE);
  const response = await call(service.url, 'GET', `/auth/verify/${verify_token}`);
  t.is(response.status, 400);
  t.truthy(response.body.error);
  const row = await db().one('SELECT email_verified, verify_token FROM users WHERE email = $1', [email]);
  t.false(row.email_verified);
  t.is(row.verify_token, verify_token);
  // "register again": the stale unverified account makes way for a new one.
  t.is((await post('/auth/register', { email, password: 'password2' })).status, 200);
  t.is((await db().one('SELECT count(*)::int AS n FROM users WHERE email = $1', [email])).n, 1);
});

test('state table: a link just inside 24 hours still verifies', async (t) => {
  const email = uniqueEmail();
  await post('/auth/register', { email, password: 'password1' });
  const { verify_token } = await db().one('SELECT verify_token FROM users WHERE email = $1', [email]);
  await db().none("UPDATE users SET verify_expires = now() + interval '1 minute' + ($2 || ' milliseconds')::interval WHERE email = $1", [email, service.clock.now() - Date.now()]);
  t.is((await call(service.url, 'GET', `/auth/verify/${verify_token}`)).status, 200);
});

// ---- 4.3 login ------------------------------------------------------------------------------------

test('step 6: a verified user logs in and gets a 30-day HS256 token of audience user and the public user object', async (t) => {
  const { email, password } = await verifiedUser();
  const response = await login(email, password);
  t.is(response.status, 200);
  t.is(response.body.success, true);
  const user = response.body.user;
  t.deepEqual(Object.keys(user).sort(), ['email', 'id', 'isAdmin', 'name', 'profileUrl']);
  t.is(user.email, email);
  t.false(user.isAdmin);
  const decoded = jwt.decode(response.body.token, { complete: true })!;
  t.is(decoded.header.alg, 'HS256');
  const claims = decoded.payload as jwt.JwtPayload;
  t.is(claims.aud, 'user');
  t.is(claims.id, user.id);
  t.is(claims.email, email);
  t.is(claims.isAdmin, false);
  t.is(claims.exp! - claims.iat!, 30 * 24 * 3600);
});

test('step 2: a missing field gives 400 and is not counted as a failure', async (t) => {
  const ip = uniqueIp();
  for (let i = 0; i < 6; i++) t.is((await post('/auth/login', { email: 'a@b.co' }, { 'x-forwarded-for': ip })).status, 400);
  t.is((await post('/auth/login', { password: 'x' }, { 'x-forwarded-for': ip })).status, 400);
  const { email, password } = await verifiedUser();
  t.is((await login(email, password, ip)).status, 200);
});

test('steps 3 and 4: unknown e-mail and wrong password give 401 with one shared message', async (t) => {
  const { email } = await verifiedUser();
  const unknown = await login(uniqueEmail(), 'whatever1');
  const wrong = await login(email, 'wrong-password');
  t.is(unknown.status, 401);
  t.is(wrong.status, 401);
  t.is(unknown.body.error, wrong.body.error);
});

test('state table: an unverified user with correct credentials gets 403, no token, and no failure is counted', async (t) => {
  const email = uniqueEmail();
  await post('/auth/register', { email, password: 'password1' });
  const ip = uniqueIp();
  for (let i = 0; i < 6; i++) {
    const response = await login(email, 'password1', ip);
    t.is(response.status, 403);
    t.falsy(response.body.token);
  }
  t.is(await db().oneOrNone('SELECT 1 FROM login_attempts WHERE ip = $1', [ip]), null);
});

test('security: passwords are compared in NFC (a decomposed Hangul password logs in)', async (t) => {
  const email = uniqueEmail();
  const composed = '비밀번호입니다';
  await post('/auth/register', { email, password: composed + '1' });
  const { verify_token } = await db().one('SELECT verify_token FROM users WHERE email = $1', [email]);
  await call(service.url, 'GET', `/auth/verify/${verify_token}`);
  t.is((await login(email, composed.normalize('NFD') + '1')).status, 200);
});

test('lockout: 5 failures lock the IP; the 6th attempt is refused with 429 even with the right password', async (t) => {
  const { email, password } = await verifiedUser();
  const ip = uniqueIp();
  for (let i = 0; i < 5; i++) t.is((await login(email, 'wrong-password', ip)).status, 401);
  const locked = await login(email, password, ip);
  t.is(locked.status, 429);
  t.regex(locked.body.error, /15분/);
  t.is(locked.headers.get('retry-after'), String(15 * 60));
});

test('lockout: while locked the body is not examined (a missing field still gives 429)', async (t) => {
  const ip = uniqueIp();
  for (let i = 0; i < 5; i++) await login(uniqueEmail(), 'x', ip);
  t.is((await post('/auth/login', {}, { 'x-forwarded-for': ip })).status, 429);
  t.is((await call(service.url, 'POST', '/auth/login', { body: 'not json', headers: { 'x-forwarded-for': ip } })).status, 429);
});

test('lockout: other IPs are unaffected', async (t) => {
  const { email, password } = await verifiedUser();
  const ip = uniqueIp();
  for (let i = 0; i < 5; i++) await login(email, 'wrong-password', ip);
  t.is((await login(email, password, ip)).status, 429);
  t.is((await login(email, password, uniqueIp())).status, 200);
});

test('lockout: behind one trusted proxy (TRUST_PROXY=1) the IP is the last x-forwarded-for entry, else x-real-ip', async (t) => {
  const { email, password } = await verifiedUser();
  const ip = uniqueIp();
  for (let i = 0; i < 5; i++) await post('/auth/login', { email, password: 'bad-password' }, { 'x-forwarded-for': `10.0.0.${i + 1}, ${ip}` });
  t.is((await post('/auth/login', { email, password }, { 'x-forwarded-for': `10.0.0.9, ${ip}` })).status, 429);
  t.is((await call(service.url, 'POST', '/auth/login', { json: { email, password }, headers: { 'x-real-ip': ip } })).status, 429, 'x-real-ip when there is no x-forwarded-for');
  t.is((await post('/auth/login', { email, password }, { 'x-forwarded-for': `${ip}, 10.0.0.1` })).status, 200);
});

test('lockout: two concurrent failures count as two', async (t) => {
  const { email, password } = await verifiedUser();
  const ip = uniqueIp();
  const results = await Promise.all([1, 2].map(() => login(email, 'wrong-password', ip)));
  t.deepEqual(results.map((r) => r.status), [401, 401]);
  t.is((await db().one('SELECT failure_count FROM login_attempts WHERE scope = $1 AND ip = $2', ['user', ip])).failure_count, 2);
  for (let i = 0; i < 3; i++) await login(email, 'wrong-password', ip);
  t.is((await login(email, password, ip)).status, 429);
});

test('lockout: a success clears the count', async (t) => {
  const { email, password } = await verifiedUser();
  const ip = uniqueIp();
  for (let i = 0; i < 4; i++) await login(email, 'wrong-password', ip);
  t.is((await login(email, password, ip)).status, 200);
  for (let i = 0; i < 4; i++) t.is((await login(email, 'wrong-password', ip)).status, 401);
  t.is((await login(email, password, ip)).status, 200);
});

test.serial('lockout: the message names the minutes left, rounded up, and the lock ends 15 minutes after the last failure', async (t) => {
  const { email, password } = await verifiedUser();
  const ip = uniqueIp();
  for (let i = 0; i < 5; i++) await login(email, 'wrong-password', ip);
  service.clock.advance(13 * MINUTE + 30_000);
  const locked = await login(email, password, ip);
  t.is(locked.status, 429);
  t.regex(locked.body.error, /(^|\D)2분/);
  service.clock.advance(MINUTE);
  t.regex((await login(email, password, ip)).body.error, /(^|\D)1분/);
  service.clock.advance(31_000);
  t.is((await login(email, password, ip)).status, 200);
});

test.serial('lockout: failures older than 15 minutes are discarded, not added to', async (t) => {
  const { email, password } = await verifiedUser();
  const ip = uniqueIp();
  for (let i = 0; i < 4; i++) await login(email, 'wrong-password', ip);
  service.clock.advance(15 * MINUTE + 1000);
  t.is((await login(email, 'wrong-password', ip)).status, 401); // a fresh count of 1
  for (let i = 0; i < 3; i++) await login(email, 'wrong-password', ip);
  t.is((await login(email, password, ip)).status, 200, 'four failures in the window do not lock');
});

// ---- 4.4 me, 4.5 refresh, 4.6 logout, 4.7 delete -------------------------------------------------

test('me: without a usable token the answer is 200 {loggedIn: false}', async (t) => {
  const expired = jwt.sign({ id: 1, email: 'a@b.co', isAdmin: false }, service.config.jwtSecret!, { algorithm: 'HS256', audience: 'user', expiresIn: -10 });
  const otherSecret = jwt.sign({ id: 1, email: 'a@b.co', isAdmin: false }, 'x'.repeat(40), { algorithm: 'HS256', audience: 'user' });
  const none = jwt.sign({ id: 1, email: 'a@b.co', isAdmin: false }, '', { algorithm: 'none', audience: 'user' } as jwt.SignOptions);
  for (const header of [undefined, 'Basic abc', 'bearer abc', 'Bearer ', 'Bearer garbage', `Bearer ${expired}`, `Bearer ${otherSecret}`, `Bearer ${none}`]) {
    const response = await call(service.url, 'GET', '/auth/me', { headers: header ? { authorization: header } : {} });
    t.is(response.status, 200);
    t.deepEqual(response.body, { loggedIn: false }, String(header));
  }
});

test('me and admin routes: the Bearer scheme is case-insensitive (RFC 9110 §11.1)', async (t) => {
  const { email, password } = await verifiedUser();
  const { token } = (await login(email, password)).body;
  const adminToken = (await post('/api/auth/login', { username: 'admin', password: 'admin-password-1' })).body.token;
  for (const scheme of ['bearer', 'BEARER', 'bEaReR', 'Bearer\t']) {
    const me = await call(service.url, 'GET', '/auth/me', { headers: { authorization: `${scheme} ${token}` } });
    t.is(me.body.loggedIn, true, scheme);
    const verify = await call(service.url, 'GET', '/api/auth/verify', { headers: { authorization: `${scheme} ${adminToken}` } });
    t.is(verify.status, 200, scheme);
  }
  // The scheme is a whole word: `Bearertoken` names no scheme.
  t.is((await call(service.url, 'GET', '/api/auth/verify', { headers: { authorization: `Bearer${adminToken}` } })).status, 401);
});

test('me: the user is read from the database, not from the token claims', async (t) => {
  const { email, password } = await verifiedUser();
  const { token, user } = (await login(email, password)).body;
  await db().none('UPDATE users SET is_admin = true, name = $2 WHERE id = $1', [user.id, '새 닉네임']);
  const response = await call(service.url, 'GET', '/auth/me', { token });
  t.is(response.status, 200);
  t.deepEqual(response.body, { loggedIn: true, user: { ...user, isAdmin: true, name: '새 닉네임' } });
});

test('me: a deleted user is not logged in', async (t) => {
  const { email, password } = await verifiedUser();
  const { token } = (await login(email, password)).body;
  t.is((await call(service.url, 'DELETE', '/auth/delete', { token })).status, 200);
  t.deepEqual((await call(service.url, 'GET', '/auth/me', { token })).body, { loggedIn: false });
});

test('refresh: a missing or non-Bearer header, an invalid token, an administrator token give 401', async (t) => {
  const adminToken = (await post('/api/auth/login', { username: 'admin', password: 'admin-password-1' })).body.token;
  for (const header of [undefined, 'Basic abc', 'Token abc', 'Bearer not.a.jwt', `Bearer ${adminToken}`]) {
    const response = await call(service.url, 'POST', '/auth/refresh', { headers: header ? { authorization: header } : {} });
    t.is(response.status, 401, String(header));
    t.truthy(response.body.error);
  }
});

test('refresh: with more than 7 days left the token is not renewed', async (t) => {
  const { email, password } = await verifiedUser();
  const { token } = (await login(email, password)).body;
  const response = await call(service.url, 'POST', '/auth/refresh', { token });
  t.is(response.status, 200);
  t.deepEqual(response.body, { refreshed: false });
});

test.serial('refresh: inside the last 7 days a fresh 30-day token with the same claims is issued; after expiry 401', async (t) => {
  const { email, password } = await verifiedUser();
  const { token, user } = (await login(email, password)).body;
  service.clock.advance(23 * 24 * 3600_000 + MINUTE); // under 7 days left
  const response = await call(service.url, 'POST', '/auth/refresh', { token });
  t.is(response.status, 200);
  t.is(response.body.refreshed, true);
  const fresh = jwt.decode(response.body.token) as jwt.JwtPayload;
  const old = jwt.decode(token) as jwt.JwtPayload;
  t.deepEqual([fresh.id, fresh.email, fresh.isAdmin, fresh.aud], [user.id, email, false, 'user']);
  t.is(fresh.exp! - fresh.iat!, 30 * 24 * 3600);
  t.true(fresh.exp! > old.exp!);
  service.clock.advance(7 * 24 * 3600_000);
  t.is((await call(service.url, 'POST', '/auth/refresh', { token })).status, 401, 'the old token has expired');
  t.is((await call(service.url, 'POST', '/auth/refresh', { token: response.body.token })).status, 200, 'the renewed one has not');
});

test('refresh: a deleted user’s token cannot be renewed (401)', async (t) => {
  const { email, password } = await verifiedUser();
  const { token } = (await login(email, password)).body;
  await call(service.url, 'DELETE', '/auth/delete', { token });
  t.is((await call(service.url, 'POST', '/auth/refresh', { token })).status, 401);
});

test('logout: always 200 {success: true}, with or without a token', async (t) => {
  t.deepEqual((await call(service.url, 'POST', '/auth/logout')).body, { success: true });
  t.deepEqual((await call(service.url, 'POST', '/auth/logout', { token: 'garbage' })).body, { success: true });
});

test('delete: without a Bearer header 401; with an invalid or expired token 500', async (t) => {
  t.is((await call(service.url, 'DELETE', '/auth/delete')).status, 401);
  t.is((await call(service.url, 'DELETE', '/auth/delete', { headers: { authorization: 'Basic x' } })).status, 401);
  const invalid = await call(service.url, 'DELETE', '/auth/delete', { token: 'garbage' });
  t.is(invalid.status, 500);
  t.truthy(invalid.body.error);
  const expired = jwt.sign({ id: 1, email: 'a@b.co', isAdmin: false }, service.config.jwtSecret!, { algorithm: 'HS256', audience: 'user', expiresIn: -10 });
  t.is((await call(service.url, 'DELETE', '/auth/delete', { token: expired })).status, 500);
});

test('state table: delete removes the user’s game links and then the user; the other users stay', async (t) => {
  const mine = await verifiedUser();
  const other = await verifiedUser();
  const { token, user } = (await login(mine.email, mine.password)).body;
  const otherUser = (await login(other.email, other.password)).body.user;
  for (const id of [user.id, user.id, otherUser.id]) await db().none("INSERT INTO game_links (user_id, game, account_id) VALUES ($1, 'game', 'acct')", [id]);
  const response = await call(service.url, 'DELETE', '/auth/delete', { token });
  t.is(response.status, 200);
  t.is(response.body.success, true);
  t.truthy(response.body.message);
  t.is((await db().one('SELECT count(*)::int AS n FROM game_links WHERE user_id = $1', [user.id])).n, 0);
  t.is(await db().oneOrNone('SELECT 1 FROM users WHERE id = $1', [user.id]), null);
  t.is((await db().one('SELECT count(*)::int AS n FROM game_links WHERE user_id = $1', [otherUser.id])).n, 1);
  t.is((await login(mine.email, mine.password)).status, 401);
  t.is((await call(service.url, 'DELETE', '/auth/delete', { token })).status, 500, 'a second delete has nothing to delete');
});

test('section 5: a user token is not an administrator token', async (t) => {
  const { email, password } = await verifiedUser();
  const { token } = (await login(email, password)).body;
  t.is((await call(service.url, 'GET', '/api/auth/verify', { token })).status, 401);
});

test.serial('security: no password, verification token or e-mail address appears in the logs', async (t) => {
  const email = uniqueEmail();
  const password = 'very-secret-password-42';
  await post('/auth/register', { email, password });
  const { verify_token } = await db().one('SELECT verify_token FROM users WHERE email = $1', [email]);
  await call(service.url, 'GET', `/auth/verify/${verify_token}`);
  await login(email, password);
  await login(email, 'another-secret-99');
  await new Promise((r) => setTimeout(r, 200));
  t.true(logs.lines.length > 0);
  const all = logs.lines.join('\n');
  for (const secret of [password, 'another-secret-99', verify_token, email]) t.false(all.includes(secret), secret);
});
