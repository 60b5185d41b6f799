/** A failed request: the server's `{error, code}` with the HTTP status and its Retry-After. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no answer arrived (network failure). */
  readonly status: number;
  /**
   * Stable, machine-readable reason (`not_found`, `name_taken`, `rate_limited`, …; see the Error
   * schema). New codes may appear: decide by `status` when the code is unknown.
   */
  readonly code: string;
  /** Seconds the server asked to wait (Retry-After), when it said. */
  readonly retryAfter: number | undefined;
  /** The parsed error body as sent. */
  readonly body: unknown;

  constructor(status: number, code: string, message: string, options: { retryAfter?: number | undefined; body?: unknown; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code = code;
    this.retryAfter = options.retryAfter;
    this.body = options.body;
  }
}

/** Retry-After in seconds (delta-seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The ApiError of a non-2xx response. */
export async function errorOf(response: Response): Promise<ApiError> {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (a proxy's page): keep the text
  }
  const fields = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; code?: unknown };
  const code = typeof fields.code === 'string' ? fields.code : `http_${response.status}`;
  const message = typeof fields.error === 'string' ? fields.error : `HTTP ${response.status}`;
  return new ApiError(response.status, code, message, { retryAfter, body });
}
