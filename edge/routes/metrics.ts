// GET /metrics in Prometheus text format, on every role's port.
import type { Metrics } from '../../shared/metrics.ts';
import type { Route } from '../router.ts';

export function metricsRoute(metrics: Metrics): Route {
  return {
    method: 'get', path: '/metrics',
    handler: async () => ({ raw: await metrics.registry.metrics(), contentType: metrics.registry.contentType }),
    doc: { summary: 'Prometheus metrics', tags: ['operations'], responses: { 200: 'Prometheus text exposition format' } },
  };
}
