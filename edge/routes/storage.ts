// Files of the local storage (the embedded default), served at /storage/<bucket>/<key> with their
// content types; traversal and anything outside the bucket answer 404.
import { notFound } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { LocalStorage } from '../../shared/storage/local.ts';
import type { Context } from '../context.ts';
import type { Route } from '../router.ts';

export function storageRoutes(s: Services): Route[] {
  const storage = s.storage;
  if (!(storage instanceof LocalStorage)) return [];
  return [
    {
      method: 'get', path: '/storage/*path', cacheControl: 'public, max-age=86400',
      handler: async (ctx: Context) => {
        const file = await storage.serveLocalFile(ctx.params.path ?? '');
        if (!file) throw notFound('파일을 찾을 수 없습니다.');
        return { raw: file.bytes, contentType: file.contentType, etag: file.etag, headers: { 'X-Content-Type-Options': 'nosniff' } };
      },
      doc: { summary: 'A stored file (local storage only)', tags: ['storage'], responses: { 200: 'the file', 404: 'no such file' } },
    },
  ];
}
