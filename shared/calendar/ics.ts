// iCalendar text (RFC 5545) without a library: property values escaped, content lines folded at
// 75 octets without splitting a UTF-8 character, CRLF line ends.

/** TEXT value escaping (RFC 5545 3.3.11): backslash, semicolon, comma, newline. */
export function escapeText(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(/[\\;,\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

const encoder = new TextEncoder();

/**
 * One content line folded (RFC 5545 3.1): at most 75 octets per physical line, continuation lines
 * start with a space (which counts), and a multi-octet character is never cut.
 */
export function foldLine(line: string): string {
  if (line.length <= 75 && encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  let limit = 75;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = 74; // the leading space of a continuation line is one of its 75 octets
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** Lines of a calendar, folded and joined with CRLF (the last one too). */
export class IcsWriter {
  private readonly lines: string[] = [];

  /** A property with a raw value (already escaped or structured: dates, URIs, GEO). */
  raw(name: string, value: string): this {
    this.lines.push(foldLine(`${name}:${value}`));
    return this;
  }

  /** A TEXT property, escaped. */
  text(name: string, value: string): this {
    return this.raw(name, escapeText(value));
  }

  toString(): string {
    return `${this.lines.join('\r\n')}\r\n`;
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
