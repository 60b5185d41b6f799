// How much request body the edge reads and holds: the default limit of a route, what happens to
// the unread rest of a body when the answer comes first, and the budget of upload bytes held at
// once across requests (UploadBudget).
import type { BodyReader } from './context.ts';

/** The body limit of a route that sets none (Route.bodyLimit). */
export const DEFAULT_BODY_LIMIT = 256 * 1024;

/**
 * An answer decided before the whole body arrived (401 on an upload, 413, 404). Within the route's
 * limit the rest is read and dropped by uWS after the answer and the connection stays open
 * ('drain'); a body declared larger than the limit, or of unknown length, is not read further
 * ('linger'). Null when the body was read to its end or there is none.
 */
export function earlyAnswer(reader: BodyReader | null, contentLength: string | undefined): 'drain' | 'linger' | null {
  if (!reader || reader.complete) return null;
  reader.discard();
  const declared = contentLength === undefined ? NaN : Number(contentLength);
  return Number.isSafeInteger(declared) && declared <= reader.limit ? 'drain' : 'linger';
}

/** Seconds a client turned away by the upload budget is told to wait (Retry-After). */
export const UPLOAD_RETRY_AFTER_S = 2;

/**
 * Bytes of upload bodies held at once. A multipart upload is read whole before its images go to
 * the pool, and stays in memory until its handler is done: four maximal event uploads at once (five
 * 20 MB posters each) took the edge process to 856 MB, past its 768 Mi limit in k8s/. Each request
 * allowed a body larger than the default holds its declared length (its limit when chunked) from
 * before its handler runs until the handler settles. One upload is always admitted, however large.
 */
export class UploadBudget {
  private held = 0;

  constructor(readonly bytes: number) {}

  take(bytes: number): boolean {
    if (this.held > 0 && this.held + bytes > this.bytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}
