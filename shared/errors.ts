// Errors are values with a status (STYLE.md): routes throw HttpError, one place turns it into {error}.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** Korean, human-readable; sent to the client as {error}. */
    message: string,
    /** Extra headers to send with the error (Retry-After, Allow, ...). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = '인증이 필요합니다.') => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message = '요청한 항목을 찾을 수 없습니다.') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const payloadTooLarge = (message = '요청 본문이 너무 큽니다.') => new HttpError(413, message);
/** 503 because the database cannot be reached now (the edge counts these as one outage: edge/outage-log.ts). */
export class DatabaseUnavailableError extends HttpError {}

/** The database (or another part a request needs) cannot be reached now: the client may retry. */
export const serviceUnavailable = (retryAfterSeconds = 5) =>
  new DatabaseUnavailableError(503, '데이터베이스에 일시적으로 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.', { 'Retry-After': String(retryAfterSeconds) });
