// The live calendar as Server-Sent Events (docs/live.md, "Server-Sent Events"): a GET with
// `Accept: text/event-stream` stays open and receives one event per change, with the seq as the
// event id, so the browser's EventSource resumes by itself (Last-Event-ID). Each stream is its
// own channel in the hub; a stream that stops reading is ended once its unsent bytes pass the limit.
import type uWS from 'uWebSockets.js';
import type { LiveHub, Channel } from '../../shared/live/live-hub.ts';
import { MONTH_KEY, resetMessage, sseEvent, sseFrame, type LiveMessage } from '../../shared/live/messages.ts';
import type { Logger } from '../../shared/runtime/logger.ts';
import { requestIdOf, requestIdText } from '../request-id.ts';
import { allLines } from '../header-lines.ts';
import { clientIp } from '../client-address.ts';
import { HttpError } from '../../shared/errors.ts';
import type { ConnectionLimits, Held } from './connection-limits.ts';
import { closeSpread, drainedBelow, HARD_MARGIN_BYTES, jitteredRetry, refusal, type LiveCounters, type LiveSettings, type ResumeBudget } from './live-settings.ts';

interface Stream extends Held {
  res: uWS.HttpResponse;
  closed: boolean;
  /** Frames waiting for the socket to drain, and their bytes. */
  queue: string[];
  queued: number;
  congested: boolean;
  channel: Channel | null;
  /** Queued bytes at the last sweep. */
  backlog: number;
}

/** Parameters of a stream, or the 400 to answer. */
type Request = { months: string[]; since: number | null } | { status: 400; code: string; error: string };

function parseRequest(query: string, lastEventId: string, maxMonths: number): Request {
  const params = new URLSearchParams(query);
  const raw = params.get('months');
  if (!raw) return { status: 400, code: 'invalid_months', error: 'months 파라미터가 필요합니다 (예: months=2026-05,2026-06).' };
  const months = [...new Set(raw.split(',').map((month) => month.trim()).filter(Boolean))];
  if (months.length === 0) return { status: 400, code: 'invalid_months', error: 'months 파라미터가 필요합니다 (예: months=2026-05,2026-06).' };
  if (months.length > maxMonths) return { status: 400, code: 'too_many_months', error: `한 번에 구독할 수 있는 달은 ${maxMonths}개까지입니다.` };
  const bad = months.find((month) => !MONTH_KEY.test(month));
  if (bad !== undefined) return { status: 400, code: 'invalid_month', error: `달은 YYYY-MM 형식이어야 합니다: ${bad.slice(0, 40)}` };
  // The browser's own resume point wins over the one in the address it keeps reconnecting to.
  const since = lastEventId.trim() || params.get('since');
  if (since === null || since === '') return { months, since: null };
  if (!/^\d{1,15}$/.test(since)) return { status: 400, code: 'invalid_since', error: 'since(Last-Event-ID)는 0 이상의 정수여야 합니다.' };
  return { months, since: Number(since) };
}

const EVENT_STREAM_HEADERS: Array<[string, string]> = [
  ['Content-Type', 'text/event-stream; charset=utf-8'],
  ['Cache-Control', 'no-store'],
  // nginx and compatible proxies pass each event on at once instead of buffering the response.
  ['X-Accel-Buffering', 'no'],
  ['Access-Control-Allow-Origin', '*'],
  ['X-Content-Type-Options', 'nosniff'],
];

export interface SseTransport {
  /** The GET handler; yields (to the API's own routing) when the client does not ask for an event stream. */
  handle(res: uWS.HttpResponse, req: uWS.HttpRequest): void;
  count(): number;
  /** Drops the streams whose queued bytes stayed over the limit since the last sweep without shrinking. */
  sweep(): void;
  /** Ends every stream (graceful stop), spread over `spreadMs`: EventSource reconnects, to another replica, not all at once. */
  closeAll(spreadMs: number): Promise<void>;
}

