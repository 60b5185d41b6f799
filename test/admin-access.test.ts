// Administrators who get back in, and automation without the password: login lockouts listed and
// cleared through the API and `npm run admin`, each clearing in the activity log.
import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ADMIN, adminToken, call, startTestService, type TestService } from './helpers/service.ts';

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
