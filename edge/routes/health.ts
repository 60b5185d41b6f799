// Probes and the API description. /healthz: the process and its database answer. /readyz: this
// replica wants traffic (503 from the first moment of shutdown, so endpoints drain first, and while
// a bus consumer or the outbox relay of this process does not work).
import { Type } from '@sinclair/typebox';
import { buildOpenApi } from '../../schemas/openapi.ts';
import { HttpError } from '../../shared/errors.ts';
import type { BusHealth } from '../../shared/bus/bus.ts';
import type { Services } from '../../shared/services.ts';
import { reply } from '../context.ts';
import type { Route, Router } from '../router.ts';

const Probe = Type.Object({ status: Type.String() });

export interface ReadinessState {
  ready: () => boolean;
  /** The bus consumers and relay of this process; not ready while one of them is not ok. */
  pipeline?: () => BusHealth;
}

export function healthRoutes(s: Services, state: ReadinessState, router: Router): Route[] {
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
        const pipeline = state.pipeline?.();
        if (pipeline && !pipeline.ok) {
          const failing = pipeline.components.filter((c) => !c.ok);
          s.logger.warn({ failing }, 'not ready: a bus component does not work');
          throw new HttpError(503, `메시지 처리 구성 요소가 정상이 아닙니다: ${failing.map((c) => c.name).join(', ')}`);
        }
        return reply({ status: 'ready' });
      },
      doc: {
        summary: 'Readiness: 503 while starting or draining, and while a bus consumer or the outbox relay of this process does not work (not for an edge-only process)',
        tags,
        responses: { 200: Probe, 503: 'not ready' },
      },
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