export function sseTransport(hub: LiveHub, limits: ConnectionLimits, resumes: ResumeBudget, settings: LiveSettings, counters: LiveCounters, logger: Logger): SseTransport {
  const streams = new Set<Stream>();

  const end = (stream: Stream) => {
    if (stream.closed) return;
    stream.closed = true;
    streams.delete(stream);
    if (stream.channel) hub.unregister(stream.channel);
    limits.give(stream);
  };
  const flush = (stream: Stream) => {
    stream.congested = false;
    while (stream.queue.length > 0 && !stream.congested) {
      const frame = stream.queue.shift()!;
      stream.queued -= frame.length;
      stream.res.cork(() => {
        if (!stream.res.write(frame)) stream.congested = true;
      });
    }
  };
  const drop = (stream: Stream) => {
    // Never a growing buffer: the client resumes from its last event id on reconnecting.
    counters.dropped('sse');
    const res = stream.res;
    end(stream);
    res.close();
  };
  const write = (stream: Stream, frame: string) => {
    if (stream.closed) return;
    if (stream.congested) {
      stream.queue.push(frame);
      stream.queued += frame.length;
      if (stream.queued > settings.maxBufferedBytes + HARD_MARGIN_BYTES) drop(stream);
      return;
    }
    stream.res.cork(() => {
      if (!stream.res.write(frame)) stream.congested = true;
    });
  };
  const deliver = (stream: Stream, message: LiveMessage) => {
    counters.sent('sse', 1);
    write(stream, sseFrame(message));
  };

  const heartbeat = setInterval(() => {
    for (const stream of streams) if (!stream.congested) write(stream, ': keep-alive\n\n');
  }, settings.heartbeatSeconds * 1000);
  heartbeat.unref();

  const handle = (res: uWS.HttpResponse, req: uWS.HttpRequest) => {
    if (!req.getHeader('accept').includes('text/event-stream')) {
      req.setYield(true); // the API's router answers (406 with the reason)
      return;
    }
    const id = requestIdText(requestIdOf(req.getHeader('x-request-id') || undefined));
    const parsed = parseRequest(req.getQuery() ?? '', req.getHeader('last-event-id'), settings.maxMonths);
    const headers = { 'x-forwarded-for': settings.trustProxy > 0 ? allLines(req, 'x-forwarded-for') || undefined : undefined, 'x-real-ip': req.getHeader('x-real-ip') || undefined };
    const answer = (status: string, code: string, error: string, extra: Array<[string, string]> = []) => {
      res.cork(() => {
        res.writeStatus(status);
        for (const [name, value] of [['Content-Type', 'application/json; charset=utf-8'], ['Access-Control-Allow-Origin', '*'], ['X-Request-Id', id], ...extra]) res.writeHeader(name!, value!);
        res.end(JSON.stringify({ error, code }));
      });
    };
    let address: string;
    try {
      address = clientIp(headers, res.getRemoteAddressAsText(), settings.trustProxy)();
    } catch (error) {
      // A forwarded entry that is not an address: the same 400 the API answers.
      if (error instanceof HttpError) return answer('400 Bad Request', error.code, error.message);
      throw error;
    }
    if ('status' in parsed) return answer('400 Bad Request', parsed.code, parsed.error);
    const { admission, key, network } = limits.take(address);
    if (admission !== 'ok') {
      counters.refused(admission);
      const { code, error } = refusal(admission, settings, limits.maxPerNetwork);
      if (admission === 'process') return answer('503 Service Unavailable', code, error, [['Retry-After', '5']]);
      return answer('429 Too Many Requests', code, error, [['Retry-After', '30']]);
    }
    const stream: Stream = { res, key, network, closed: false, queue: [], queued: 0, congested: false, channel: null, backlog: 0 };
    streams.add(stream);
    res.onAborted(() => end(stream));
    res.onWritable(() => {
      if (!stream.closed) flush(stream);
      return true;
    });
    res.cork(() => {
      res.writeStatus('200 OK');
      for (const [name, value] of EVENT_STREAM_HEADERS) res.writeHeader(name, value);
      res.writeHeader('X-Request-Id', id);
      // Sent at once, so the client (and any proxy) sees the stream open before the first change.
      // The reconnect delay differs per stream: a stopped replica's clients come back spread out.
      res.write(`retry: ${jitteredRetry()}\n: ${hub.latest}\n\n`);
    });
    const channel: Channel = { months: parsed.months, send: (message) => deliver(stream, message) };
    hub.join(parsed.months, parsed.since, {
      replay: (message) => deliver(stream, message),
      gone: () => stream.closed,
      drained: () => drainedBelow(() => stream.queued, settings.maxBufferedBytes / 2, () => stream.closed),
      afford: (source, rows) => resumes(network, source, rows),
      live: ({ seq, reset }) => {
        if (stream.closed) return;
        if (reset) deliver(stream, resetMessage(seq));
        stream.channel = channel;
        hub.attach(channel);
        write(stream, sseEvent({ seq, type: 'subscribed', json: JSON.stringify({ type: 'subscribed', months: parsed.months, seq }) }));
      },
    }).catch((error: unknown) => {
      logger.warn({ err: error }, 'live: an event stream could not start');
      if (stream.closed) return;
      end(stream);
      res.cork(() => res.end());
    });
  };

  return {
    handle,
    count: () => streams.size,
    sweep: () => {
      for (const stream of [...streams]) {
        const backlog = stream.queued;
        if (backlog > settings.maxBufferedBytes && stream.backlog > settings.maxBufferedBytes && backlog >= stream.backlog) drop(stream);
        else stream.backlog = backlog;
      }
    },
    closeAll: (spreadMs) => {
      clearInterval(heartbeat);
      return closeSpread([...streams], (stream) => {
        if (stream.closed) return;
        const res = stream.res;
        end(stream);
        res.cork(() => res.end());
      }, spreadMs);
    },
  };
}
