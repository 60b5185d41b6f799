// GET /metrics on METRICS_PORT, apart from the API: scrapes never queue behind API traffic, and the
// metrics never leave the cluster through the API's Service or Ingress. A plain node:http server:
// one scrape every few seconds needs nothing faster.
import { createServer } from 'node:http';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export function startMetricsServer(metrics: Metrics, port: number, logger: Logger, host = '127.0.0.1'): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found: GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'Content-Type': metrics.registry.contentType });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'metrics scrape failed');
        response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('scrape failed\n');
      },
    );
  });
  // A scrape connection is short; do not let an idle keep-alive hold the shutdown.
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
