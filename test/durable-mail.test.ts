// Mail and a full disk (docs/operations.md, "Faults"): a verification mail is queued with its
// account and delivered once the mail server is up; with DATA_DIR full, uploads answer 507 and
// readiness fails, a registration still queues its mail, and everything recovers once there is
// room again, the mail written whole.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { freePort } from '../shared/db/embedded-postgres.ts';
import { pngImage } from './helpers/images.ts';
import { ConfigError, loadConfig } from '../shared/runtime/config.ts';
import { adminToken, call, startTestService, type LogCapture } from './helpers/service.ts';
import { startMailCapture } from './helpers/smtp.ts';

let counter = 0;
const register = (url: string) => {
  const email = `durable${++counter}-${Date.now()}@example.com`;
  return call(url, 'POST', '/auth/register', { json: { email, password: 'password-1234' }, headers: { 'x-forwarded-for': `192.0.2.${counter}` } }).then((r) => ({ ...r, email }));
};

test('a registration while the SMTP server is down is acknowledged, and its mail arrives once the server is up', async (t) => {
  const port = await freePort();
  const service = await startTestService({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'calendar@example.test' });
  t.teardown(() => service.stop());
  const registered = await register(service.url);
  t.is(registered.status, 200);
  const queued = await service.running.services.db.one<{ n: number }>('SELECT count(*)::int AS n FROM mail_queue WHERE recipient = $1', [registered.email]);
  t.is(queued.n, 1, 'queued with the account');
  await new Promise((r) => setTimeout(r, 2_500)); // a few failed attempts
  const mail = await startMailCapture(port);
  t.teardown(() => mail.close());
  const message = await mail.waitFor(registered.email, 70_000);
  t.regex(message.text ?? '', /\/auth\/verify\/[0-9a-f-]{36}/);
  // The SMTP server has the message before the queue deletes its row: wait a little for that.
  let left = 1;
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    left = (await service.running.services.db.one<{ n: number }>('SELECT count(*)::int AS n FROM mail_queue WHERE recipient = $1', [registered.email])).n;
    if (left === 0) break;
  }
  t.is(left, 0, 'delivered mail leaves the queue');
});

const countOf = async (service: Awaited<ReturnType<typeof startTestService>>, table: 'users' | 'mail_queue' | 'registration_windows') =>
  (await service.running.services.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).n;

test('MAIL_QUEUE_MAX: past the cap a registration answers 503 with Retry-After and stores nothing; it is accepted again once mail is delivered', async (t) => {
  const port = await freePort();
  const service = await startTestService({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_QUEUE_MAX: '3', REGISTER_LIMIT_PER_HOUR: '20' });
  t.teardown(() => service.stop());
  for (let i = 0; i < 3; i++) t.is((await register(service.url)).status, 200);
  const before = { users: await countOf(service, 'users'), mail: await countOf(service, 'mail_queue'), windows: await countOf(service, 'registration_windows') };
  t.is(before.mail, 3);
  const refused = await Promise.all([register(service.url), register(service.url)]);
  for (const response of refused) {
    t.is(response.status, 503, JSON.stringify(response.body));
    t.is(response.body.code, 'mail_queue_full');
    t.regex(response.headers.get('retry-after') ?? '', /^\d+$/);
  }
  const after = { users: await countOf(service, 'users'), mail: await countOf(service, 'mail_queue'), windows: await countOf(service, 'registration_windows') };
  t.deepEqual(after, before, 'no user row, no mail, no registration counted');
  // The mail server comes up: the queue drains (made due now rather than after its backoff).
  const mail = await startMailCapture(port);
  t.teardown(() => mail.close());
  await service.running.services.db.none('UPDATE mail_queue SET next_attempt_at = clock_timestamp()');
  for (const deadline = Date.now() + 20_000; Date.now() < deadline && (await countOf(service, 'mail_queue')) > 0; ) await new Promise((r) => setTimeout(r, 100));
  t.is(await countOf(service, 'mail_queue'), 0);
  const accepted = await register(service.url);
  t.is(accepted.status, 200);
  await mail.waitFor(accepted.email, 20_000);
});

test('MAIL_MAX_AGE_HOURS: a mail still undelivered after its maximum age is dropped with a warning that names no address; failures back off exponentially', async (t) => {
  const port = await freePort();
  const logs: LogCapture = { lines: [] };
  const service = await startTestService({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_MAX_AGE_HOURS: '2' }, { captureLogs: logs });
  t.teardown(() => service.stop());
  const registered = await register(service.url);
  t.is(registered.status, 200);
  const db = service.running.services.db;
  // Attempts at about 0, 1, 3, 7 s: after 5 s, 3 attempts and the next one at most 4 s away.
  await new Promise((r) => setTimeout(r, 5_000));
  const row = await db.one<{ id: number; attempts: number; wait_s: number; last_error: string | null }>(
    'SELECT id, attempts, extract(epoch FROM next_attempt_at - clock_timestamp())::float8 AS wait_s, last_error FROM mail_queue WHERE recipient = $1', [registered.email]);
  t.log(row);
  t.true(row.attempts >= 2 && row.attempts <= 4, `attempts ${row.attempts}`);
  t.true(row.wait_s <= 2 ** row.attempts, `next attempt in ${row.wait_s} s after ${row.attempts} failures`);
  t.truthy(row.last_error);
  // Younger than the maximum age it stays; older it is dropped at the next round.
  await db.none("UPDATE mail_queue SET created_at = clock_timestamp() - interval '1 hour 50 minutes', next_attempt_at = clock_timestamp() WHERE id = $1", [row.id]);
  await new Promise((r) => setTimeout(r, 3_000));
  t.is(await countOf(service, 'mail_queue'), 1, 'younger than MAIL_MAX_AGE_HOURS: still queued');
  await db.none("UPDATE mail_queue SET created_at = clock_timestamp() - interval '2 hours 1 minute' WHERE id = $1", [row.id]);
  for (const deadline = Date.now() + 10_000; Date.now() < deadline && (await countOf(service, 'mail_queue')) > 0; ) await new Promise((r) => setTimeout(r, 100));
  t.is(await countOf(service, 'mail_queue'), 0, 'dropped');
  const warning = logs.lines.find((line) => line.includes('mail dropped undelivered'));
  t.truthy(warning);
  t.like(JSON.parse(warning!), { level: 'warn', mailId: row.id, maxAgeHours: 2 });
  t.false(warning!.includes(registered.email), 'no e-mail address in the log');
});

