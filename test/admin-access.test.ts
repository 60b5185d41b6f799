// Administrators who get back in, and automation without the password: login lockouts listed and
// cleared through the API and `npm run admin`, each clearing in the activity log; named API tokens
// with a scope and an expiry, refused by every process the moment they are revoked.
import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ADMIN, adminToken, call, startTestService, type TestService } from './helpers/service.ts';
import { startProcess } from './helpers/service-process.ts';
import type { TestDatabase } from './helpers/database.ts';

const execFileAsync = promisify(execFile);
let service: TestService;

test.before(async () => {
  service = await startTestService();
});
test.after.always(async () => {
  await service?.stop();
});

const adminLogin = (password: string, client: string) => call(service.url, 'POST', '/api/auth/login', { json: { username: ADMIN.username, password }, headers: { 'x-forwarded-for': client } });

/** Five wrong passwords from `client`: the correct one is then refused with 429 locked_out. */
async function lockOut(t: { is(a: unknown, b: unknown, m?: string): void }, client: string) {
  for (let i = 0; i < 5; i++) t.is((await adminLogin('wrong-password', client)).status, 401);
  const refused = await adminLogin(ADMIN.password, client);
  t.is(refused.status, 429);
  t.is(refused.body.code, 'locked_out');
}

/** `npm run admin -- …` against the service's database, as an operator runs it. */
const adminCli = (...args: string[]) =>
  execFileAsync(process.execPath, ['--import', 'tsx', 'app/admin-cli.ts', ...args], {
    env: { ...process.env, DATABASE_URL: service.config.databaseUrl!, JWT_SECRET: service.config.jwtSecret!, DATA_DIR: service.dataDir, LOG_LEVEL: 'warn', ADMIN_USERNAME: '', ADMIN_PASSWORD: '' },
  });

const lockoutEntries = () => service.running.services.db.any<{ actor: string; target_id: string; summary: string }>("SELECT actor, target_id, summary FROM activity_log WHERE category = 'lockout' ORDER BY id");

test.serial('lockouts: an administrator locked out lists the lock and clears it through the API; the correct password then works; the clearing is in the activity log', async (t) => {
  // Logged in first: a successful login clears the account's own failures.
  const token = await adminToken(service.url);
  const locked = '192.0.2.10';
  await lockOut(t, locked);
  const listed = await call(service.url, 'GET', '/api/admin/lockouts', { token });
  t.is(listed.status, 200);
  t.like(listed.body.lockouts.find((l: { target: string }) => l.target === locked), { kind: 'address', scope: 'admin', failures: 5 });
  t.like(listed.body.lockouts.find((l: { target: string }) => l.target === ADMIN.username), { kind: 'account', scope: 'admin' });

  t.is((await call(service.url, 'DELETE', '/api/admin/lockouts', {})).status, 401, 'administrators only');
  const missing = await call(service.url, 'DELETE', '/api/admin/lockouts', { token });
  t.is(missing.status, 400);
  t.is(missing.body.code, 'invalid_query');
  const cleared = await call(service.url, 'DELETE', `/api/admin/lockouts?target=${locked}`, { token });
  t.is(cleared.status, 200, JSON.stringify(cleared.body));
  t.deepEqual(cleared.body, { kind: 'address', scopes: ['admin'] });
  const again = await call(service.url, 'DELETE', `/api/admin/lockouts?target=${locked}`, { token });
  t.is(again.status, 404);
  t.is(again.body.code, 'not_locked');
  // The account's slowdown (its own five failures) is cleared by its name.
  t.is((await call(service.url, 'DELETE', `/api/admin/lockouts?target=${ADMIN.username}`, { token })).status, 200);
  t.is((await adminLogin(ADMIN.password, locked)).status, 200, 'the correct password works again');
  const entries = await lockoutEntries();
  t.like(entries.at(-2), { actor: ADMIN.username, target_id: locked });
  t.like(entries.at(-1), { actor: ADMIN.username, target_id: ADMIN.username });
});

test.serial('lockouts: `npm run admin -- lockouts` lists and `unlock <address>` clears, an IPv6 address by its /64; unknown targets exit non-zero', async (t) => {
  const locked = '2001:db8:7:7::1';
  await lockOut(t, locked);
  const { stdout: listing } = await adminCli('lockouts');
  t.regex(listing, /address\tadmin\t2001:db8:7:7::\/64\t5 failures/);
  const { stdout } = await adminCli('unlock', '2001:db8:7:7::99');
  t.regex(stdout, /address lockout cleared \(admin\)/);
  await adminCli('unlock', ADMIN.username);
  t.is((await adminLogin(ADMIN.password, locked)).status, 200, 'the correct password works again');
  await t.throwsAsync(adminCli('unlock', '192.0.2.250'), { message: /no lockout recorded/ });
  t.like((await lockoutEntries()).at(-1), { actor: 'cli', target_id: ADMIN.username });
});

