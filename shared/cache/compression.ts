// Compressed variants of cacheable JSON answers, made once per content and never per request.
// Content-addressed by the identity ETag: the same bytes give the same variants, so any cacheable
// route gets them without its own invalidation (a changed answer has a new ETag). zlib's async
// functions run on libuv's thread pool, off the event loop.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

export interface EncodedBody {
  body: Uint8Array;
  /** Strong ETag of this representation: the identity ETag with the encoding inside the quotes. */
  etag: string;
}

export type Variants = Partial<Record<Encoding, EncodedBody>>;

/** Answers smaller than this stay plain: headers would eat what compression saves. */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The identity ETag of a body: strong, content-addressed, the same on every replica. */
export const strongEtag = (body: string | Uint8Array) => `"${createHash('sha1').update(body).digest('base64url')}"`;

export const variantEtag = (etag: string, encoding: Encoding) => `${etag.slice(0, -1)}-${encoding}"`;

const brotliOptions = (byteLength: number) => ({
  params: {
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    // Quality 11 costs a few ms on a calendar month, once per fill; large documents use 9.
    [constants.BROTLI_PARAM_QUALITY]: byteLength <= 64 * 1024 ? 11 : 9,
    [constants.BROTLI_PARAM_SIZE_HINT]: byteLength,
  },
});
const GZIP_OPTIONS = { level: 9 };

function keepSmaller(body: Uint8Array, etag: string, br: Uint8Array, gz: Uint8Array): Variants {
  const variants: Variants = {};
  if (br.byteLength < body.byteLength) variants.br = { body: br, etag: variantEtag(etag, 'br') };
  if (gz.byteLength < body.byteLength) variants.gzip = { body: gz, etag: variantEtag(etag, 'gzip') };
  return variants;
}

/** br and gzip of a body, each kept only when it is smaller than the body. */
export async function compressVariants(body: Uint8Array, etag: string): Promise<Variants> {
  if (body.byteLength < COMPRESS_MIN_BYTES) return {};
  const [br, gz] = await Promise.all([brotli(body, brotliOptions(body.byteLength)), gzipAsync(body, GZIP_OPTIONS)]);
  return keepSmaller(body, etag, br, gz);
}

/** The same, on the calling thread: for worker threads, which have no event loop to keep free. */
export function compressVariantsSync(body: Uint8Array, etag: string): Variants {
  if (body.byteLength < COMPRESS_MIN_BYTES) return {};
  return keepSmaller(body, etag, brotliCompressSync(body, brotliOptions(body.byteLength)), gzipSync(body, GZIP_OPTIONS));
}

const preferences = new Map<string, Encoding | null>();

/**
 * The encoding to answer with for an Accept-Encoding value: br, then gzip, each unless refused
 * with q=0 (RFC 9110 12.5.3; `*` covers both). Clients send few distinct values: memoised.
 */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const known = preferences.get(acceptEncoding);
  if (known !== undefined) return known;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((item) => item.trim());
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^q=([0-9.]+)$/.exec(param);
      if (match) q = Number(match[1]);
    }
    if (!Number.isNaN(q)) weights.set(name, q);
  }
  const weight = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0;
  let chosen: Encoding | null = null;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) chosen = 'br';
  else if (weight('gzip') > 0) chosen = 'gzip';
  if (preferences.size >= 256) preferences.clear();
  preferences.set(acceptEncoding, chosen);
  return chosen;
}

/** Variants by identity ETag, bounded; a fill in progress is shared by concurrent requests. */
export class VariantCache {
  private readonly entries = new Map<string, Variants | Promise<Variants>>();

  constructor(private readonly maxEntries = 1024) {}

  get(body: Uint8Array, etag: string): Variants | Promise<Variants> {
    const known = this.entries.get(etag);
    if (known !== undefined) return known;
    const filling = compressVariants(body, etag).then(
      (variants) => {
        if (this.entries.get(etag) === filling) this.entries.set(etag, variants);
        return variants;
      },
      (error: unknown) => {
        this.entries.delete(etag);
        throw error;
      },
    );
    // Oldest first out: Map keeps insertion order.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(etag, filling);
    return filling;
  }
}
