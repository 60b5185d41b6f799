// The account service, /auth (auth-service.md): rules implemented in the order the spec gives them.
import { ErrorResponse, SuccessMessageResponse, SuccessResponse } from '../../schemas/common.ts';
import { LoginBody, LoginResponse, MAX_PASSWORD_BYTES, MeResponse, RefreshResponse, RegisterBody } from '../../schemas/auth.ts';
import { compile } from '../../schemas/validate.ts';
import { takeRegistration } from '../../shared/db/repositories/registrations.ts';
import {
  deleteUserAndLinks,
  findUserById,
  findUserByVerifyToken,
  markVerified,
  toPublicUser,
  userByEmail,
  type UserRow,
} from '../../shared/db/repositories/users.ts';
import { badRequest, conflict, forbidden, HttpError, unauthorized } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { bearerToken } from '../bearer.ts';
import { clientKey } from '../client-key.ts';
import { reply, type Context } from '../context.ts';
import type { Route } from '../router.ts';
import { checkPassword, readLoginBody } from '../login-lockout.ts';
import { refuseWhenMailQueueFull, registerAccount } from '../../shared/accounts/registration.ts';
import { canonicalEmail, EmailAddressError, lookupEmail } from '../../shared/accounts/email-address.ts';

const REFRESH_WINDOW_S = 7 * 24 * 3600;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const registerBody = compile(RegisterBody);
const loginBody = compile(LoginBody);
/** An answer that carries a token is kept by no cache (RFC 9111 §5.2.2.5). */
export const NO_STORE: Readonly<Record<string, string>> = Object.freeze({ 'Cache-Control': 'no-store' });

const isBlank = (value: unknown) => value === undefined || value === null || value === '';
const asRecord = (body: unknown): Record<string, unknown> => {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  if (body === undefined) return {};
  throw badRequest('요청 본문은 JSON 객체여야 합니다.', 'invalid_body');
};
const nfc = (value: unknown) => (typeof value === 'string' ? value.normalize('NFC') : value);

/** The address as stored (shared/accounts/email-address.ts), or 400. */
function storedEmail(address: string): string {
  try {
    return canonicalEmail(address);
  } catch (error) {
    if (!(error instanceof EmailAddressError)) throw error;
    throw badRequest(error.problem === 'invisible'
      ? '이메일 주소에 보이지 않는 문자(폭 없는 공백 등)를 쓸 수 없습니다.'
      : '이메일 주소의 도메인이 올바르지 않습니다.');
  }
}

async function register(s: Services, ctx: Context) {
  const body = asRecord(await ctx.json());
  // R0: either field missing or empty.
  if (isBlank(body.email) || isBlank(body.password)) throw badRequest('이메일과 비밀번호를 모두 입력해 주세요.', 'invalid_body');
  // NFC before the checks and uniqueness: 'é' typed as one or two code points is one address.
  const input = { ...body, email: nfc(body.email), password: nfc(body.password) };
  // R1 (e-mail pattern) and R2 (8 characters) are the schema's pattern and minLength, checked in that order.
  const { email: written, password } = registerBody.parse(input);
  const email = storedEmail(written);
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) throw badRequest(`비밀번호는 UTF-8 기준 ${MAX_PASSWORD_BYTES}바이트 이하여야 합니다.`, 'invalid_body');
  // A full mail queue (the mail server is likely down): 503 before anything is written.
  await refuseWhenMailQueueFull(s);
  // Per client address at most REGISTER_LIMIT_PER_HOUR well-formed registrations (docs/security.md).
  const retryAfterMs = await takeRegistration(s.db, clientKey(ctx.ip), new Date(s.clock.now()), s.config.registerLimitPerHour);
  if (retryAfterMs > 0) {
    throw new HttpError(429, `이 주소에서 가입 요청이 너무 많습니다. ${Math.ceil(retryAfterMs / 60_000)}분 후에 다시 시도해 주세요.`, { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) }, 'rate_limited');
  }
  if (!(await registerAccount(s, { email, password, ip: ctx.ip }))) throw conflict('이미 가입된 이메일입니다.', 'email_taken'); // R3
  return reply({ success: true, message: '가입이 완료되었습니다. 이메일로 받은 링크를 열어 인증을 마쳐 주세요.' });
}

