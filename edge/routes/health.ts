// Probes and the API description. /healthz: the process and its database answer. /readyz: this
// replica wants traffic (503 from the first moment of shutdown, so endpoints drain first).
import { Type } from '@sinclair/typebox';
import { buildOpenApi } from '../../schemas/openapi.ts';
import { HttpError } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { reply } from '../context.ts';
import type { Route, Router } from '../router.ts';

const Probe = Type.Object({ status: Type.String() });

export function healthRoutes(s: Services, state: { ready: () => boolean }, router: Router): Route[] {
  let openapi: string | null = null;
  const tags = ['operations'];
  return [
    {
      method: 'get', path: '/healthz',
      handler: async () => {
        try {
          await s.db.one('SELECT 1 AS ok');
        } catch {
          throw new HttpError(503, '데이터베이스에 연결할 수 없습니다.');
        }
        return reply({ status: 'ok' });
      },
      doc: { summary: 'Liveness: 200 once the database answers', tags, responses: { 200: Probe, 503: 'database unreachable' } },
    },
    {
      method: 'get', path: '/readyz',
      handler: () => {
        if (!state.ready()) throw new HttpError(503, '서비스가 종료 중입니다.');
        return reply({ status: 'ready' });
      },
      doc: { summary: 'Readiness: 503 while starting or draining', tags, responses: { 200: Probe, 503: 'not ready' } },
    },
    {
      method: 'get', path: '/api/openapi.json', cacheControl: 'public, max-age=300',
      handler: () => {
        openapi ??= JSON.stringify(buildOpenApi(router.routes(), { version: '1.0.0', serverUrl: s.config.publicBaseUrl }));
        return { raw: openapi, contentType: 'application/json; charset=utf-8' };
      },
      doc: { summary: 'This document', tags, responses: { 200: 'OpenAPI 3.1 document' } },
    },
  ];
}
