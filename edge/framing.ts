// Request framing the edge refuses before routing (RFC 9112 §6.3): two different Content-Length
// values, or a Transfer-Encoding other than a lone `chunked`. uWS 20.30 frames such a request by
// the first line it reads, while a proxy in front may frame it by another: the bytes one counts as
// body the other runs as a second request (request smuggling). Such a request gets 400 and its
// connection is closed.
import type uWS from 'uWebSockets.js';

export const FRAMING_ERROR = '요청의 본문 길이 정보(Content-Length, Transfer-Encoding)가 서로 맞지 않습니다.';

/**
 * True when the request's framing headers disagree. Two header reads for the ordinary request (no
 * body headers, or one of each read by name); every line is read only when one of them is there.
 */
const CONTENT_LENGTH = Buffer.from('content-length');
const TRANSFER_ENCODING = Buffer.from('transfer-encoding');

export function conflictingFraming(req: uWS.HttpRequest): boolean {
  if (req.getHeader(CONTENT_LENGTH) === '' && req.getHeader(TRANSFER_ENCODING) === '') return false;
  let length: string | null = null;
  let lengths = 0;
  const codings: string[] = [];
  let conflict = false;
  req.forEach((name, value) => {
    if (name === 'content-length') {
      const trimmed = value.trim();
      if (length !== null && trimmed !== length) conflict = true;
      length = trimmed;
      lengths++;
    } else if (name === 'transfer-encoding') {
      // Several lines are one list (RFC 9110 §5.3).
      for (const coding of value.split(',')) codings.push(coding.trim().toLowerCase());
    }
  });
  if (conflict) return true;
  if (codings.length === 0) return false;
  // A body framed by Transfer-Encoding must not carry Content-Length as well (RFC 9112 §6.1).
  return lengths > 0 || codings.length !== 1 || codings[0] !== 'chunked';
}

/**
 * The 400 for conflicting framing, then the connection closed. Answered on the next turn of the
 * event loop, not in the request callback: uWS goes on parsing the bytes already read on this
 * connection after the callback returns (even past `end(…, true)`), and a request that arrives
 * while an answer is pending makes uWS close the connection without running it. So a smuggled
 * request in the same packet closes the connection unanswered; alone, the client reads the 400.
 */
export function refuseFraming(res: uWS.HttpResponse, body: string, headers: ReadonlyArray<readonly [string, string]>): void {
  let gone = false;
  res.onAborted(() => {
    gone = true;
  });
  setImmediate(() => {
    if (gone) return;
    res.cork(() => {
      res.writeStatus('400 Bad Request');
      for (const [name, value] of headers) res.writeHeader(name, value);
      // uWS writes `Connection: close` itself for closeConnection.
      res.end(body, true);
    });
  });
}
