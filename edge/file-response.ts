// Stored files as answers: ETag and If-None-Match, Last-Modified and If-Modified-Since, HEAD, one byte range (206/416), and the bytes
// streamed into uWebSockets.js at the pace the client reads them (tryEnd/onWritable), so a slow
// download holds one chunk in memory, never the file.
import type { Readable } from 'node:stream';
import type uWS from 'uWebSockets.js';
import type { OpenedFile } from '../shared/storage/storage.ts';

export type ByteRange = { start: number; end: number };

/**
 * One `Range: bytes=…` against a size (RFC 9110 14.1.2). Null when the header is absent, malformed
 * or asks for several ranges (then the whole file is sent); 'unsatisfiable' when no byte of the
 * range exists.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const last = match[2] === '' ? Infinity : Number(match[2]);
  if (last < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

export interface FilePlan {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  /** Bytes to send; null: headers only (HEAD, 304, 416, an empty file). */
  range: ByteRange | null;
  /** The Content-Length a HEAD or an empty body reports. */
  length: number;
}

/**
 * If-Modified-Since (RFC 9110 13.1.3): true when the file did not change after the given date (at
 * the one-second precision of HTTP dates). Ignored when If-None-Match is sent, or not a date.
 */
export function notModifiedSince(ifModifiedSince: string | undefined, lastModified: Date | undefined): boolean {
  if (!ifModifiedSince || !lastModified) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

export function planFile(file: OpenedFile, request: { head: boolean; ifNoneMatch?: string | undefined; ifModifiedSince?: string | undefined; range?: string | undefined }, cacheControl: string | undefined, matches: (ifNoneMatch: string | undefined, etag: string) => boolean): FilePlan {
  const headers: Record<string, string> = { ETag: file.etag, 'Accept-Ranges': 'bytes', 'Content-Type': file.contentType };
  if (cacheControl) headers['Cache-Control'] = cacheControl;
  if (file.lastModified) headers['Last-Modified'] = file.lastModified.toUTCString();
  const unchanged = request.ifNoneMatch !== undefined ? matches(request.ifNoneMatch, file.etag) : notModifiedSince(request.ifModifiedSince, file.lastModified);
  if (unchanged) {
    delete headers['Content-Type'];
    return { status: 304, headers, range: null, length: 0 };
  }
  const range = parseRange(request.range, file.size);
  if (range === 'unsatisfiable') {
    headers['Content-Range'] = `bytes */${file.size}`;
    return { status: 416, headers, range: null, length: 0 };
  }
  if (range) {
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${file.size}`;
    const length = range.end - range.start + 1;
    return { status: 206, headers, range: request.head ? null : range, length };
  }
  const whole = file.size > 0 && !request.head ? { start: 0, end: file.size - 1 } : null;
  return { status: 200, headers, range: whole, length: file.size };
}

const CHUNK = 64 * 1024;

/** Hands one chunk of a `total`-byte body to the socket, corked, the status and headers before the first: [ok, done] of tryEnd. */
function chunkWriter(res: uWS.HttpResponse, total: number, writeHead: () => void): (chunk: Buffer) => [boolean, boolean] {
  let headWritten = false;
  return (chunk) => {
    let result: [boolean, boolean] = [false, false];
    res.cork(() => {
      if (!headWritten) {
        headWritten = true;
        writeHead();
      }
      result = res.tryEnd(chunk, total);
    });
    return result;
  };
}

/**
 * Writes the range of a file that reads by position as the body, through one buffer reused for
 * every chunk: a chunk is read only after the socket took the previous one whole. Same contract
 * as pipeToResponse; the handle is released at the end.
 */
export function pumpToResponse(res: uWS.HttpResponse, file: OpenedFile & { readInto: NonNullable<OpenedFile['readInto']> }, range: ByteRange, writeHead: () => void, finished: (ok: boolean) => void): () => void {
  const total = range.end - range.start + 1;
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK, total));
  let position = range.start;
  let over = false;
  const writeChunk = chunkWriter(res, total, writeHead);
  const finish = (ok: boolean, close = false) => {
    if (over) return;
    over = true;
    file.release();
    // A file that ends early or fails mid-way cannot change the status any more: the connection closes.
    if (close) res.close();
    finished(ok);
  };
  const pump = async () => {
    while (!over) {
      let read: number;
      try {
        read = await file.readInto(buffer, position, Math.min(buffer.length, range.end + 1 - position));
      } catch {
        return finish(false, true);
      }
      if (over) return;
      if (read === 0) return finish(false, true);
      const chunk = buffer.subarray(0, read);
      const offset = res.getWriteOffset();
      const result = writeChunk(chunk);
      position += read;
      if (result[1]) return finish(true);
      if (!result[0]) {
        // The socket took part of the chunk: the rest goes when it drains, before the buffer is reused.
        await new Promise<void>((resolve) => {
          res.onWritable((writeOffset) => {
            if (over) {
              resolve();
              return true;
            }
            const [ok, done] = res.tryEnd(chunk.subarray(writeOffset - offset), total);
            if (done) finish(true);
            if (done || ok) resolve();
            return ok;
          });
        });
      }
    }
  };
  void pump();
  return () => finish(false);
}

/**
 * Writes `total` bytes of the stream as the body; `writeHead` writes the status and headers inside
 * the first cork. `finished(ok)` runs once: true when every byte was handed to the socket.
 * Returns what stops the transfer when the client goes away.
 */
export function pipeToResponse(res: uWS.HttpResponse, stream: Readable, total: number, writeHead: () => void, finished: (ok: boolean) => void): () => void {
  let over = false;
  const writeChunk = chunkWriter(res, total, writeHead);
  const finish = (ok: boolean) => {
    if (over) return;
    over = true;
    stream.destroy();
    finished(ok);
  };
  stream.on('data', (chunk: Buffer) => {
    if (over) return;
    const offset = res.getWriteOffset();
    const [ok, done] = writeChunk(chunk);
    if (done) finish(true);
    else if (!ok) {
      // The socket took part of the chunk: the rest goes when it drains, then reading resumes.
      stream.pause();
      res.onWritable((writeOffset) => {
        if (over) return true;
        const [retryOk, retryDone] = res.tryEnd(chunk.subarray(writeOffset - offset), total);
        if (retryDone) finish(true);
        else if (retryOk) stream.resume();
        return retryOk;
      });
    }
  });
  // A file that ends early or fails mid-way cannot change the status any more: the connection closes.
  const broken = () => {
    if (over) return;
    over = true;
    res.close();
    finished(false);
  };
  stream.on('error', broken);
  stream.on('end', broken);
  return () => finish(false);
}
