// A header sent on several lines is one comma-separated list (RFC 9110 §5.3). uWS's getHeader
// returns the first line only; this reads them all.
import type uWS from 'uWebSockets.js';

/** Every line of the header `name` (lower case), joined with ', '; '' when absent. */
export function allLines(req: uWS.HttpRequest, name: string): string {
  let joined = '';
  req.forEach((key, value) => {
    if (key === name) joined = joined === '' ? value : `${joined}, ${value}`;
  });
  return joined;
}
