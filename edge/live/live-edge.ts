// The live calendar of one edge replica (docs/live.md): the hub that follows the change log, the
// WebSocket and SSE transports on GET /api/schedules/live, their shared connection limits, and
// their metrics. The composition root starts it, mounts it on the uWS app and closes it first at
// shutdown, so clients move to another replica.
import type uWS from 'uWebSockets.js';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Services } from '../../shared/services.ts';
import { LiveHub } from '../../shared/live/live-hub.ts';
import { ConnectionLimits } from './connection-limits.ts';
import { liveSettings, resumeBudget, type LiveCounters, type Transport } from './live-settings.ts';
import { queryBudget } from '../routes/suggestions.ts';
import { sseTransport } from './sse.ts';
import { webSocketTransport } from './websocket.ts';

export const LIVE_PATH = '/api/schedules/live';

/** How often subscribers' backlogs are checked. */
const SWEEP_MS = 1_000;

export interface LiveEdge {
  /** Routes GET /api/schedules/live on the uWS app: upgrades to WebSocket, event streams to SSE; anything else falls through to the API router. */
  mount(app: uWS.TemplatedApp): void;
  /** Subscribers by transport. */
  subscribers(): Record<Transport, number>;
  /** Reads the change log now (after a write, a schedule.changed message). */
  wake(): void;
  /** Ends every stream and closes every socket with 1001, spread over at most `spreadMs`, then stops following the log. */
  close(spreadMs?: number): Promise<void>;
  /** Adds the live metrics to a registry. */
  register(registry: Registry): void;
}

export async function startLiveEdge(s: Services): Promise<LiveEdge> {
  const settings = liveSettings(s.config);
  const sentCounts: Record<Transport, number> = { websocket: 0, sse: 0 };
  const droppedCounts: Record<Transport, number> = { websocket: 0, sse: 0 };
  const refusedCounts: Record<string, number> = { client: 0, network: 0, process: 0 };
  const lags: number[] = [];
  let lagHistogram: Histogram | null = null;
  const counters: LiveCounters = {
    sent: (transport, messages) => void (sentCounts[transport] += messages),
    dropped: (transport) => void droppedCounts[transport]++,
    refused: (admission) => void refusedCounts[admission]!++,
  };
  const hub = new LiveHub({
    db: s.db,
    logger: s.logger,
    monthlyCache: s.monthlyCache,
    observeLag: (seconds) => {
      if (lagHistogram) lagHistogram.observe(seconds);
      else if (lags.length < 10_000) lags.push(seconds);
    },
  });
  await hub.start();
  const limits = new ConnectionLimits({ perClient: settings.maxConnectionsPerClient, perNetwork: settings.maxConnectionsPerNetwork, networkSharePercent: settings.maxNetworkSharePercent, total: settings.maxConnections });
  // Resumes are paid from the client's network's bucket of the query budget that search uses.
  const resumes = resumeBudget(queryBudget(s), settings.resumeCost);
  let uwsApp: uWS.TemplatedApp | null = null;
  const ws = webSocketTransport(() => uwsApp!, hub, limits, resumes, settings, counters, s.logger);
  const sse = sseTransport(hub, limits, resumes, settings, counters, s.logger);
  const subscribers = () => ({ websocket: ws.count(), sse: sse.count() });
  // A subscriber over its buffer limit at two sweeps in a row, its backlog not shrinking, is not reading.
  const sweeper = setInterval(() => {
    ws.sweep();
    sse.sweep();
  }, SWEEP_MS);
  sweeper.unref();
  return {
    mount: (app) => {
      uwsApp = app;
      // uWS hands a GET without an upgrade to the next handler of the path: the event stream's.
      app.ws(LIVE_PATH, ws.behavior);
      app.get(LIVE_PATH, sse.handle);
      app.get(`${LIVE_PATH}/`, sse.handle);
    },
    subscribers,
    wake: () => hub.wake(),
    close: async (spreadMs = 0) => {
      clearInterval(sweeper);
      await Promise.all([sse.closeAll(spreadMs), ws.closeAll(spreadMs)]);
      await hub.stop();
    },
    register: (registry) => {
      new Gauge({
        name: 'live_subscribers', help: 'Open live calendar connections, by transport', labelNames: ['transport'] as const, registers: [registry],
        collect() {
          for (const [transport, count] of Object.entries(subscribers())) this.set({ transport }, count);
        },
      });
      new Counter({
        name: 'live_messages_sent_total', help: 'Live change messages handed to subscribers (a topic publish counts each socket in it)', labelNames: ['transport'] as const, registers: [registry],
        collect() {
          this.reset();
          for (const [transport, count] of Object.entries(sentCounts)) this.inc({ transport }, count);
        },
      });
      new Counter({
        name: 'live_subscribers_dropped_total', help: 'Live subscribers closed because their unsent bytes passed LIVE_MAX_BUFFERED_KB', labelNames: ['transport'] as const, registers: [registry],
        collect() {
          this.reset();
          for (const [transport, count] of Object.entries(droppedCounts)) this.inc({ transport }, count);
        },
      });
      new Counter({
        name: 'live_connections_refused_total', help: 'Live connections refused by the per-client, the per-network or the process-wide limit', labelNames: ['limit'] as const, registers: [registry],
        collect() {
          this.reset();
          for (const [limit, count] of Object.entries(refusedCounts)) this.inc({ limit }, count);
        },
      });
      // The limit beside the count, so an alert can compare the two per pod.
      new Gauge({ name: 'live_max_connections', help: 'Live calendar connections one process accepts (LIVE_MAX_CONNECTIONS)', registers: [registry] }).set(settings.maxConnections);
      lagHistogram = new Histogram({
        name: 'live_delivery_lag_seconds', help: 'From a change written (under the change-log lock, just before its commit) to its fan-out on this replica',
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
      });
      for (const seconds of lags.splice(0)) lagHistogram.observe(seconds);
    },
  };
}
