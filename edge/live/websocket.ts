// The live calendar over WebSocket (docs/live.md, "WebSocket"): uWebSockets.js's own topic
// pub/sub carries the changes. Each socket is in exactly one topic, named by the sorted set of
// months it watches, so a change touching two months reaches a socket watching both once, and a
// socket's messages keep their order. The hub sends each change once per topic.
import uWS from 'uWebSockets.js';
import type { LiveHub, Channel, JoinOutcome } from '../../shared/live/live-hub.ts';
import { MONTH_KEY, resetMessage, wireBytes, type LiveMessage } from '../../shared/live/messages.ts';
import type { Logger } from '../../shared/runtime/logger.ts';
import { allLines } from '../header-lines.ts';
import { clientIp } from '../client-address.ts';
import { HttpError } from '../../shared/errors.ts';
import type { Admission, ConnectionLimits, Held } from './connection-limits.ts';
import { closeSpread, drainedBelow, HARD_MARGIN_BYTES, MAX_WAITING_MESSAGES, refusal, SOCKET_RATE, type LiveCounters, type LiveSettings, type ResumeBudget } from './live-settings.ts';

/** One socket's state (uWS user data). */
interface Connection extends Held {
  admission: Admission;
  /** Months the socket is live on, and its topic (null before the first subscribe). */
  months: Set<string>;
  topic: string | null;
  /** The hub's seq when the current topic went live: changes after it reached the socket live. */
  liveFrom: number;
  /** Subscribe and unsubscribe messages are handled one after another. */
  queue: Promise<void>;
  /** Of them, how many wait in the queue (bounded: MAX_WAITING_MESSAGES). */
  waiting: number;
  /** The socket's subscribe/unsubscribe rate (SOCKET_RATE): tokens left and when counted. */
  tokens: number;
  tokensAt: number;
  closed: boolean;
  /** Unsent bytes at the last sweep (slowSweep). */
  backlog: number;
}

type Socket = uWS.WebSocket<Connection>;

/** Words a client may send: JSON messages only, small. */
const MAX_MESSAGE_BYTES = 4 * 1024;
/**
 * uWS closes a socket whose message passes its own limit without a close frame (the client sees
 * 1006, no reason): its limit sits above ours, and a message between the two is answered 1009.
 */
const UWS_PAYLOAD_LIMIT = 64 * 1024;

const topicOf = (months: Iterable<string>) => `live:${[...months].sort().join(',')}`;

class ProtocolError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

interface ClientMessage {
  type: 'subscribe' | 'unsubscribe' | 'ping';
  months: string[];
  since: number | null;
}

