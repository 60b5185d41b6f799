// Accounts people can recover (docs/security.md, "Account recovery"): a password reset by a mailed
// single-use link, the verification mail again, and a password change.
//
// No account enumeration: `forgot` and `resend` answer 202 whatever the address. The request does
// the same work for every address (the client's limit and the mail queue's fullness, both
// independent of the address); finding the account and queueing its mail run after the answer, as
// background work, so neither status, body nor timing tells whether the address has an account.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { findResetLink, replaceResetLink, takeMailWindow, useResetLink } from '../db/repositories/password-resets.ts';
import { findUserByEmail, renewVerifyToken, setPassword, userByIdQuery, type UserRow } from '../db/repositories/users.ts';
import { badRequest, forbidden, HttpError } from '../errors.ts';
import { enqueueMail } from '../mail-queue.ts';
import type { Services } from '../services.ts';
import { checkClientPassword } from './login-lockout.ts';
import { escapeHtml, refuseWhenMailQueueFull, VERIFY_LINK_LIFETIME_MS, verificationMail } from './registration.ts';

export const RESET_LINK_LIFETIME_MS = 30 * 60 * 1000;

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** Where a reset link points: RESET_PAGE_URL (the site's page) or the server's minimal page. */
export function resetLink(s: Services, token: string): string {
  const base = s.config.passwordResetUrl ?? `${s.config.publicBaseUrl}/auth/password/reset`;
  return `${base}${base.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}

function resetMail(link: string, nickname: string) {
  return {
    subject: '비밀번호 재설정 링크',
    text: `${nickname}님, 비밀번호 재설정을 요청하셨습니다.\n\n아래 링크를 열어 새 비밀번호를 정해 주세요 (30분 동안 한 번만 쓸 수 있습니다).\n${link}\n\n요청하지 않으셨다면 이 메일을 무시해 주세요. 비밀번호는 바뀌지 않습니다.\n`,
    html: `<p><strong>${escapeHtml(nickname)}</strong>님, 비밀번호 재설정을 요청하셨습니다.</p><p>아래 링크를 열어 새 비밀번호를 정해 주세요 (30분 동안 한 번만 쓸 수 있습니다).</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>요청하지 않으셨다면 이 메일을 무시해 주세요. 비밀번호는 바뀌지 않습니다.</p>`,
  };
}

/**
 * What every address pays before the answer: 503 when the mail queue is full, 429 past the client's
 * hourly limit of mails asked for (resets and verification mails together).
 */
async function admitMailRequest(s: Services, client: string): Promise<void> {
  await refuseWhenMailQueueFull(s);
  if (!(await takeMailWindow(s.db, `client:${client}`, new Date(s.clock.now()), s.config.accountMail.perClientPerHour))) {
    throw new HttpError(429, '이 주소에서 메일 요청이 너무 많습니다. 한 시간 뒤에 다시 시도해 주세요.', { 'Retry-After': '3600' }, 'rate_limited');
  }
}

/** After the answer: the address's own hourly limit (silent: a refusal would tell the address exists). */
const addressAdmitted = (s: Services, kind: 'reset' | 'verify', email: string) =>
  takeMailWindow(s.db, `${kind}:${email.toLowerCase()}`, new Date(s.clock.now()), s.config.accountMail.perAddressPerHour);

/** POST /auth/password/forgot: a reset link to the account of `email`, if there is one. */
export async function forgotPassword(s: Services, email: string, client: string): Promise<void> {
  await admitMailRequest(s, client);
  s.background.run('password reset mail', async () => {
    if (!(await addressAdmitted(s, 'reset', email))) return;
    const user = await findUserByEmail(s.db, email);
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    await s.db.tx('password-reset-link', async (tx) => {
      await replaceResetLink(tx, user.id, hashOf(token), new Date(s.clock.now() + RESET_LINK_LIFETIME_MS), new Date(s.clock.now()));
      await enqueueMail(tx, { to: user.email, ...resetMail(resetLink(s, token), user.name) }, s.config.mailQueue.maxPending);
    });
    s.mailQueue.wake();
    s.logger.info({ userId: user.id }, 'password reset link queued');
  });
}

/** POST /auth/verify/resend: a new verification link to an unverified account of `email`, if there is one. */
export async function resendVerification(s: Services, email: string, client: string): Promise<void> {
  await admitMailRequest(s, client);
  s.background.run('verification mail again', async () => {
    if (!(await addressAdmitted(s, 'verify', email))) return;
    const user = await findUserByEmail(s.db, email);
    if (!user || user.email_verified) return;
    const token = randomUUID();
    await s.db.tx('verification-again', async (tx) => {
      if (!(await renewVerifyToken(tx, user.id, token, new Date(s.clock.now() + VERIFY_LINK_LIFETIME_MS)))) return;
      await enqueueMail(tx, { to: user.email, ...verificationMail(s.config.publicBaseUrl, user.name, token) }, s.config.mailQueue.maxPending);
    });
    s.mailQueue.wake();
    s.logger.info({ userId: user.id }, 'verification mail queued again');
  });
}

/** POST /auth/password/reset: the link's account gets `password`; every token it held is revoked. */
export async function resetPassword(s: Services, token: string, password: string, client: string): Promise<void> {
  const tokenHash = hashOf(token);
  const link = await findResetLink(s.db, tokenHash);
  if (!link) throw badRequest('알 수 없는 재설정 링크입니다. 새 링크를 요청해 주세요.', 'reset_token_unknown');
  if (link.used_at) throw badRequest('이미 사용한 재설정 링크입니다. 새 링크를 요청해 주세요.', 'reset_token_used');
  if (link.expires_at.getTime() <= s.clock.now()) throw badRequest('재설정 링크가 만료되었습니다. 새 링크를 요청해 주세요.', 'reset_token_expired');
  const passwordHash = await s.passwords.hash(password, client);
  const changed = await s.db.tx('password-reset', async (tx) => {
    const userId = await useResetLink(tx, tokenHash, new Date(s.clock.now()));
    if (userId === null) return false;
    await setPassword(tx, userId, passwordHash, true);
    return true;
  });
  // Another submission of the same link won the race.
  if (!changed) throw badRequest('이미 사용한 재설정 링크입니다. 새 링크를 요청해 주세요.', 'reset_token_used');
  s.logger.info({ userId: link.user_id }, 'password reset');
}

/**
 * POST /auth/password: `currentPassword` checked as a login is (the client's failures counted, the
 * account slowed down), then the new password set; returns the new token version.
 */
export async function changePassword(s: Services, user: UserRow, currentPassword: string, newPassword: string, client: string): Promise<UserRow> {
  const check = await checkClientPassword<UserRow>(s, 'user', client, userByIdQuery(user.id), (row) => row.password, currentPassword);
  if (!check.matched) throw forbidden('현재 비밀번호가 올바르지 않습니다.', 'wrong_password');
  await check.succeed();
  const passwordHash = await s.passwords.hash(newPassword, client);
  const version = await setPassword(s.db, user.id, passwordHash, false);
  s.logger.info({ userId: user.id }, 'password changed');
  return { ...user, token_version: version };
}
