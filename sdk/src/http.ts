// One request path for every call: the token, JSON or multipart bodies, `{error, code}` turned into
// ApiError, and retries of 429/503 (after Retry-After, with jitter) for requests safe to repeat.
import { jittered, sleep } from './backoff.js';
import { ApiError, errorOf } from './errors.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface RetryOptions {
  /** Further attempts after the first (default 3). */
  attempts?: number;
  /** First backoff step in ms when the server names no Retry-After (default 500). */
  baseDelayMs?: number;
  /** Longest single wait in ms; a Retry-After past it is not waited for (default 30 000). */
  maxDelayMs?: number;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  /** A JSON body. */
  json?: unknown;
  /** A multipart body (FormData can be sent again, so a retried PUT resends it whole). */
  form?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The browser cache mode; `no-cache` revalidates (a refetch after a live change must not read a cached copy). */
  cache?: 'default' | 'no-store' | 'reload' | 'no-cache' | 'force-cache';
  /** Retry 429/503 and network failures; by default GET, HEAD, PUT and DELETE are. */
  idempotent?: boolean;
}

export interface Transport {
  baseUrl: string;
  token: string | undefined;
  fetch: FetchLike;
  retry: Required<RetryOptions>;
}

const RETRIED_STATUSES = new Set([429, 503]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export function urlOf(baseUrl: string, path: string, query?: Query): string {
  const url = new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
  return url.href;
}

/** Sends one request (retrying where safe) and returns the parsed JSON, or throws ApiError. */
export async function request<T>(transport: Transport, method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (transport.token) headers.authorization = `Bearer ${transport.token}`;
  let body: FormData | string | undefined;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  const idempotent = options.idempotent ?? IDEMPOTENT_METHODS.has(method.toUpperCase());
  const url = urlOf(transport.baseUrl, path, options.query);
  const { attempts, baseDelayMs, maxDelayMs } = transport.retry;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      const init = { method, headers, ...(body === undefined ? {} : { body }), ...(options.signal ? { signal: options.signal } : {}), ...(options.cache ? { cache: options.cache } : {}) };
      response = await transport.fetch(url, init as RequestInit);
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      if (!idempotent || attempt >= attempts) throw new ApiError(0, 'network_error', `요청을 보내지 못했습니다: ${String((cause as Error)?.message ?? cause)}`, { cause });
      await sleep(jittered(attempt, baseDelayMs, maxDelayMs), options.signal);
      continue;
    }
    if (response.ok) return (await parse(response)) as T;
    const error = await errorOf(response);
    const waitMs = error.retryAfter !== undefined ? error.retryAfter * 1000 : undefined;
    const retry = idempotent && RETRIED_STATUSES.has(response.status) && attempt < attempts && (waitMs ?? 0) <= maxDelayMs;
    if (!retry) throw error;
    // Retry-After is the floor; the jitter on top keeps a crowd told the same number apart.
    await sleep(Math.min(maxDelayMs, (waitMs ?? 0) + jittered(attempt, baseDelayMs, maxDelayMs)), options.signal);
  }
}

async function parse(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 304) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (/\bjson\b/i.test(type)) return response.json();
  if (/^text\//i.test(type)) return response.text();
  return response.blob();
}
