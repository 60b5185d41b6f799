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
import { adminToken, call, startTestService } from './helpers/service.ts';
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
