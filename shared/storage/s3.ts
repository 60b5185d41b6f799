// S3-compatible storage (MinIO, S3, R2...) through aws4fetch, with path-style URLs: <endpoint>/<bucket>/<key>.

import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { AwsClient } from 'aws4fetch';
import {
  assertValidKey,
  encodeKeyForUrl,
  isValidKey,
  StorageError,
  type OpenedFile,
  type S3StorageOptions,
  type Storage,
  type StoredFile,
} from './storage.ts';

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
// DeleteObjects takes at most 1000 keys a request.
const DELETE_BATCH_SIZE = 1000;
// aws4fetch retries 5xx and 429 with backoff; its default of 10 tries would hold a request for seconds.
const RETRIES = 2;

export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly bucket: string;
  readonly region: string;
  readonly #bucketUrl: string;
  readonly #client: AwsClient;
  readonly #timeoutMs: number;

  constructor(config: S3StorageOptions) {
    let endpoint: URL;
    try {
      endpoint = new URL(config.url);
    } catch {
      throw new Error('STORAGE_URL이 올바른 URL이 아닙니다');
    }
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') {
      throw new Error('STORAGE_URL은 http:// 또는 https:// 주소여야 합니다');
    }
    if (endpoint.username || endpoint.password) {
      throw new Error('STORAGE_URL에 자격 증명을 넣지 마세요 (STORAGE_ACCESS_KEY / STORAGE_SECRET_KEY 사용)');
    }
    this.bucket = config.bucket;
    this.region = config.region;
    this.#bucketUrl = `${endpoint.origin}${endpoint.pathname.replace(/\/+$/, '')}/${encodeURIComponent(config.bucket)}`;
    this.#timeoutMs = config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#client = new AwsClient({
      accessKeyId: config.accessKey,
      secretAccessKey: config.secretKey,
      region: config.region,
      service: 's3',
      retries: RETRIES,
    });
  }

  get baseUrl(): string {
    return this.#bucketUrl;
  }

  urlFor(key: string): string {
    assertValidKey(key);
    return `${this.#bucketUrl}/${encodeKeyForUrl(key)}`;
  }

  /** Creates the bucket unless it exists (HeadBucket, then CreateBucket). */
  async ensureBucket(): Promise<void> {
    const head = await this.#send('HeadBucket', this.#bucketUrl, { method: 'HEAD' });
    await head.body?.cancel();
    if (head.ok) return;
    if (head.status !== 404) throw new StorageError(describe('HeadBucket', head.status, null, this.bucket), head.status);
    // Outside us-east-1 S3 wants the region named in the request body.
    const body = this.region === 'us-east-1'
      ? undefined
      : `<CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LocationConstraint>${escapeXml(this.region)}</LocationConstraint></CreateBucketConfiguration>`;
    const created = await this.#send('CreateBucket', this.#bucketUrl, { method: 'PUT', body });
    if (created.ok) {
      await created.body?.cancel();
      return;
    }
    const code = await s3ErrorCode(created);
    if (created.status === 409) {
      // Created by another instance between our HEAD and PUT (servers answer BucketAlreadyOwnedByYou
      // or BucketAlreadyExists): fine if we can reach it now.
      const again = await this.#send('HeadBucket', this.#bucketUrl, { method: 'HEAD' });
      await again.body?.cancel();
      if (again.ok) return;
    }
    throw new StorageError(describe('CreateBucket', created.status, code, this.bucket), created.status);
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const url = this.urlFor(key);
    const response = await this.#send('PutObject', url, {
      method: 'PUT',
      headers: { 'Content-Type': contentType },
      body: bytes,
    });
    if (!response.ok) throw await failure('PutObject', response, `${this.bucket}/${key}`);
    await response.body?.cancel();
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) assertValidKey(key);
    const unique = [...new Set(keys)];
    for (let start = 0; start < unique.length; start += DELETE_BATCH_SIZE) {
      await this.#deleteBatch(unique.slice(start, start + DELETE_BATCH_SIZE));
    }
  }

  async read(key: string): Promise<StoredFile | null> {
    const response = await this.#send('GetObject', this.urlFor(key), { method: 'GET' });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) throw await failure('GetObject', response, `${this.bucket}/${key}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const lastModified = response.headers.get('last-modified');
    return {
      bytes,
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      etag: response.headers.get('etag') ?? '',
      size: bytes.length,
      ...(lastModified ? { lastModified: new Date(lastModified) } : {}),
    };
  }

  /** HeadObject now; the bytes with a ranged GetObject when streamed (If-Match: the same version). */
  async openFile(key: string): Promise<OpenedFile | null> {
    if (!isValidKey(key)) return null;
    const url = this.urlFor(key);
    const head = await this.#send('HeadObject', url, { method: 'HEAD' });
    await head.body?.cancel();
    if (head.status === 404 || head.status === 403) return null;
    if (!head.ok) throw new StorageError(describe('HeadObject', head.status, null, `${this.bucket}/${key}`), head.status);
    const size = Number(head.headers.get('content-length') ?? '0');
    const etag = head.headers.get('etag') ?? '';
    const lastModified = head.headers.get('last-modified');
    return {
      size,
      contentType: head.headers.get('content-type') ?? 'application/octet-stream',
      // S3 ETags are quoted hashes of the stored bytes: strong.
      etag: etag.startsWith('W/') ? etag.slice(2) : etag,
      ...(lastModified ? { lastModified: new Date(lastModified) } : {}),
      stream: async (start, end) => {
        const response = await this.#send('GetObject', url, {
          method: 'GET',
          headers: { Range: `bytes=${start}-${end}`, ...(etag ? { 'If-Match': etag } : {}) },
        }, false);
        if (!response.ok || !response.body) throw await failure('GetObject', response, `${this.bucket}/${key}`);
        // A server that ignores Range answers 200 with every byte: skip to the range here.
        const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
        return response.status === 206 ? body : body.pipe(sliceStream(start, end));
      },
      release: () => undefined,
    };
  }

  /** ListObjectsV2 under the prefix, a page of up to 1000 keys at a time. */
  async *list(prefix: string): AsyncIterable<{ key: string; modified: Date }> {
    let token: string | null = null;
    do {
      const query = new URLSearchParams({ 'list-type': '2', prefix, ...(token ? { 'continuation-token': token } : {}) });
      const response = await this.#send('ListObjectsV2', `${this.#bucketUrl}?${query}`, { method: 'GET' });
      if (!response.ok) throw await failure('ListObjectsV2', response, this.bucket);
      const text = await response.text();
      for (const match of text.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const part = match[1] ?? '';
        const key = unescapeXml(/<Key>([\s\S]*?)<\/Key>/.exec(part)?.[1] ?? '');
        const modified = new Date(/<LastModified>([^<]*)<\/LastModified>/.exec(part)?.[1] ?? 0);
        if (key) yield { key, modified };
      }
      token = /<IsTruncated>true<\/IsTruncated>/.test(text) ? unescapeXml(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(text)?.[1] ?? '') || null : null;
    } while (token);
  }

  async close(): Promise<void> {}

  async #deleteBatch(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const body = '<?xml version="1.0" encoding="UTF-8"?>'
      + '<Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet>'
      + keys.map((key) => `<Object><Key>${escapeXml(key)}</Key></Object>`).join('')
      + '</Delete>';
    const response = await this.#send('DeleteObjects', `${this.#bucketUrl}?delete`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/xml',
        // S3 refuses DeleteObjects without an integrity header.
        'Content-MD5': createHash('md5').update(body).digest('base64'),
      },
      body,
    });
    if (response.status === 501) {
      // Some S3-compatible servers lack DeleteObjects: fall back to one DeleteObject per key.
      await response.body?.cancel();
      for (const key of keys) await this.#deleteOne(key);
      return;
    }
    if (!response.ok) throw await failure('DeleteObjects', response, this.bucket);
    // A 200 answer still lists the keys it could not delete (missing keys are not listed).
    const text = await response.text();
    const errors = [...text.matchAll(/<Error>([\s\S]*?)<\/Error>/g)].map((match) => {
      const part = match[1] ?? '';
      return `${unescapeXml(/<Key>([\s\S]*?)<\/Key>/.exec(part)?.[1] ?? '?')}: ${/<Code>([\s\S]*?)<\/Code>/.exec(part)?.[1] ?? '?'}`;
    });
    if (errors.length > 0) {
      throw new StorageError(`S3 DeleteObjects 일부 실패 (${this.bucket}): ${errors.slice(0, 5).join(', ')}`, response.status);
    }
  }

  async #deleteOne(key: string): Promise<void> {
    const response = await this.#send('DeleteObject', this.urlFor(key), { method: 'DELETE' });
    await response.body?.cancel();
    if (!response.ok && response.status !== 404) {
      throw new StorageError(describe('DeleteObject', response.status, null, `${this.bucket}/${key}`), response.status);
    }
  }

  /** `timed: false` for a body read at the client's pace: only connecting is bounded then. */
  async #send(operation: string, url: string, init: RequestInit, timed = true): Promise<Response> {
    try {
      if (!timed) {
        const connect = new AbortController();
        const timer = setTimeout(() => connect.abort(), this.#timeoutMs);
        try {
          return await this.#client.fetch(url, { ...init, signal: connect.signal });
        } finally {
          clearTimeout(timer);
        }
      }
      return await this.#client.fetch(url, { ...init, signal: AbortSignal.timeout(this.#timeoutMs) });
    } catch (error) {
      // Network errors name the host and the errno, never the signed headers.
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new StorageError(`S3 ${operation} 요청 실패: ${reason} (${this.bucket})`, null, 'STORAGE_UNREACHABLE');
    }
  }
}

async function failure(operation: string, response: Response, target: string): Promise<StorageError> {
  const code = await s3ErrorCode(response);
  return new StorageError(describe(operation, response.status, code, target), response.status);
}

function describe(operation: string, status: number, code: string | null, target: string): string {
  return `S3 ${operation} 실패: HTTP ${status}${code ? ` ${code}` : ''} (${target})`;
}

// Only the error's <Code> is kept: some servers echo the access key id in other elements.
async function s3ErrorCode(response: Response): Promise<string | null> {
  const text = await response.text().catch(() => '');
  return /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(text)?.[1] ?? null;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function unescapeXml(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

/** Bytes `start` to `end` inclusive of a stream that carries the whole object. */
function sliceStream(start: number, end: number): Transform {
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const from = Math.max(start - offset, 0);
      const to = Math.min(end + 1 - offset, chunk.length);
      offset += chunk.length;
      done(null, from < to ? chunk.subarray(from, to) : undefined);
    },
  });
}
