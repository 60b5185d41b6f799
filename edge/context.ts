// What a route handler sees of a request, captured synchronously from uWebSockets.js (its request
// object dies when the callback returns), and what it returns.
import { PassThrough, type Readable } from 'node:stream';
import { badRequest, payloadTooLarge } from '../shared/errors.ts';
import type { OpenedFile } from '../shared/storage/storage.ts';
import type { Variants } from '../shared/cache/compression.ts';
import { parseIfMatch, type Precondition } from '../shared/precondition.ts';
import { requestIdText, type RequestId } from './request-id.ts';

/** Request headers the edge reads; uWS only allows reading them inside the callback. */
export const CAPTURED_HEADERS = ['authorization', 'x-forwarded-for', 'x-real-ip', 'if-none-match', 'if-match', 'x-request-id', 'range', 'accept-encoding'] as const;
/** All a cacheable route reads (and `range` when it serves files): its answer is every client's. */
export const CACHEABLE_HEADERS = ['if-none-match', 'x-request-id', 'accept-encoding'] as const satisfies readonly (typeof CAPTURED_HEADERS)[number][];
/** Read too when the method carries a body. */
export const BODY_HEADERS = ['content-type', 'content-length'] as const;
/** Read only by routes that serve stored files (with `range`): they have a modification time. */
export const FILE_HEADERS = ['range', 'if-modified-since'] as const;
export type HeaderName = (typeof CAPTURED_HEADERS)[number] | (typeof BODY_HEADERS)[number] | (typeof FILE_HEADERS)[number];

export interface Reply {
  status?: number;
  /** Serialised with JSON.stringify unless `raw` is given. */
  json?: unknown;
  raw?: string | Uint8Array;
  /** A stored file, streamed by the edge (ETag, If-None-Match, HEAD, Range). */
  file?: OpenedFile;
  contentType?: string;
  /** Precomputed strong ETag for `raw` (the monthly cache keeps one per entry). */
  etag?: string;
  /** The version of the resource answered (shared/precondition.ts): its ETag starts with it. */
  version?: number;
  /** Compressed variants of `raw`, made when a cache entry was filled (compression.ts). */
  variants?: Variants;
  headers?: Record<string, string>;
}

export const reply = (json: unknown, status = 200): Reply => ({ status, json });

/**
 * JSON from a client: 400 when malformed, and when a string holds a NUL character (PostgreSQL text
 * cannot store it, and no field of this API needs one).
 */
export function parseJson(text: string, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(`${what}이(가) 올바른 JSON이 아닙니다.`, 'invalid_body');
  }
  if (text.includes('\\u0000') || text.includes('\u0000')) throw badRequest(`${what}에 NUL 문자(\\u0000)가 있습니다.`, 'invalid_body');
  return value;
}

/**
 * Collects the body as uWS delivers it: into memory up to a limit, or into a stream once a
 * handler asks for one (multipart). Each chunk is copied: uWS reuses the ArrayBuffer.
 */
export class BodyReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private finished = false;
  private failure: Error | null = null;
  private waiters: Array<() => void> = [];
  private stream: PassThrough | null = null;
  private discarding = false;

  constructor(readonly limit: number) {}

  push(chunk: ArrayBuffer, isLast: boolean): void {
    if (this.failure || this.discarding) return;
    this.size += chunk.byteLength;
    if (this.size > this.limit) {
      this.fail(payloadTooLarge());
      return;
    }
    const copy = Buffer.from(chunk.slice(0));
    if (this.stream) this.stream.write(copy);
    else this.chunks.push(copy);
    if (isLast) {
      this.finished = true;
      this.stream?.end();
      this.wake();
    }
  }

  /** The request was answered before its body ended: what still arrives is dropped. */
  discard(): void {
    this.discarding = true;
    this.chunks = [];
  }

  fail(error: Error): void {
    if (this.failure || this.finished) return;
    this.failure = error;
    this.chunks = [];
    this.stream?.destroy(error);
    this.wake();
  }

  /** Every byte of the body has arrived (and none was refused). */
  get complete(): boolean {
    return this.finished && this.failure === null;
  }

  get failed(): Error | null {
    return this.failure;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((wake) => wake());
  }

  async buffer(): Promise<Buffer> {
    while (!this.finished && !this.failure) await new Promise<void>((resolve) => this.waiters.push(resolve));
    if (this.failure) throw this.failure;
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
  }

  /** The body as a stream; chunks received before the call come first. */
  readable(): Readable {
    if (this.stream) return this.stream;
    const stream = new PassThrough();
    this.stream = stream;
    for (const chunk of this.chunks) stream.write(chunk);
    this.chunks = [];
    if (this.failure) stream.destroy(this.failure);
    else if (this.finished) stream.end();
    return stream;
  }
}

export class Context {
  params: Record<string, string> = {};
  aborted = false;
  /** The matched route's path pattern, for logs and metrics. */
  routePath = '';
  /** Filled by the administrator authentication step. */
  admin: { id: number; username: string; tokenVersion: number } | null = null;
  /** Called when the client goes away (a file being streamed stops). */
  onAbort: (() => void) | null = null;
  private parsedQuery: URLSearchParams | null = null;

  constructor(
    readonly method: string,
    readonly path: string,
    private readonly rawQuery: string,
    readonly headers: Partial<Record<HeaderName, string>>,
    private readonly clientIp: () => string,
    /** Read as `requestId` (text) or written as `requestIdValue` (bytes). */
    readonly id: RequestId,
    readonly bodyReader: BodyReader | null,
  ) {}

  /** The request id as text (request-id.ts): for logs. */
  get requestId(): string {
    return requestIdText(this.id);
  }

  /** The client's address (auth-service.md 4.3). */
  get ip(): string {
    return this.clientIp();
  }

  header(name: HeaderName): string | undefined {
    return this.headers[name];
  }

  /** If-Match, read as the versions a write may apply to; null when the client sent none. */
  get precondition(): Precondition | null {
    return parseIfMatch(this.headers['if-match']);
  }

  /** The query string as sent, without `?` (a cache key). */
  get queryString(): string {
    return this.rawQuery;
  }

  get query(): URLSearchParams {
    this.parsedQuery ??= new URLSearchParams(this.rawQuery);
    return this.parsedQuery;
  }

  async body(): Promise<Buffer> {
    if (!this.bodyReader) return Buffer.alloc(0);
    return this.bodyReader.buffer();
  }

  /** The JSON body; undefined when empty; 400 when malformed or not JSON. */
  async json(): Promise<unknown> {
    const bytes = await this.body();
    if (bytes.length === 0) return undefined;
    // Parsed whatever the Content-Type says: clients that send JSON as text/plain still work.
    return parseJson(bytes.toString('utf8'), '요청 본문');
  }

  stream(): Readable {
    if (!this.bodyReader) return new PassThrough().end();
    return this.bodyReader.readable();
  }
}
