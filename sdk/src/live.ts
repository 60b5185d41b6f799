// The live calendar (GET /api/schedules/live, the AsyncAPI document at /api/asyncapi.json): one
// subscription that survives any disconnect. It keeps the highest seq received and resumes from it
// (`since`), so a change is handed over once and none is missed; it reconnects with jittered
// exponential backoff, waits longer when the server says it is busy or the client has too many
// connections (HTTP 429/503, close 1008/1013), and stops on a client error it would only repeat.
// WebSocket where the platform has one (or one is passed in), otherwise Server-Sent Events read
// through fetch (Node 20 has neither WebSocket nor EventSource built in).
import { jittered, sleep } from './backoff.js';
import { ApiError, errorOf } from './errors.js';
import type { components } from './openapi.js';
import { urlOf, type Transport } from './http.js';

type ScheduleItem = components['schemas']['ScheduleItem'];

/** A schedule created, changed or deleted (`schedule` is the month listing's item, null on delete). */
export interface ChangeMessage {
  type: 'schedule.created' | 'schedule.updated' | 'schedule.deleted';
  seq: number;
  /** The schedule id, or `birthday-<memberId>-<year>`. */
  id: number | string;
  /** Every month the change touches (a schedule moved from May to June names both). */
  months: string[];
  schedule: ScheduleItem | null;
}

export interface LiveHandlers {
  onChange(change: ChangeMessage): void;
  /** Refetch the watched months: the changes missed are past the server's retention, or touched every month. */
  onReset?(seq: number): void;
  /** The subscription is live: every change of its months up to `seq` has been handed over. */
  onSubscribed?(info: { months: string[]; seq: number }): void;
  /** Connection state, for a page's indicator. */
  onStatus?(status: LiveStatus, detail?: { delayMs?: number; reason?: string }): void;
  /** A client error the subscription would only repeat (a bad month, a message too big): it has stopped. */
  onError?(error: ApiError): void;
}

export type LiveStatus = 'connecting' | 'live' | 'waiting' | 'closed';

export interface Subscription {
  /** The highest seq received; pass it as `since` to resume elsewhere. */
  readonly lastSeq: number | undefined;
  readonly months: readonly string[];
  /** Times the subscription connected again after losing its connection. */
  readonly reconnects: number;
  /** Resolves when first live (with its seq); rejects if the subscription stopped on a client error. */
  readonly ready: Promise<number>;
  close(): void;
}

/**
 * What `live.subscribe` needs of a WebSocket: the browser's, or the `ws` package's class in Node.
 * The handlers take `any` events: each platform has its own event classes, and a narrower type
 * here would refuse them (handler properties are checked contravariantly).
 */
