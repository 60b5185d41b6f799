// Account registration (auth-service.md 4.1): the account stored with a bcrypt hash (in the pool),
// a random nickname and default picture, and the verification e-mail queued with it (durable mail
// queue, shared/mail-queue.ts).
import { randomInt, randomUUID } from 'node:crypto';
import { pgErrorCode } from '../db/database.ts';
import { randomNickname } from '../db/repositories/nicknames.ts';
import { findUserByEmail, insertUser } from '../db/repositories/users.ts';
import { enqueueMail, mailQueueFull, mailQueueIsFull } from '../mail-queue.ts';
import type { Services } from '../services.ts';
import { DEFAULT_PROFILE_PICTURES, defaultPictureKey } from '../storage/default-pictures.ts';

export const VERIFY_LINK_LIFETIME_MS = 24 * 3600 * 1000;

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function verificationMail(publicBaseUrl: string, nickname: string, token: string) {
  const link = `${publicBaseUrl}/auth/verify/${token}`;
  return {
    subject: '이메일 주소를 인증해 주세요',
    text: `${nickname}님, 가입을 환영합니다!\n\n아래 링크를 열어 이메일 주소를 인증해 주세요 (24시간 동안 유효합니다).\n${link}\n\n인증 토큰: ${token}\n`,
    html: `<p><strong>${escapeHtml(nickname)}</strong>님, 가입을 환영합니다!</p><p>아래 링크를 열어 이메일 주소를 인증해 주세요 (24시간 동안 유효합니다).</p><p><a href="${link}">${link}</a></p><p>인증 토큰: <code>${token}</code></p>`,
  };
}

/** An unverified account whose link has expired: it makes way for a new registration. */
export const isExpiredUnverified = (s: Services, user: { email_verified: boolean; verify_expires: Date | null }) =>
  !user.email_verified && user.verify_expires !== null && user.verify_expires.getTime() < s.clock.now();

/** 503 when the mail queue is full (MAIL_QUEUE_MAX): asked before a registration writes anything. */
export async function refuseWhenMailQueueFull(s: Services): Promise<void> {
  if (await mailQueueIsFull(s.db, s.config.mailQueue.maxPending)) throw mailQueueFull();
}

/** Registers the account; false when the e-mail is already registered (R3). */
export async function registerAccount(s: Services, input: { email: string; password: string; ip: string }): Promise<boolean> {
  const { email, password } = input;
  // R3, checked before hashing so a duplicate costs no bcrypt work; the insert re-checks atomically.
  const existing = await findUserByEmail(s.db, email);
  if (existing && !isExpiredUnverified(s, existing)) return false;

  const passwordHash = await s.passwords.hash(password, input.ip);
  const name = await randomNickname(s.db, s.logger);
  const profileKey = defaultPictureKey(randomInt(1, DEFAULT_PROFILE_PICTURES + 1));
  const verifyToken = randomUUID();
  const now = new Date(s.clock.now());
  const user = await s.db.tx('register', async (tx) => {
    // Someone whose link expired is told to register again: the stale unverified account makes way.
    await tx.none('DELETE FROM users WHERE lower(email) = lower($1) AND NOT email_verified AND verify_expires < $2', [email, now]);
    const inserted = await insertUser(tx, { email, passwordHash, name, profileKey, verifyToken, verifyExpires: new Date(s.clock.now() + VERIFY_LINK_LIFETIME_MS) });
    // 4.1 step 5, made durable: the mail is queued with the account, so an acknowledged
    // registration always has its mail; a send that fails is retried, and fails nothing here. A
    // full queue (MAIL_QUEUE_MAX) throws 503 and rolls the account back: nothing is stored.
    if (inserted) await enqueueMail(tx, { to: inserted.email, ...verificationMail(s.config.publicBaseUrl, inserted.name, verifyToken) }, s.config.mailQueue.maxPending);
    return inserted;
  }).catch((error: unknown) => {
    if (pgErrorCode(error) === '23505') return null;
    throw error;
  });
  if (!user) return false;

  s.mailQueue.wake();
  s.logger.info({ userId: user.id }, 'user registered');
  return true;
}