const createToken = (token: string, body: unknown) => call(service.url, 'POST', '/api/admin/tokens', { token, json: body });

test.serial('API tokens: created once by an administrator, stored hashed; `read` may call admin GET routes only, `read-write` every admin route; the last use is recorded', async (t) => {
  const admin = await adminToken(service.url);
  t.is((await createToken(admin, { name: 'calendar bot', scope: 'everything' })).status, 400);
  const reader = await createToken(admin, { name: 'calendar bot', scope: 'read' });
  t.is(reader.status, 201, JSON.stringify(reader.body));
  t.is(reader.headers.get('cache-control'), 'no-store');
  t.regex(reader.body.token, /^sct_[A-Za-z0-9_-]{43}$/);
  t.like(reader.body.apiToken, { name: 'calendar bot', scope: 'read', createdBy: ADMIN.username, expiresAt: null, lastUsedAt: null });
  t.is((await createToken(admin, { name: 'calendar bot', scope: 'read' })).status, 409, 'one live token per name');
  const stored = JSON.stringify(await service.running.services.db.any('SELECT * FROM api_tokens'));
  t.false(stored.includes(reader.body.token.slice(4)), 'never stored as shown');

  const read = reader.body.token as string;
  t.is((await call(service.url, 'GET', '/api/admin/lockouts', { token: read })).status, 200);
  const refused = await createToken(read, { name: 'made by a reader', scope: 'read' });
  t.is(refused.status, 403);
  t.is(refused.body.code, 'insufficient_scope');
  t.is((await call(service.url, 'GET', '/auth/me', { token: read })).body.loggedIn, false, 'not a user token');

  const writer = (await createToken(admin, { name: 'schedule script', scope: 'read-write' })).body.token as string;
  const madeByToken = await createToken(writer, { name: 'made by a script', scope: 'read' });
  t.is(madeByToken.status, 201);
  t.is(madeByToken.body.apiToken.createdBy, 'token:schedule script', 'the activity names the token');
  t.is((await call(service.url, 'GET', '/api/admin/tokens', { token: `sct_${'A'.repeat(43)}` })).status, 401, 'an unknown token');

  await new Promise((r) => setTimeout(r, 200)); // the last use is written after the answer
  const listed = await call(service.url, 'GET', '/api/admin/tokens', { token: admin });
  const bot = listed.body.tokens.find((token: { name: string }) => token.name === 'calendar bot');
  t.truthy(bot.lastUsedAt);
  t.false(JSON.stringify(listed.body).includes(read), 'the listing never shows a secret');
});

test.serial('API tokens: a revoked token is refused at once by another process on the same database; `npm run admin -- token` creates, lists and revokes', async (t) => {
  const admin = await adminToken(service.url);
  const created = await createToken(admin, { name: 'staging seeder', scope: 'read-write' });
  const secret = created.body.token as string;
  const other = await startProcess({ url: service.config.databaseUrl! } as TestDatabase, { ROLE: 'edge' });
  t.teardown(() => other.stop());
  t.is((await call(other.url, 'GET', '/api/admin/tokens', { token: secret })).status, 200, 'the other process accepts it');
  t.is((await call(service.url, 'DELETE', `/api/admin/tokens/${created.body.apiToken.id}`, { token: admin })).status, 200);
  t.is((await call(other.url, 'GET', '/api/admin/tokens', { token: secret })).status, 401, 'refused by the other process at once');
  t.is((await call(service.url, 'DELETE', `/api/admin/tokens/${created.body.apiToken.id}`, { token: admin })).status, 404, 'already revoked');

  const { stdout: printed } = await adminCli('token', 'create', 'chat bot', 'read', '30');
  const fromCli = printed.trim();
  t.regex(fromCli, /^sct_/);
  t.is((await call(other.url, 'GET', '/api/admin/lockouts', { token: fromCli })).status, 200);
  t.regex((await adminCli('token', 'list')).stdout, /\tchat bot\tread\texpires 20/);
  await adminCli('token', 'revoke', 'chat bot');
  t.is((await call(other.url, 'GET', '/api/admin/lockouts', { token: fromCli })).status, 401);
  await t.throwsAsync(adminCli('token', 'revoke', 'chat bot'), { message: /no live API token/ });
});

// Last: it moves the service's clock a day on.
test.serial('API tokens: a token past its expiry is refused (the injected clock)', async (t) => {
  const admin = await adminToken(service.url);
  const secret = (await createToken(admin, { name: 'one-day job', scope: 'read', expiresInDays: 1 })).body.token as string;
  t.is((await call(service.url, 'GET', '/api/admin/tokens', { token: secret })).status, 200);
  service.clock.advance(25 * 3600 * 1000);
  const expired = await call(service.url, 'GET', '/api/admin/tokens', { token: secret });
  t.is(expired.status, 401);
  t.is(expired.body.code, 'token_invalid');
});
