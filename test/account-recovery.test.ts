// Accounts people can recover: a password reset by a mailed single-use link, the verification mail
// again, a password change; no answer tells whether an address has an account. Over real HTTP,
// against real PostgreSQL, with the mails captured by a real SMTP server.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startMailCapture, type MailCapture } from './helpers/smtp.ts';
import { call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let mail: MailCapture;

test.before(async () => {
  mail = await startMailCapture();
  service = await startTestService({ SMTP_URL: mail.url, ACCOUNT_MAIL_PER_CLIENT_PER_HOUR: '1000' });
});
test.after.always(async () => {
  await service?.stop();
  await mail?.close();
});

let counter = 0;
const uniqueEmail = () => `recover${++counter}-${randomUUID().slice(0, 8)}@example.com`;
const uniqueIp = () => `198.19.${(++counter >> 8) & 255}.${counter & 255}`;
const post = (path: string, json: unknown, headers: Record<string, string> = {}) => call(service.url, 'POST', path, { json, headers: { 'x-forwarded-for': uniqueIp(), ...headers } });
const login = (email: string, password: string) => post('/auth/login', { email, password });
const me = async (token: string) => (await call(service.url, 'GET', '/auth/me', { token })).body.loggedIn as boolean;
const mailsTo = (email: string) => mail.messages.filter((m) => [m.to].flat().some((to) => to?.value.some((v) => v.address === email)));

async function waitForMails(email: string, count: number) {
  const deadline = Date.now() + 10_000;
  while (mailsTo(email).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return mailsTo(email);
}

/** Registers (and verifies, unless told not to) through the mailed link. */
async function user(verify = true) {
  const email = uniqueEmail();
  const password = 'correct horse 1';
  if ((await post('/auth/register', { email, password })).status !== 200) throw new Error('register failed');
  const message = await mail.waitFor(email);
  const link = /http:\/\/127\.0\.0\.1:\d+\/auth\/verify\/[0-9a-f-]{36}/.exec(message.text ?? '')![0];
  if (verify && (await fetch(link)).status !== 200) throw new Error('verify failed');
  return { email, password, link };
}

const resetTokenOf = (text: string | undefined) => /\/auth\/password\/reset\?token=([A-Za-z0-9_-]+)/.exec(text ?? '')?.[1];

test.serial('reset: the mailed link sets a new password once; the old password and every earlier token are refused; the page the link opens is served', async (t) => {
  const { email, password } = await user();
  const before = (await login(email, password)).body.token as string;
  t.true(await me(before));

  const asked = await post('/auth/password/forgot', { email });
  t.is(asked.status, 202);
  const [, message] = await waitForMails(email, 2);
  const token = resetTokenOf(message!.text);
  t.truthy(token, message!.text);
  t.false(JSON.stringify(await service.running.services.db.any('SELECT * FROM password_resets')).includes(token!), 'stored hashed, never as sent');

  const linkPage = await fetch(`${service.url}/auth/password/reset?token=${token}`);
  t.is(linkPage.status, 200);
  t.regex(await linkPage.text(), /<form id="reset">/);
  t.is((await fetch(`${service.url}/auth/password/reset.js`)).status, 200);

  t.is((await post('/auth/password/reset', { token, password: 'short' })).status, 400, 'the registration rules apply');
  const reset = await post('/auth/password/reset', { token, password: 'a brand new password' });
  t.is(reset.status, 200, JSON.stringify(reset.body));
  t.is((await login(email, password)).status, 401, 'the old password is refused');
  t.is((await login(email, 'a brand new password')).status, 200);
  t.false(await me(before), 'a token from before the reset is refused');
  t.is((await call(service.url, 'POST', '/auth/refresh', { token: before })).status, 401);

  const again = await post('/auth/password/reset', { token, password: 'yet another password' });
  t.is(again.status, 400);
  t.is(again.body.code, 'reset_token_used');
  const unknown = await post('/auth/password/reset', { token: 'x'.repeat(43), password: 'yet another password' });
  t.is(unknown.status, 400);
  t.is(unknown.body.code, 'reset_token_unknown');
});

test.serial('reset: only the newest link works, even when two are asked for at once, and a link expires after 30 minutes (the injected clock)', async (t) => {
  const { email } = await user();
  // Two requests at once: each makes a link one after the other, and only the one made last works.
  await Promise.all([post('/auth/password/forgot', { email }), post('/auth/password/forgot', { email })]);
  const [, a, b] = await waitForMails(email, 3);
  const outcomes = [];
  for (const message of [a, b]) outcomes.push((await post('/auth/password/reset', { token: resetTokenOf(message!.text), password: 'password from a link' })).body.code ?? 'reset');
  t.deepEqual(outcomes.sort(), ['reset', 'reset_token_unknown'], 'one link worked, the other had been replaced');

  await post('/auth/password/forgot', { email });
  const [, , , latest] = await waitForMails(email, 4);
  service.clock.advance(31 * 60_000);
  const expired = await post('/auth/password/reset', { token: resetTokenOf(latest!.text), password: 'password from new link' });
  t.is(expired.status, 400);
  t.is(expired.body.code, 'reset_token_expired');
});

test.serial('no enumeration: forgot and resend answer the same status and body for known and unknown addresses, in the same time within noise; the unknown address gets no mail', async (t) => {
  const known = (await user()).email;
  const unknown = uniqueEmail();
  for (const path of ['/auth/password/forgot', '/auth/verify/resend']) {
    const a = await post(path, { email: known });
    const b = await post(path, { email: unknown });
    t.is(a.status, 202);
    t.deepEqual([b.status, b.body], [a.status, a.body], path);
  }
  // Timing: alternate known and unknown addresses (fresh ones, under their hourly limit) and compare medians.
  const timings: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
  const knownUsers = await Promise.all(Array.from({ length: 3 }, () => user()));
  for (let round = 0; round < 9; round++) {
    // Each kind goes first in turn: the previous request's background work falls on both alike.
    for (const kind of round % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
      const email = kind === 'known' ? knownUsers[round % 3]!.email : uniqueEmail();
      const started = performance.now();
      t.is((await post('/auth/password/forgot', { email })).status, 202);
      timings[kind].push(performance.now() - started);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const [k, u] = [median(timings.known), median(timings.unknown)];
  t.log(`median 202: known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms`);
  // Loose: the answer does the same work for both; only scheduling noise of a busy machine remains.
  t.true(Math.abs(k - u) < Math.max(25, 0.75 * Math.min(k, u)), `known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms`);
  await waitForMails(knownUsers[2]!.email, 4);
  t.is(mailsTo(unknown).length, 0);
});

test.serial('resend: an unverified account gets a new link that verifies it (the first stops working); a verified one gets nothing; one address gets at most 3 an hour', async (t) => {
  const { email, link: first } = await user(false);
  t.is((await post('/auth/verify/resend', { email })).status, 202);
  const [, again] = await waitForMails(email, 2);
  const link = /http:\/\/127\.0\.0\.1:\d+\/auth\/verify\/[0-9a-f-]{36}/.exec(again!.text ?? '')![0];
  t.not(link, first);
  t.is((await fetch(first)).status, 400, 'the earlier link is replaced');
  t.is((await fetch(link)).status, 200);
  t.is((await login(email, 'correct horse 1')).status, 200);
  await post('/auth/verify/resend', { email });
  await new Promise((r) => setTimeout(r, 500));
  t.is(mailsTo(email).length, 2, 'a verified account gets no mail');

  const waiting = (await user(false)).email;
  for (let i = 0; i < 5; i++) t.is((await post('/auth/verify/resend', { email: waiting })).status, 202);
  await waitForMails(waiting, 4);
  await new Promise((r) => setTimeout(r, 500));
  t.is(mailsTo(waiting).length, 1 + 3, 'the registration mail and 3 more, whatever was asked');
});

test.serial('resend and forgot: past ACCOUNT_MAIL_PER_CLIENT_PER_HOUR one client gets 429', async (t) => {
  const limited = await startTestService({ SMTP_URL: mail.url, ACCOUNT_MAIL_PER_CLIENT_PER_HOUR: '2' });
  t.teardown(() => limited.stop());
  const ask = (path: string) => call(limited.url, 'POST', path, { json: { email: uniqueEmail() }, headers: { 'x-forwarded-for': '198.51.100.7' } });
  t.is((await ask('/auth/password/forgot')).status, 202);
  t.is((await ask('/auth/verify/resend')).status, 202);
  const refused = await ask('/auth/password/forgot');
  t.is(refused.status, 429);
  t.is(refused.body.code, 'rate_limited');
  t.truthy(refused.headers.get('retry-after'));
});

test.serial('change: the current password is checked; the new one works; the other sessions are logged out and the answer carries a new token', async (t) => {
  const { email, password } = await user();
  const first = (await login(email, password)).body.token as string;
  const second = (await login(email, password)).body.token as string;
  t.is((await call(service.url, 'POST', '/auth/password', { json: { currentPassword: password, newPassword: 'changed password 1' } })).status, 401);
  const wrong = await call(service.url, 'POST', '/auth/password', { token: first, json: { currentPassword: 'not the password', newPassword: 'changed password 1' }, headers: { 'x-forwarded-for': uniqueIp() } });
  t.is(wrong.status, 403);
  t.is(wrong.body.code, 'wrong_password');
  const changed = await call(service.url, 'POST', '/auth/password', { token: first, json: { currentPassword: password, newPassword: 'changed password 1' }, headers: { 'x-forwarded-for': uniqueIp() } });
  t.is(changed.status, 200, JSON.stringify(changed.body));
  t.is(changed.headers.get('cache-control'), 'no-store');
  t.false(await me(second), 'another session is logged out');
  t.false(await me(first), 'the token used for the change is replaced too');
  t.true(await me(changed.body.token));
  t.is((await login(email, password)).status, 401);
  t.is((await login(email, 'changed password 1')).status, 200);
});