function parseMessage(raw: ArrayBuffer, maxMonths: number): ClientMessage {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw).toString('utf8'));
  } catch {
    throw new ProtocolError('invalid_message', '메시지가 올바른 JSON이 아닙니다.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ProtocolError('invalid_message', '메시지는 JSON 객체여야 합니다.');
  const message = value as Record<string, unknown>;
  if (message.type === 'ping') return { type: 'ping', months: [], since: null };
  if (message.type !== 'subscribe' && message.type !== 'unsubscribe') throw new ProtocolError('unknown_type', '알 수 없는 메시지 종류입니다. subscribe, unsubscribe, ping 중 하나를 보내 주세요.');
  const months = message.months;
  if (!Array.isArray(months) || months.length === 0) throw new ProtocolError('invalid_months', 'months는 비어 있지 않은 배열이어야 합니다.');
  if (months.length > maxMonths) throw new ProtocolError('too_many_months', `한 번에 구독할 수 있는 달은 ${maxMonths}개까지입니다.`);
  for (const month of months) if (typeof month !== 'string' || !MONTH_KEY.test(month)) throw new ProtocolError('invalid_month', `달은 YYYY-MM 형식이어야 합니다: ${JSON.stringify(month).slice(0, 40)}`);
  let since: number | null = null;
  if (message.since !== undefined && message.since !== null) {
    if (message.type !== 'subscribe' || typeof message.since !== 'number' || !Number.isSafeInteger(message.since) || message.since < 0) throw new ProtocolError('invalid_since', 'since는 0 이상의 정수여야 합니다.');
    since = message.since;
  }
  return { type: message.type, months: [...new Set(months as string[])], since };
}

export interface WebSocketTransport {
  behavior: uWS.WebSocketBehavior<Connection>;
  /** Sockets open now. */
  count(): number;
  /** Drops the sockets whose unsent bytes stayed over the limit since the last sweep without shrinking. */
  sweep(): void;
  /** Closes every socket with 1001 (going away), spread over `spreadMs`: clients reconnect to another replica, not all at once. */
  closeAll(spreadMs: number): Promise<void>;
}

export function webSocketTransport(app: () => uWS.TemplatedApp, hub: LiveHub, limits: ConnectionLimits, resumes: ResumeBudget, settings: LiveSettings, counters: LiveCounters, logger: Logger): WebSocketTransport {
  const sockets = new Set<Socket>();
  /** Topics with their channel in the hub and how many sockets are in each. */
  const topics = new Map<string, { channel: Channel; sockets: number }>();

  const joinTopic = (topic: string, months: string[]) => {
    let entry = topics.get(topic);
    if (!entry) {
      const channel: Channel = {
        months,
        send: (message) => {
          app().publish(topic, message.json);
          counters.sent('websocket', topics.get(topic)?.sockets ?? 0);
        },
      };
      topics.set(topic, (entry = { channel, sockets: 0 }));
      hub.attach(channel);
    }
    entry.sockets++;
  };
  const leaveTopic = (topic: string | null) => {
    if (topic === null) return;
    const entry = topics.get(topic);
    if (!entry) return;
    if (--entry.sockets === 0) {
      topics.delete(topic);
      hub.unregister(entry.channel);
    }
  };
  /** Moves a socket to the topic of its new month set, in one synchronous step. */
  const moveTo = (ws: Socket, state: Connection, months: Set<string>) => {
    const topic = months.size === 0 ? null : topicOf(months);
    if (topic === state.topic) return;
    if (state.topic !== null) ws.unsubscribe(state.topic);
    leaveTopic(state.topic);
    if (topic !== null) {
      joinTopic(topic, [...months].sort());
      ws.subscribe(topic);
    }
    state.topic = topic;
    state.months = months;
  };

  const send = (ws: Socket, state: Connection, json: string) => {
    if (state.closed) return;
    ws.send(json);
  };
  const refuse = (ws: Socket, state: Connection, code: string, message: string, closeCode = 1008) => {
    if (state.closed) return;
    ws.send(JSON.stringify({ type: 'error', code, error: message }));
    ws.end(closeCode, code);
  };

  const subscribe = async (ws: Socket, state: Connection, request: ClientMessage) => {
    if (state.closed) return; // left while it waited: no work for a socket that is gone
    const added = request.months.filter((month) => !state.months.has(month));
    if (state.months.size + added.length > settings.maxMonths) return refuse(ws, state, 'too_many_months', `한 연결이 구독할 수 있는 달은 ${settings.maxMonths}개까지입니다.`);
    if (added.length === 0) return send(ws, state, JSON.stringify({ type: 'subscribed', months: [...state.months].sort(), seq: hub.latest }));
    const wasLive = state.topic !== null;
    await hub.join(added, request.since, {
      replay: (message: LiveMessage) => {
        counters.sent('websocket', 1);
        if (!state.closed) ws.send(wireBytes(message));
      },
      // Already live on other months: what reached the socket live is not sent again.
      skip: (message) => wasLive && message.seq <= hub.latest && message.seq > state.liveFrom && (message.type === 'reset' || message.months.some((month) => state.months.has(month))),
      gone: () => state.closed,
      drained: () => drainedBelow(() => ws.getBufferedAmount(), settings.maxBufferedBytes / 2, () => state.closed),
      afford: (source, rows) => resumes(state.network, source, rows),
      live: ({ seq, reset }: JoinOutcome) => {
        if (state.closed) return;
        if (reset) send(ws, state, resetMessage(seq).json);
        moveTo(ws, state, new Set([...state.months, ...added]));
        state.liveFrom = seq;
        send(ws, state, JSON.stringify({ type: 'subscribed', months: [...state.months].sort(), seq }));
      },
    });
  };

  const unsubscribe = (ws: Socket, state: Connection, request: ClientMessage) => {
    if (state.closed) return;
    const left = new Set([...state.months].filter((month) => !request.months.includes(month)));
    moveTo(ws, state, left);
    send(ws, state, JSON.stringify({ type: 'unsubscribed', months: request.months, seq: hub.latest }));
  };

  const drop = (ws: Socket) => {
    counters.dropped('websocket');
    ws.close(); // at once, its buffer freed; the client resumes with its last seq
  };
  // Past the hard bound right after a round of changes: closed before uWS's own limit (higher
  // still) could make it skip a message of a socket that stays open.
  hub.afterRound.push(() => {
    for (const ws of sockets) if (ws.getBufferedAmount() > settings.maxBufferedBytes + HARD_MARGIN_BYTES) drop(ws);
  });

  const behavior: uWS.WebSocketBehavior<Connection> = {
    maxPayloadLength: UWS_PAYLOAD_LIMIT,
    idleTimeout: settings.idleTimeoutSeconds,
    sendPingsAutomatically: true,
    maxBackpressure: settings.maxBufferedBytes + 2 * HARD_MARGIN_BYTES,
    upgrade: (res, req, context) => {
      const headers = {
        'x-forwarded-for': settings.trustProxy > 0 ? allLines(req, 'x-forwarded-for') || undefined : undefined,
        'x-real-ip': req.getHeader('x-real-ip') || undefined,
      };
      let address: string;
      try {
        address = clientIp(headers, res.getRemoteAddressAsText(), settings.trustProxy)();
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        // A forwarded entry that is not an address: refused before the upgrade, as the API answers it.
        res.cork(() => {
          res.writeStatus('400 Bad Request').writeHeader('Content-Type', 'application/json; charset=utf-8').end(JSON.stringify({ error: error.message, code: error.code }));
        });
        return;
      }
      const { admission, key, network } = limits.take(address);
      const state: Connection = { key, network, admission, months: new Set(), topic: null, liveFrom: 0, queue: Promise.resolve(), waiting: 0, tokens: SOCKET_RATE.burst, tokensAt: Date.now(), closed: false, backlog: 0 };
      res.upgrade(state, req.getHeader('sec-websocket-key'), req.getHeader('sec-websocket-protocol'), req.getHeader('sec-websocket-extensions'), context);
    },
    open: (ws) => {
      const state = ws.getUserData();
      if (state.admission !== 'ok') {
        counters.refused(state.admission);
        const { code, error } = refusal(state.admission, settings, limits.maxPerNetwork);
        refuse(ws, state, code, error, state.admission === 'process' ? 1013 : 1008);
        return;
      }
      sockets.add(ws);
    },
    message: (ws, raw) => {
      const state = ws.getUserData();
      if (state.admission !== 'ok' || state.closed) return; // refused: closing
      if (raw.byteLength > MAX_MESSAGE_BYTES) return refuse(ws, state, 'message_too_large', `메시지는 ${MAX_MESSAGE_BYTES}바이트까지입니다.`, 1009);
      let request: ClientMessage;
      try {
        request = parseMessage(raw, settings.maxMonths);
      } catch (error) {
        if (error instanceof ProtocolError) return refuse(ws, state, error.code, error.message);
        throw error;
      }
      if (request.type === 'ping') return send(ws, state, '{"type":"pong"}');
      // A page changes months a few times a minute; a socket sending faster, or piling up messages, is closed.
      const now = Date.now();
      state.tokens = Math.min(SOCKET_RATE.burst, state.tokens + ((now - state.tokensAt) / 1000) * SOCKET_RATE.perSecond);
      state.tokensAt = now;
      if (state.tokens < 1) return refuse(ws, state, 'rate_limited', '구독 변경이 너무 잦습니다. 잠시 후 다시 연결해 주세요.');
      state.tokens--;
      if (state.waiting >= MAX_WAITING_MESSAGES) return refuse(ws, state, 'too_many_messages', `처리를 기다리는 메시지는 ${MAX_WAITING_MESSAGES}개까지입니다.`);
      state.waiting++;
      state.queue = state.queue
        .then(() => {
          state.waiting--;
          return request.type === 'subscribe' ? subscribe(ws, state, request) : unsubscribe(ws, state, request);
        })
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'live: a subscription failed');
          refuse(ws, state, 'service_unavailable', '지금은 구독할 수 없습니다. 잠시 후 다시 연결해 주세요.', 1011);
        });
    },
    close: (ws) => {
      const state = ws.getUserData();
      state.closed = true;
      if (state.admission !== 'ok') return;
      sockets.delete(ws);
      leaveTopic(state.topic);
      limits.give(state);
    },
  };

  return {
    behavior,
    count: () => sockets.size,
    sweep: () => {
      for (const ws of sockets) {
        const state = ws.getUserData();
        const backlog = ws.getBufferedAmount();
        if (backlog > settings.maxBufferedBytes && state.backlog > settings.maxBufferedBytes && backlog >= state.backlog) drop(ws);
        else state.backlog = backlog;
      }
    },
    closeAll: (spreadMs) => closeSpread([...sockets], (ws) => {
      if (!ws.getUserData().closed) ws.end(1001, 'server stopping');
    }, spreadMs),
  };
}
