// The uWebSockets.js edge's lifecycle: startEdge mounts the handlers that need uWS itself and the
// catch-all request handler, listens on the port, and later stops listening and closes the
// connections. A request's way through the edge: request-handler.ts (capture, routing, limits,
// the route's handler), answers.ts (written corked; one error path makes {error, code}),
// response-headers.ts (header bytes, CORS), body-limits.ts and conditional.ts.
import uWS from 'uWebSockets.js';
import type { Logger } from '../shared/runtime/logger.ts';
import type { AccessLogOptions } from './access-log.ts';
import { createAnswers, type EdgeState } from './answers.ts';
import { UploadBudget } from './body-limits.ts';
import { createRequestHandler, type EdgeHooks } from './request-handler.ts';
import type { Router } from './router.ts';

export type { EdgeHooks };

export interface Edge {
  port: number;
  /** Requests received and not yet answered or aborted. */
  inFlight(): number;
  /** Stop accepting connections; connections already open keep working. */
  stopListening(): void;
  /** Close every open connection (keep-alive ones included). */
  closeConnections(): void;
}

/** uWS exports this listen option, but its typings declare it only as an enum and only for listen(port, options, cb). */
const LIBUS_LISTEN_EXCLUSIVE_PORT = (uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;
type ListenWithOptions = (host: string, port: number, options: number, cb: (socket: uWS.us_listen_socket | false) => void) => uWS.TemplatedApp;

export interface EdgeOptions extends AccessLogOptions {
  /** Address to listen on (HOST); loopback unless given. */
  host?: string;
  /** Reverse proxies in front that append to X-Forwarded-For (clientIp). */
  trustProxy?: number;
  /** Bytes of large bodies held at once (UploadBudget); default unbounded. */
  uploadBudgetBytes?: number;
  /** Handlers that need uWS itself (the live calendar's WebSocket and event stream), mounted before the API's catch-all. */
  mount?: (app: uWS.TemplatedApp) => void;
}

export function startEdge(router: Router, hooks: EdgeHooks, logger: Logger, port: number, options: EdgeOptions = {}): Promise<Edge> {
  const app = uWS.App();
  const state: EdgeState = { inFlight: 0, synchronous: false };
  const uploads = new UploadBudget(options.uploadBudgetBytes ?? Number.POSITIVE_INFINITY);
  const answers = createAnswers(hooks, logger, options, state);
  const onRequest = createRequestHandler(router, hooks, answers, state, options.trustProxy ?? 0, uploads);
  options.mount?.(app);
  // GET has its own handler (uWS prefers it to `any`): the method is known without asking uWS.
  app.get('/*', (res, req) => onRequest(res, req, 'get'));
  app.any('/*', (res, req) => onRequest(res, req, req.getMethod()));

  return new Promise((resolve, reject) => {
    // Exclusive: without it uWS sets SO_REUSEPORT and a second process on PORT would share the traffic.
    (app.listen as unknown as ListenWithOptions).call(app, options.host ?? '127.0.0.1', port, LIBUS_LISTEN_EXCLUSIVE_PORT, (socket) => {
      if (!socket) {
        reject(new Error(`could not listen on ${options.host ?? '127.0.0.1'} port ${port}`));
        return;
      }
      let listening: uWS.us_listen_socket | null = socket;
      resolve({
        port: uWS.us_socket_local_port(socket),
        inFlight: () => state.inFlight,
        stopListening: () => {
          if (listening) uWS.us_listen_socket_close(listening);
          listening = null;
        },
        closeConnections: () => (app as uWS.TemplatedApp & { close(): void }).close(),
      });
    });
  });
}