export interface WebSocketLike {
  onopen: ((event: any) => void) | null;
  onmessage: ((event: any) => void) | null;
  onclose: ((event: any) => void) | null;
  onerror: ((event: any) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface LiveOptions {
  /** `auto` (default): WebSocket when one is available, else SSE over fetch. */
  transport?: 'auto' | 'websocket' | 'sse';
  /** A WebSocket class for platforms without a global one (Node 20: `import WebSocket from 'ws'`). */
  WebSocket?: WebSocketConstructor;
  /** First reconnect step in ms (default 1000); the wait is random up to base·2^attempt. */
  minDelayMs?: number;
  /** Longest wait between attempts (default 30 000). */
  maxDelayMs?: number;
  /** The least wait after the server said busy or too many connections (default 5000). */
  busyDelayMs?: number;
  /** A connection silent this long is taken as cut and replaced (default 60 000; SSE heartbeats come every 25 s). */
  idleTimeoutMs?: number;
}

export interface LiveClient {
  subscribe(target: { months: readonly string[]; since?: number }, handlers: LiveHandlers): Subscription;
}

/** Codes of WebSocket error messages that name a mistake in what the client sent: resending it cannot help. */
const CLIENT_ERRORS = new Set(['invalid_message', 'unknown_type', 'invalid_months', 'invalid_month', 'too_many_months', 'invalid_since']);
const MONTH = /^(19|2\d)\d{2}-(0[1-9]|1[0-2])$/;

/** How one connection ended: reconnect soon, reconnect later, or stop. */
type Outcome = { kind: 'lost'; reason: string; retryAfterMs?: number } | { kind: 'busy'; reason: string; retryAfterMs?: number } | { kind: 'fatal'; error: ApiError } | { kind: 'closed' };

export function createLive(transport: Transport, options: LiveOptions = {}): LiveClient {
  const settings = { minDelayMs: 1000, maxDelayMs: 30_000, busyDelayMs: 5000, idleTimeoutMs: 60_000, ...options };
  const WebSocketClass = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  const useWebSocket = settings.transport === 'websocket' || (settings.transport !== 'sse' && WebSocketClass !== undefined);
  if (settings.transport === 'websocket' && !WebSocketClass) throw new Error('no WebSocket on this platform: pass options.live.WebSocket');

  return {
    subscribe(target, handlers) {
      const months = [...new Set(target.months)].sort();
      const bad = months.find((month) => !MONTH.test(month));
      if (months.length === 0 || bad !== undefined) throw new TypeError(`months must be YYYY-MM: ${String(bad ?? '(none)')}`);
      let lastSeq = target.since;
      /** Ids handed over at `lastSeq` (a birthday row is one message per watched year, all with one seq). */
      let idsAtLastSeq = new Set<number | string>();
      let reconnects = 0;
      let connected = false;
      const stop = new AbortController();
      let resolveReady!: (seq: number) => void;
      let rejectReady!: (error: unknown) => void;
      const ready = new Promise<number>((resolve, reject) => {
        resolveReady = resolve;
        rejectReady = reject;
      });
      ready.catch(() => {}); // a caller who never awaits it gets onError instead

      /** One message of either transport; returns false when it was a duplicate. */
      const handle = (message: { type?: unknown; seq?: unknown; id?: unknown; months?: unknown }) => {
        const seq = typeof message.seq === 'number' ? message.seq : undefined;
        switch (message.type) {
          case 'subscribed':
            if (seq !== undefined && (lastSeq === undefined || seq > lastSeq)) {
              lastSeq = seq;
              idsAtLastSeq = new Set();
            }
            connected = true;
            handlers.onStatus?.('live');
            handlers.onSubscribed?.({ months: (message.months as string[]) ?? months, seq: seq ?? lastSeq ?? 0 });
            resolveReady(seq ?? lastSeq ?? 0);
            return;
          case 'reset':
            // Always taken, even below lastSeq: a server on a restored database continues from its own seq.
            if (seq === undefined) return;
            lastSeq = seq;
            idsAtLastSeq = new Set();
            handlers.onReset?.(seq);
            return;
          case 'schedule.created':
          case 'schedule.updated':
          case 'schedule.deleted': {
            if (seq === undefined) return;
            const id = message.id as number | string;
            if (lastSeq !== undefined && (seq < lastSeq || (seq === lastSeq && idsAtLastSeq.has(id)))) return;
            if (lastSeq === undefined || seq > lastSeq) idsAtLastSeq = new Set();
            lastSeq = seq;
            idsAtLastSeq.add(id);
            handlers.onChange(message as ChangeMessage);
            return;
          }
          default:
            return; // pong, unsubscribed, and types a newer server may add
        }
      };

      const connect = useWebSocket
        ? () => overWebSocket(WebSocketClass!, transport.baseUrl, months, lastSeq, handle, settings.idleTimeoutMs, stop.signal)
        : () => overEventStream(transport, months, lastSeq, handle, settings.idleTimeoutMs, stop.signal);

      void (async () => {
        let attempt = 0;
        for (;;) {
          handlers.onStatus?.('connecting');
          connected = false;
          const outcome = await connect().catch((error: unknown): Outcome => ({ kind: 'lost', reason: String(error) }));
          if (stop.signal.aborted || outcome.kind === 'closed') break;
          if (outcome.kind === 'fatal') {
            rejectReady(outcome.error);
            handlers.onError?.(outcome.error);
            break;
          }
          if (connected) attempt = 0;
          const delayMs = outcome.kind === 'busy'
            ? Math.max(outcome.retryAfterMs ?? 0, settings.busyDelayMs) + jittered(attempt, settings.busyDelayMs, settings.maxDelayMs)
            : Math.max(outcome.retryAfterMs ?? 0, jittered(attempt, settings.minDelayMs, settings.maxDelayMs));
          attempt++;
          handlers.onStatus?.('waiting', { delayMs, reason: outcome.reason });
          try {
            await sleep(delayMs, stop.signal);
          } catch {
            break;
          }
          reconnects++;
        }
        handlers.onStatus?.('closed');
      })();

      return {
        get lastSeq() {
          return lastSeq;
        },
        months,
        get reconnects() {
          return reconnects;
        },
        ready,
        close: () => stop.abort(),
      };
    },
  };
}

type Handle = (message: { type?: unknown; seq?: unknown }) => void;

/** Calls `onIdle` when `touch` has not been called for `ms`. */
function watchdog(ms: number, onIdle: () => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(onIdle, ms);
  };
  touch();
  return { touch, stop: () => timer !== undefined && clearTimeout(timer) };
}

function overWebSocket(WebSocketClass: WebSocketConstructor, baseUrl: string, months: string[], since: number | undefined, handle: Handle, idleTimeoutMs: number, signal: AbortSignal): Promise<Outcome> {
  return new Promise((resolve) => {
    const url = urlOf(baseUrl, '/api/schedules/live').replace(/^http/, 'ws');
    const socket = new WebSocketClass(url);
    let refused: { code: string; error: string } | undefined;
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      idle.stop();
      clearInterval(pinger);
      signal.removeEventListener('abort', onAbort);
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      try {
        socket.close(1000);
      } catch {
        // already closing
      }
      resolve(outcome);
    };
    // A cut network may never deliver a close: silence past the limit counts as one. The
    // application ping gets an answer even where the platform cannot send ping frames.
    const idle = watchdog(idleTimeoutMs, () => finish({ kind: 'lost', reason: 'no message within the idle timeout' }));
    const pinger = setInterval(() => {
      try {
        socket.send('{"type":"ping"}');
      } catch {
        // not open yet or closing: the watchdog decides
      }
    }, Math.max(1000, idleTimeoutMs / 3));
    const onAbort = () => finish({ kind: 'closed' });
    signal.addEventListener('abort', onAbort, { once: true });
    socket.onopen = () => {
      idle.touch();
      socket.send(JSON.stringify({ type: 'subscribe', months, ...(since === undefined ? {} : { since }) }));
    };
    socket.onmessage = (event: { data: unknown }) => {
      idle.touch();
      let message: { type?: unknown; code?: unknown; error?: unknown; seq?: unknown };
      try {
        message = JSON.parse(typeof event.data === 'string' ? event.data : String(event.data)) as typeof message;
      } catch {
        return;
      }
      if (message.type === 'error') refused = { code: String(message.code), error: String(message.error) };
      else handle(message);
    };
    socket.onerror = () => {}; // a close event follows
    socket.onclose = (event: { code: number }) => {
      const reason = `closed ${event.code}${refused ? ` (${refused.code})` : ''}`;
      if (event.code === 1009) finish({ kind: 'fatal', error: new ApiError(0, refused?.code ?? 'message_too_large', refused?.error ?? '보낸 메시지가 너무 큽니다.') });
      else if (refused && CLIENT_ERRORS.has(refused.code)) finish({ kind: 'fatal', error: new ApiError(0, refused.code, refused.error) });
      else if (event.code === 1008 || event.code === 1013) finish({ kind: 'busy', reason });
      else finish({ kind: 'lost', reason });
    };
  });
}

