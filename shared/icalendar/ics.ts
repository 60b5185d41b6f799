// iCalendar text (RFC 5545) without a library: property values escaped, control characters left
// out, content lines folded at 75 octets without splitting a UTF-8 character, CRLF line ends. The
// whole calendar is encoded to UTF-8 once and folded over its bytes in one pass: linear in its size.

/**
 * C0 controls but tab and line feed, DEL and the C1 controls: never in a TEXT value (RFC 5545
 * 3.3.11 allows none of them; an ANSI escape in a collected title would reach calendar apps).
 * Carriage returns are read as line ends before this applies.
 */
const TEXT_UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\\;,\n]/g;
/** Raw values (dates, URIs, GEO) hold no control character at all: a line break would start a new property. */
const RAW_UNSAFE = /[\x00-\x1f\x7f-\x9f]/g;
const CARRIAGE_RETURN = /\r\n?/g;

const escapeChar = (c: string) => (c === '\n' ? '\\n' : c === '\\' || c === ';' || c === ',' ? `\\${c}` : '');

/** TEXT value escaping (RFC 5545 3.3.11): backslash, semicolon, comma, newline; control characters dropped. */
export function escapeText(value: string): string {
  const lines = value.includes('\r') ? value.replace(CARRIAGE_RETURN, '\n') : value;
  return lines.replace(TEXT_UNSAFE, escapeChar);
}

/** A raw value without control characters. */
export const safeRaw = (value: string) => value.replace(RAW_UNSAFE, '');

const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;

/**
 * Content lines (each ending in CRLF, none holding a CR of its own) folded (RFC 5545 3.1): at most
 * 75 octets per physical line, continuation lines start with a space (which counts), and a
 * multi-octet character is never cut. One pass over the bytes.
 */
export function foldContentLines(unfolded: Buffer): Buffer {
  // A fold adds 3 octets per at least 71 octets carried (74 less a cut character's 3).
  const out = Buffer.allocUnsafe(unfolded.length + Math.ceil(unfolded.length / 71) * 3);
  let o = 0;
  let i = 0;
  while (i < unfolded.length) {
    let end = unfolded.indexOf(CR, i);
    if (end === -1) end = unfolded.length;
    let limit = 75;
    while (end - i > limit) {
      let cut = i + limit;
      while ((unfolded[cut]! & 0xc0) === 0x80) cut--; // a continuation byte: the character starts before the cut
      o += unfolded.copy(out, o, i, cut);
      out[o++] = CR;
      out[o++] = LF;
      out[o++] = SPACE;
      i = cut;
      limit = 74; // the leading space of a continuation line is one of its 75 octets
    }
    const next = Math.min(unfolded.length, end + 2);
    o += unfolded.copy(out, o, i, next);
    i = next;
  }
  return out.subarray(0, o);
}

/** Lines of a calendar, joined with CRLF (the last one too), then folded. */
export class IcsWriter {
  private readonly lines: string[] = [];

  /** A property with a raw value (already escaped or structured: dates, URIs, GEO). */
  raw(name: string, value: string): this {
    this.lines.push(`${name}:${safeRaw(value)}`);
    return this;
  }

  /** A TEXT property, escaped. */
  text(name: string, value: string): this {
    this.lines.push(`${name}:${escapeText(value)}`);
    return this;
  }

  /** The calendar as folded UTF-8 bytes. */
  toBuffer(): Buffer {
    this.lines.push('');
    const unfolded = Buffer.from(this.lines.join('\r\n'));
    this.lines.pop();
    return foldContentLines(unfolded);
  }
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` → `YYYYMMDD` (DATE). */
export const icsDate = (date: string) => date.replaceAll('-', '');

/** The day after `YYYY-MM-DD`, as a DATE: an all-day event's exclusive DTEND. */
export function icsNextDate(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return `${next.getUTCFullYear()}${pad2(next.getUTCMonth() + 1)}${pad2(next.getUTCDate())}`;
}

/** `YYYY-MM-DD` and `HH:MM` → local DATE-TIME `YYYYMMDDTHHMM00` (with a TZID parameter). */
export const icsLocalDateTime = (date: string, time: string) => `${icsDate(date)}T${time.replace(':', '')}00`;

/** An instant as UTC DATE-TIME `YYYYMMDDTHHMMSSZ`. */
export const icsUtc = (instant: Date) => `${instant.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

/** Asia/Seoul: UTC+9 all year since 1988 (no daylight saving time). */
export const SEOUL_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Asia/Seoul',
  'BEGIN:STANDARD',
  'DTSTART:19700101T000000',
  'TZOFFSETFROM:+0900',
  'TZOFFSETTO:+0900',
  'TZNAME:KST',
  'END:STANDARD',
  'END:VTIMEZONE',
];
