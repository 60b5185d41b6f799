// Probes and the API description, with Kubernetes semantics. /healthz (liveness): the process is
// alive and its event loop turns; it never asks the database, so an outage does not restart every
// pod. /readyz (readiness): this replica wants traffic: not draining (503 from the first moment of
// shutdown, so endpoints drain first) and every readiness check passes (the database answers in
// time; the bus for roles that consume it).
import { Type } from '@sinclair/typebox';
import { buildOpenApi } from '../../schemas/openapi.ts';
import { HttpError } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { reply } from '../context.ts';
import type { Route, Router } from '../router.ts';

const Probe = Type.Object({ status: Type.String() });

export function healthRoutes(s: Services, state: { ready: () => boolean; alive?: () => boolean }, router: Router): Route[] {
  // Answering at all proves the event loop turns; a stalled loop times the probe out.
  let openapi: string | null = null;
  const tags = ['operations'];
  return [
    {
      method: 'get', path: '/healthz',
      handler: () => {
        if (state.alive && !state.alive()) throw new HttpError(503, '내장 데이터베이스를 다시 시작할 수 없습니다.');
        return reply({ status: 'ok' });
      },
      doc: { summary: 'Liveness: 200 while the process runs and its event loop turns (the database is not asked); 503 once the embedded PostgreSQL could not be started again (the process then exits non-zero)', tags, responses: { 200: Probe, 503: 'the embedded database is given up' } },
    },
    {
      method: 'get', path: '/readyz',
      handler: async () => {
        if (!state.ready()) throw new HttpError(503, '서비스가 종료 중입니다.', { 'Retry-After': '5' }, 'shutting_down');
        const { ready, failing } = await s.readiness.check();
        if (!ready) throw new HttpError(503, `서비스를 사용할 수 없습니다 (${failing.join(', ')}).`, { 'Retry-After': '5' });
        return reply({ status: 'ready' });
      },
      doc: {
        summary: 'Readiness: 503 while starting or draining, while a readiness check fails (the database does not answer within 1.5 s), and while a bus consumer or the outbox relay of this process does not work (not for an edge-only process)',
        tags,
        responses: { 200: Probe, 503: 'not ready; {error} names the failing checks' },
      },
    },
    {
      method: 'get', path: '/api/openapi.json', cacheControl: 'public, max-age=300',
      handler: () => {
        openapi ??= JSON.stringify(buildOpenApi(router.routes(), { version: '1.0.0', serverUrl: s.config.publicBaseUrl }));
        return { raw: openapi, contentType: 'application/json; charset=utf-8' };
      },
      doc: { summary: 'This document', tags, content: { type: 'application/json', schema: Type.Object({ openapi: Type.String() }) }, responses: { 200: 'OpenAPI 3.1 document' } },
    },
  ];
}
