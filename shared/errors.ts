// Errors are values with a status (STYLE.md): routes throw HttpError, one place turns it into
// {error, code}: `error` the Korean message for people, `code` a stable string for programs.

/** Every `code` an error body can carry (the Error schema's enum in the OpenAPI document). Only add. */
export const ERROR_CODES = [
  // by status, when the thrower names nothing more specific
  'invalid_request', 'unauthorized', 'forbidden', 'not_found', 'method_not_allowed', 'conflict', 'payload_too_large',
  'range_not_satisfiable', 'rate_limited', 'internal_error', 'upstream_failed', 'service_unavailable', 'upstream_timeout',
  'insufficient_storage',
  // specific
  'in_use', 'invalid_body', 'invalid_query', 'invalid_path', 'invalid_image', 'image_too_large', 'email_taken', 'name_taken',
  'already_scheduled', 'invalid_credentials', 'email_unverified', 'token_missing', 'token_invalid', 'locked_out',
  'database_unavailable', 'upload_busy', 'server_busy', 'shutting_down', 'invalid_client_address', 'mail_queue_full', 'control_character',
  // the live calendar (also the `code` of its WebSocket error messages)
  'not_acceptable', 'invalid_months', 'invalid_month', 'too_many_months', 'invalid_since', 'too_many_connections',
  'invalid_message', 'unknown_type', 'message_too_large', 'too_many_messages',
  // optimistic concurrency: If-Match named a version that is no longer current
  'precondition_failed',
  // accounts: lockouts, password reset and change, API tokens
  'not_locked', 'reset_token_unknown', 'reset_token_used', 'reset_token_expired', 'wrong_password', 'insufficient_scope',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 405: 'method_not_allowed', 409: 'conflict', 412: 'precondition_failed',
  413: 'payload_too_large', 416: 'range_not_satisfiable', 429: 'rate_limited', 500: 'internal_error', 502: 'upstream_failed',
  503: 'service_unavailable', 504: 'upstream_timeout', 507: 'insufficient_storage',
};
export const codeOfStatus = (status: number): ErrorCode => CODE_OF_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request');

export class HttpError extends Error {
  /** Machine-readable, stable; sent to the client as {code}. */
  readonly code: ErrorCode;

  constructor(
    readonly status: number,
    /** Korean, human-readable; sent to the client as {error}. */
    message: string,
    /** Extra headers to send with the error (Retry-After, Allow, ...). */
    readonly headers: Record<string, string> = {},
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? codeOfStatus(status);
  }
}

export const badRequest = (message: string, code: ErrorCode = 'invalid_request') => new HttpError(400, message, {}, code);
export const unauthorized = (message = '인증이 필요합니다.', code: ErrorCode = 'unauthorized') => new HttpError(401, message, {}, code);
export const forbidden = (message: string, code: ErrorCode = 'forbidden') => new HttpError(403, message, {}, code);
export const notFound = (message = '요청한 항목을 찾을 수 없습니다.') => new HttpError(404, message);
export const conflict = (message: string, code: ErrorCode = 'conflict') => new HttpError(409, message, {}, code);
export const payloadTooLarge = (message = '요청 본문이 너무 큽니다.') => new HttpError(413, message);
/** 503 because the database cannot be reached now (the edge counts these as one outage: edge/outage-log.ts). */
export class DatabaseUnavailableError extends HttpError {}

/** The database (or another part a request needs) cannot be reached now: the client may retry. */
export const serviceUnavailable = (retryAfterSeconds = 5) =>
  new DatabaseUnavailableError(503, '데이터베이스에 일시적으로 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.', { 'Retry-After': String(retryAfterSeconds) }, 'database_unavailable');

/** The disk under the data (uploads, the embedded database) is full: nothing was stored; the client may retry later. */
export const insufficientStorage = () =>
  new HttpError(507, '저장 공간이 부족해 요청을 저장하지 못했습니다. 잠시 후 다시 시도해 주세요.', { 'Retry-After': '60' });

/** A write refused because a disk is full: ENOSPC/EDQUOT from the file system, 53100 from PostgreSQL. */
export function diskFull(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === '53100';
}
