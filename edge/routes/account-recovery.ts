// Accounts people can recover, /auth (docs/security.md, "Account recovery"): a password reset by a
// mailed link, the verification mail again, a password change. The rules are in
// shared/accounts/recovery.ts.
import { AcceptedResponse, EmailBody, PasswordChangeBody, PasswordChangeResponse, PasswordResetBody } from '../../schemas/account-recovery.ts';
import { MAX_PASSWORD_BYTES } from '../../schemas/auth.ts';
import { ErrorResponse, SuccessMessageResponse } from '../../schemas/common.ts';
import { compile } from '../../schemas/validate.ts';
import { lookupEmail } from '../../shared/accounts/email-address.ts';
import { changePassword, forgotPassword, resendVerification, resetPassword } from '../../shared/accounts/recovery.ts';
import { toPublicUser } from '../../shared/db/repositories/users.ts';
import { badRequest, unauthorized } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { bearerToken } from '../bearer.ts';
import { clientKey } from '../client-key.ts';
import { reply, type Context } from '../context.ts';
import type { Route } from '../router.ts';
import { NO_STORE, tokenUser } from './account.ts';
import { RESET_PAGE, RESET_SCRIPT } from './reset-page.ts';

const emailBody = compile(EmailBody);
const resetBody = compile(PasswordResetBody);
const changeBody = compile(PasswordChangeBody);

const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
  // The token is in the address: no Referer carries it to another site.
  'Referrer-Policy': 'no-referrer',
};

/** The same answer for every address: 202 and this body. */
const accepted = (message: string) => ({ status: 202, json: { success: true, message } });

const nfc = (value: unknown) => (typeof value === 'string' ? value.normalize('NFC') : value);
const asRecord = (body: unknown): Record<string, unknown> => (typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

function checkPasswordBytes(password: string): void {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) throw badRequest(`비밀번호는 UTF-8 기준 ${MAX_PASSWORD_BYTES}바이트 이하여야 합니다.`, 'invalid_body');
}

async function forgot(s: Services, ctx: Context) {
  const { email } = emailBody.parse(await ctx.json());
  await forgotPassword(s, lookupEmail(email.normalize('NFC')), clientKey(ctx.ip));
  return accepted('가입된 주소라면 비밀번호 재설정 링크를 보냈습니다. 받은 편지함을 확인해 주세요.');
}

async function resend(s: Services, ctx: Context) {
  const { email } = emailBody.parse(await ctx.json());
  await resendVerification(s, lookupEmail(email.normalize('NFC')), clientKey(ctx.ip));
  return accepted('인증을 마치지 않은 가입 주소라면 새 인증 링크를 보냈습니다. 받은 편지함을 확인해 주세요.');
}

async function reset(s: Services, ctx: Context) {
  const body = asRecord(await ctx.json());
  const { token, password } = resetBody.parse({ ...body, password: nfc(body.password) });
  checkPasswordBytes(password);
  await resetPassword(s, token, password, clientKey(ctx.ip));
  return reply({ success: true, message: '비밀번호가 바뀌었습니다. 새 비밀번호로 로그인해 주세요.' });
}

async function change(s: Services, ctx: Context) {
  const token = bearerToken(ctx);
  if (!token) throw unauthorized('Bearer 토큰이 필요합니다.', 'token_missing');
  const user = await tokenUser(s, token);
  if (!user) throw unauthorized('유효하지 않거나 만료된 토큰입니다.', 'token_invalid');
  const body = asRecord(await ctx.json());
  const { currentPassword, newPassword } = changeBody.parse({ ...body, currentPassword: nfc(body.currentPassword), newPassword: nfc(body.newPassword) });
  checkPasswordBytes(newPassword);
  const changed = await changePassword(s, user, currentPassword, newPassword, clientKey(ctx.ip));
  const fresh = s.tokens.signUser({ id: changed.id, email: changed.email, isAdmin: changed.is_admin, version: changed.token_version });
  return { json: { success: true, token: fresh, user: toPublicUser(changed) }, headers: NO_STORE };
}

export function accountRecoveryRoutes(s: Services): Route[] {
  const tags = ['account'];
  const mailLimits = 'More than ACCOUNT_MAIL_PER_CLIENT_PER_HOUR (20) such requests from the client in an hour → 429; MAIL_QUEUE_MAX mails waiting → 503. Past ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR (3) for one address the answer stays 202 and no mail is sent.';
  return [
    {
      method: 'post', path: '/auth/password/forgot', handler: (ctx) => forgot(s, ctx), bodyLimit: 16 * 1024,
      doc: { summary: 'Ask for a password reset link', tags, body: EmailBody, description: `202 with the same body whatever the address (no account enumeration; the lookup runs after the answer). An account of that address gets a mail with a single-use link (30 minutes; only the newest link works) to RESET_PAGE_URL or the server's page. ${mailLimits}`, responses: { 202: AcceptedResponse, 400: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse } },
    },
    {
      method: 'post', path: '/auth/password/reset', handler: (ctx) => reset(s, ctx), bodyLimit: 16 * 1024,
      doc: { summary: 'Set a new password with a reset link', tags, body: PasswordResetBody, description: 'The password under the registration rules (8 characters, 72 bytes) → else 400; an unknown token → 400 `reset_token_unknown`, a used one → 400 `reset_token_used`, an expired one → 400 `reset_token_expired`. Every token the user held is revoked; the address counts as verified.', responses: { 200: SuccessMessageResponse, 400: ErrorResponse } },
    },
    {
      method: 'get', path: '/auth/password/reset', handler: () => ({ raw: RESET_PAGE, contentType: 'text/html; charset=utf-8', headers: PAGE_HEADERS }),
      doc: { summary: 'The minimal reset page a link opens (when RESET_PAGE_URL is unset)', tags, description: 'Reads `token` from its address and posts to /auth/password/reset.', responses: { 200: 'text/html' }, content: { type: 'text/html' } },
    },
    {
      method: 'get', path: '/auth/password/reset.js', handler: () => ({ raw: RESET_SCRIPT, contentType: 'text/javascript; charset=utf-8' }),
      doc: { summary: 'The reset page\'s script', tags, responses: { 200: 'text/javascript' }, content: { type: 'text/javascript' } },
    },
    {
      method: 'post', path: '/auth/verify/resend', handler: (ctx) => resend(s, ctx), bodyLimit: 16 * 1024,
      doc: { summary: 'Ask for the verification mail again', tags, body: EmailBody, description: `202 with the same body whatever the address. An unverified account of that address gets a new link (24 hours; the earlier link stops working). ${mailLimits}`, responses: { 202: AcceptedResponse, 400: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse } },
    },
    {
      method: 'post', path: '/auth/password', handler: (ctx) => change(s, ctx), bodyLimit: 16 * 1024,
      doc: { summary: 'Change the password', tags, security: 'user', body: PasswordChangeBody, description: 'Authorization: Bearer <token from /auth/login>. A wrong current password → 403 `wrong_password` (counted as a failed login of the client: 5 in 15 minutes → 429); a new password against the registration rules → 400. Answers a new token: every earlier token of the user, this one included, is revoked.', responses: { 200: PasswordChangeResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse } },
    },
  ];
}