async function overEventStream(transport: Transport, months: string[], since: number | undefined, handle: Handle, idleTimeoutMs: number, signal: AbortSignal): Promise<Outcome> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const idle = watchdog(idleTimeoutMs, () => controller.abort());
  try {
    // `since` in the query rather than Last-Event-ID: a header a browser would preflight cross-origin.
    const url = urlOf(transport.baseUrl, '/api/schedules/live', { months: months.join(','), since });
    let response: Response;
    try {
      response = await transport.fetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal, cache: 'no-store' } as RequestInit);
    } catch (error) {
      return signal.aborted ? { kind: 'closed' } : { kind: 'lost', reason: String((error as Error)?.message ?? error) };
    }
    if (!response.ok || !response.body) {
      const error = await errorOf(response);
      const retryAfterMs = error.retryAfter === undefined ? undefined : error.retryAfter * 1000;
      if (response.status === 429 || response.status === 503) return { kind: 'busy', reason: `HTTP ${response.status} (${error.code})`, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
      if (response.status >= 400 && response.status < 500) return { kind: 'fatal', error };
      return { kind: 'lost', reason: `HTTP ${response.status}` };
    }
    let retryAfterMs: number | undefined;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let data: string[] = [];
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        idle.touch();
        buffer += decoder.decode(value, { stream: true });
        // Event stream lines end in CRLF, LF or CR; a blank line ends an event.
        let match: RegExpExecArray | null;
        while ((match = /\r\n|\n|\r/.exec(buffer)) !== null) {
          if (match[0] === '\r' && match.index === buffer.length - 1) break; // a CR whose LF may follow
          const line = buffer.slice(0, match.index);
          buffer = buffer.slice(match.index + match[0].length);
          if (line === '') {
            if (data.length) {
              try {
                handle(JSON.parse(data.join('\n')) as { type?: unknown });
              } catch {
                // not JSON: nothing the document promises
              }
            }
            data = [];
          } else if (!line.startsWith(':')) {
            const colon = line.indexOf(':');
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'data') data.push(value);
            else if (field === 'retry' && /^\d+$/.test(value)) retryAfterMs = Number(value);
          }
        }
      }
    } catch (error) {
      if (signal.aborted) return { kind: 'closed' };
      return { kind: 'lost', reason: String((error as Error)?.message ?? error), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    }
    return signal.aborted ? { kind: 'closed' } : { kind: 'lost', reason: 'stream ended', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  } finally {
    idle.stop();
    signal.removeEventListener('abort', onAbort);
  }
}