async function verify(s: Services, ctx: Context) {
  const token = ctx.params.token!;
  const invalid = () => badRequest('유효하지 않은 인증 링크입니다.');
  if (!UUID_PATTERN.test(token)) throw invalid();
  const user = await findUserByVerifyToken(s.db, token.toLowerCase());
  if (!user) throw invalid(); // rule 1
  if (user.email_verified) return reply({ success: true, message: '이미 인증된 계정입니다.' }); // rule 2
  if (user.verify_expires && user.verify_expires.getTime() < s.clock.now()) {
    throw badRequest('인증 링크가 만료되었습니다. 다시 가입해 주세요.'); // rule 3
  }
  // HEAD answers as GET would but changes nothing: mail scanners probe links with HEAD.
  if (ctx.method === 'head') return reply({ success: true, message: '이메일 인증이 완료되었습니다. 이제 로그인할 수 있습니다.' });
  if (!(await markVerified(s.db, user.id, token.toLowerCase()))) throw invalid();
  s.logger.info({ userId: user.id }, 'e-mail verified');
  return reply({ success: true, message: '이메일 인증이 완료되었습니다. 이제 로그인할 수 있습니다.' }); // rule 4
}

async function login(s: Services, ctx: Context) {
  // Step 1 (a locked IP gets 429 before anything else) is kept by readLoginBody and checkPassword.
  const { email: written, password } = await readLoginBody(s, 'user', ctx.ip, async () => {
    const body = asRecord(await ctx.json());
    // Step 2: either field missing.
    if (isBlank(body.email) || isBlank(body.password)) throw badRequest('이메일과 비밀번호를 모두 입력해 주세요.', 'invalid_body');
    return loginBody.parse({ ...body, email: nfc(body.email), password: nfc(body.password) });
  });
  const email = lookupEmail(written);
  // Steps 3 and 4: one failure slot of the address is taken before the comparison (atomic lockout).
  const check = await checkPassword<UserRow>(s, 'user', ctx.ip, userByEmail(email), (user) => user.password, password);
  if (!check.matched) throw unauthorized('이메일 또는 비밀번호가 올바르지 않습니다.', 'invalid_credentials');
  const user = check.account;
  if (!user.email_verified) {
    await check.release(); // step 5: not a counted failure
    throw forbidden('이메일 인증이 완료되지 않았습니다. 받은 편지함의 인증 링크를 확인해 주세요.', 'email_unverified');
  }
  await check.succeed(); // step 6
  const token = s.tokens.signUser({ id: user.id, email: user.email, isAdmin: user.is_admin, version: user.token_version });
  return { json: { success: true, token, user: toPublicUser(user) }, headers: NO_STORE };
}

/** The user a token names, when it is valid and not revoked (a password reset or change raises token_version). */
export async function tokenUser(s: Services, token: string | null): Promise<UserRow | null> {
  const claims = token ? s.tokens.verifyUser(token) : null;
  const user = claims ? await findUserById(s.db, claims.id) : null;
  return user && user.token_version === claims!.version ? user : null;
}

async function me(s: Services, ctx: Context) {
  const user = await tokenUser(s, bearerToken(ctx));
  if (!user) return reply({ loggedIn: false });
  return reply({ loggedIn: true, user: toPublicUser(user) });
}

async function refresh(s: Services, ctx: Context) {
  const token = bearerToken(ctx);
  if (!token) throw unauthorized('Bearer 토큰이 필요합니다.', 'token_missing');
  const claims = s.tokens.verifyUser(token);
  if (!claims) throw unauthorized('유효하지 않거나 만료된 토큰입니다.', 'token_invalid');
  const user = await findUserById(s.db, claims.id);
  if (!user) throw unauthorized('존재하지 않는 사용자입니다.', 'token_invalid');
  if (user.token_version !== claims.version) throw unauthorized('비밀번호가 바뀌어 더 이상 쓸 수 없는 토큰입니다. 다시 로그인해 주세요.', 'token_invalid');
  if (s.tokens.secondsLeft(claims) >= REFRESH_WINDOW_S) return { json: { refreshed: false }, headers: NO_STORE };
  return { json: { refreshed: true, token: s.tokens.signUser({ id: claims.id, email: claims.email, isAdmin: claims.isAdmin, version: user.token_version }) }, headers: NO_STORE };
}