test('MAIL_QUEUE_MAX and MAIL_MAX_AGE_HOURS are validated at start', (t) => {
  const base = { DATABASE_URL: 'postgres://localhost/x', JWT_SECRET: 'x'.repeat(32) };
  t.like(loadConfig(base).mailQueue, { maxPending: 1000, maxAgeHours: 24 });
  for (const [name, bad] of [['MAIL_QUEUE_MAX', '0'], ['MAIL_QUEUE_MAX', 'many'], ['MAIL_MAX_AGE_HOURS', '0'], ['MAIL_MAX_AGE_HOURS', '721']] as const) {
    const error = t.throws(() => loadConfig({ ...base, [name]: bad }), { instanceOf: ConfigError });
    t.is(error?.variable, name);
  }
});

// A small tmpfs as DATA_DIR: needs mount (root with CAP_SYS_ADMIN), else the test says why it is skipped.
// Tests are declared synchronously: the mount is tried the same way.
const mountPoint = mkdtempSync(join(tmpdir(), 'full-data-'));
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', mountPoint], { stdio: 'ignore' });
  mounted = true;
} catch {
  rmSync(mountPoint, { recursive: true, force: true });
}
const fullDiskTest = mounted ? test.serial : test.skip;
fullDiskTest(`${mounted ? '' : 'SKIPPED (cannot mount a tmpfs here: needs root with CAP_SYS_ADMIN): '}a full DATA_DIR: uploads 507, readiness 503, a registration still queues its mail; all recover when space returns`, async (t) => {
  t.timeout(120_000);
  t.teardown(async () => {
    try {
      execFileSync('umount', [mountPoint], { stdio: 'ignore' });
    } catch {
      /* already gone */
    }
    await rm(mountPoint, { recursive: true, force: true });
  });
  const service = await startTestService({ DATA_DIR: mountPoint, DATA_DIR_MIN_FREE_MB: '8' });
  t.teardown(() => service.stop());
  const token = await adminToken(service.url);
  const poster = await pngImage(1600, 1200, 7);
  const upload = () => {
    const data = new FormData();
    data.append('payload', JSON.stringify({ title: `디스크 ${++counter}`, date: '2026-05-14', schoolName: '한국외국어대학교', memberIds: [], venue: { name: '대운동장', address: '', roadAddress: '', lat: 37.3, lng: 127.2, map_id: `disk-${counter}` }, postUrls: [] }));
    data.append('posters', new Blob([poster], { type: 'image/png' }), 'poster.png');
    return call(service.url, 'POST', '/api/admin/events', { body: data, token });
  };
  t.is((await call(service.url, 'GET', '/readyz')).status, 200);
  t.is((await upload()).status, 201);

  // Fill the disk but for a few kilobytes.
  const filler = join(mountPoint, 'filler');
  await writeFile(filler, Buffer.alloc(1024 * 1024));
  for (let i = 0; i < 100; i++) {
    try {
      await writeFile(join(mountPoint, `filler-${i}`), Buffer.alloc(1024 * 1024));
    } catch {
      break;
    }
  }
  for (let i = 0; i < 64; i++) {
    try {
      await writeFile(join(mountPoint, `small-${i}`), Buffer.alloc(16 * 1024));
    } catch {
      break;
    }
  }
  const refused = await upload();
  t.is(refused.status, 507, JSON.stringify(refused.body));
  t.truthy(refused.body.error);
  t.truthy(refused.headers.get('retry-after'));
  const ready = await call(service.url, 'GET', '/readyz');
  t.is(ready.status, 503);
  t.regex(ready.body.error, /disk/);
  const registered = await register(service.url);
  t.is(registered.status, 200, 'the account and its mail are in the database, not on the full disk');
  await new Promise((r) => setTimeout(r, 1_500));
  const mailDir = join(mountPoint, 'mail');
  const before = await readdir(mailDir).catch(() => [] as string[]);
  t.false(before.some((name) => name.endsWith('.part')), 'no partial mail file');

  // Room again.
  for (const name of await readdir(mountPoint)) if (name.startsWith('filler') || name.startsWith('small-')) await rm(join(mountPoint, name));
  let readiness = 0;
  for (let i = 0; i < 50 && readiness !== 200; i++) {
    readiness = (await call(service.url, 'GET', '/readyz')).status;
    if (readiness !== 200) await new Promise((r) => setTimeout(r, 200));
  }
  t.is(readiness, 200);
  t.is((await upload()).status, 201);
  let mailed: string | undefined;
  for (let i = 0; i < 150 && !mailed; i++) {
    for (const name of await readdir(mailDir).catch(() => [] as string[])) {
      if (name.endsWith('.eml') && (await readFile(join(mailDir, name), 'utf8')).includes(registered.email)) mailed = name;
    }
    if (!mailed) await new Promise((r) => setTimeout(r, 500));
  }
  t.truthy(mailed, 'the queued mail is written once there is room');
  t.true((await readFile(join(mailDir, mailed!), 'utf8')).includes('/auth/verify/'));
});
