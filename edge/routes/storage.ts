// Stored files, served at /storage/<bucket>/<key> with their content types, streamed (ETag,
// If-None-Match, HEAD, one Range); traversal and anything outside the bucket answer 404. Local
// storage is served from DATA_DIR; an S3 bucket is read through with ranged GETs.
import { notFound } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { keyOfStoragePath } from '../../shared/storage/local.ts';
import type { Context } from '../context.ts';
import type { Route } from '../router.ts';

export function storageRoutes(s: Services): Route[] {
  const storage = s.storage;
  return [
    {
      method: 'get', path: '/storage/*path', cacheControl: 'public, max-age=86400', files: true,
      handler: async (ctx: Context) => {
        const key = keyOfStoragePath(ctx.params.path ?? '', storage.bucket);
        const file = key === null ? null : await storage.openFile(key);
        if (!file) throw notFound('파일을 찾을 수 없습니다.');
        return { file, headers: { 'X-Content-Type-Options': 'nosniff' } };
      },
      doc: {
        summary: 'A stored file',
        description: 'Streamed with Content-Length, a strong ETag (If-None-Match, compared weakly → 304), Last-Modified (If-Modified-Since → 304 when If-None-Match is absent), Accept-Ranges: bytes and one Range (206 with Content-Range; 416 when no byte of it exists). HEAD answers the headers only.',
        tags: ['storage'],
        content: { type: '*/*' },
        responses: { 200: 'the file', 206: 'the requested range', 304: 'not modified', 404: 'no such file', 416: 'range not satisfiable' },
      },
    },
  ];
}