async function remove(s: Services, ctx: Context) {
  const token = bearerToken(ctx);
  if (!token) throw unauthorized('Bearer 토큰이 필요합니다.', 'token_missing');
  const claims = s.tokens.verifyUser(token);
  // 4.7: an invalid or expired token, or any other failure, is 500 (not 401).
  if (!claims) throw new HttpError(500, '계정을 삭제하지 못했습니다: 토큰이 유효하지 않습니다.', {}, 'token_invalid');
  const user = await findUserById(s.db, claims.id);
  if (user && user.token_version !== claims.version) throw new HttpError(500, '계정을 삭제하지 못했습니다: 비밀번호가 바뀌어 더 이상 쓸 수 없는 토큰입니다.', {}, 'token_invalid');
  if (!(await deleteUserAndLinks(s.db, claims.id))) throw new HttpError(500, '계정을 삭제하지 못했습니다: 사용자가 존재하지 않습니다.');
  s.logger.info({ userId: claims.id }, 'user deleted');
  return reply({ success: true, message: '계정이 삭제되었습니다.' });
}

export function accountRoutes(s: Services): Route[] {
  const tags = ['account'];
  const bearer = 'Authorization: Bearer <token from /auth/login>';
  return [
    {
      method: 'post', path: '/auth/register', handler: (ctx) => register(s, ctx), bodyLimit: 16 * 1024,
      doc: { summary: 'Register an account', tags, body: RegisterBody, description: 'R0 missing/empty → 400, R1 e-mail pattern → 400 (a bare mailbox only: no , < > ( ) : ; " [ ] \\, whitespace or control characters; NFC-normalised); an invisible format character (zero-width space, joiner, BOM, soft hyphen) → 400; the domain is stored in its ASCII form by the IDNA/UTS #46 mapping (`a@ＥＸＡＭＰＬＥ.org` is `a@example.org`, as the mail is delivered), no such form → 400; R2 password under 8 characters → 400, password over 72 UTF-8 bytes → 400, more than REGISTER_LIMIT_PER_HOUR (default 20) registrations from the client address (an IPv6 client: its /64) in an hour → 429 with Retry-After, R3 e-mail registered → 409 (an unverified account whose link expired is replaced); MAIL_QUEUE_MAX mails already waiting to be sent → 503 with Retry-After, nothing stored. Sends the verification e-mail.', responses: { 200: SuccessMessageResponse, 400: ErrorResponse, 409: ErrorResponse, 413: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse } },
    },
    {
      method: 'get', path: '/auth/verify/:token', handler: (ctx) => verify(s, ctx),
      doc: { summary: 'Verify an e-mail address', tags, description: 'HEAD answers with the status GET would give but verifies nothing (link scanners probe with HEAD).', responses: { 200: SuccessMessageResponse, 400: ErrorResponse } },
    },
    {
      method: 'post', path: '/auth/login', handler: (ctx) => login(s, ctx), bodyLimit: 16 * 1024,
      doc: { summary: 'Log in', tags, body: LoginBody, description: 'Locked client address (5 failures, 15 minutes; the address as the API description says) → 429 naming the minutes left; missing field → 400; unknown e-mail, wrong password or a password over 72 bytes → 401 (one message, failure counted; parallel attempts never evaluate more than 5); unverified → 403. Repeated failures on one account add a wait of up to 8 s before its next comparison, never a refusal.', responses: { 200: LoginResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse } },
    },
    {
      method: 'get', path: '/auth/me', handler: (ctx) => me(s, ctx),
      doc: { summary: 'Who the token belongs to (always 200)', tags, security: 'user-optional', description: bearer, responses: { 200: MeResponse } },
    },
    {
      method: 'post', path: '/auth/refresh', handler: (ctx) => refresh(s, ctx),
      doc: { summary: 'Renew a token in its last 7 days', tags, security: 'user', description: `${bearer}. 401 when missing, invalid, expired, or the user no longer exists.`, responses: { 200: RefreshResponse, 401: ErrorResponse } },
    },
    {
      method: 'post', path: '/auth/logout', handler: () => reply({ success: true }),
      doc: { summary: 'Log out (the client discards its token)', tags, responses: { 200: SuccessResponse } },
    },
    {
      method: 'delete', path: '/auth/delete', handler: (ctx) => remove(s, ctx),
      doc: { summary: 'Delete the account and its game links', tags, security: 'user', description: `${bearer}. Missing header → 401; invalid or expired token → 500 (as specified).`, responses: { 200: SuccessMessageResponse, 401: ErrorResponse, 500: ErrorResponse } },
    },
  ];
}
