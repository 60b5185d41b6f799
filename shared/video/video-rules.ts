// Pure rules of the video bot: durations, shorts, Seoul dates, quota day, title filters,
// member extraction. No I/O here.

const ISO_DURATION =
  /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Seconds of an ISO 8601 duration as the platform writes it (`PT1M5S`, `P1DT2H`, `P0D`); null when malformed. */
export function parseIsoDuration(duration: string): number | null {
  if (typeof duration !== 'string' || duration.length > 64) return null;
  const match = ISO_DURATION.exec(duration);
  if (!match) return null;
  const [, weeks, days, hours, minutes, seconds] = match;
  // `P` and `PT` alone carry no component and are not valid durations.
  if ([weeks, days, hours, minutes, seconds].every((part) => part === undefined)) return null;
  if (duration.endsWith('T')) return null;
  const total =
    Number(weeks ?? 0) * 604_800 +
    Number(days ?? 0) * 86_400 +
    Number(hours ?? 0) * 3_600 +
    Number(minutes ?? 0) * 60 +
    Number(seconds ?? 0);
  return Number.isFinite(total) ? Math.floor(total) : null;
}

export type VideoType = 'video' | 'shorts';

const SHORTS_BELOW_SECONDS = 61;
const SHORTS_TAG = /#shorts(?![\p{L}\p{N}_])/iu;

/**
 * Shorts when the video lasts less than 61 s or its title or description carries `#shorts`.
 * A missing or zero duration (live and upcoming broadcasts report `P0D`) is unknown, not short.
 */
export function videoType(video: {
  durationSeconds: number | null;
  title?: string | null;
  description?: string | null;
}): VideoType {
  const { durationSeconds } = video;
  if (durationSeconds !== null && durationSeconds > 0 && durationSeconds < SHORTS_BELOW_SECONDS) {
    return 'shorts';
  }
  if (SHORTS_TAG.test(video.title ?? '') || SHORTS_TAG.test(video.description ?? '')) return 'shorts';
  return 'video';
}

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
}

// Formatters are costly to build; each is made once.
const seoulFormatter = partsFormatter('Asia/Seoul');
const pacificFormatter = partsFormatter('America/Los_Angeles');

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(formatter: Intl.DateTimeFormat, instant: number): WallClock {
  const fields: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? NaN,
    month: fields.month ?? NaN,
    day: fields.day ?? NaN,
    hour: fields.hour ?? NaN,
    minute: fields.minute ?? NaN,
    second: fields.second ?? NaN,
  };
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** Calendar date and time in Asia/Seoul of an instant (`2024-05-01T15:30:00Z` → 2024-05-02 00:30). */
export function seoulDateTime(instant: string | Date): { date: string; time: string } {
  const epochMs = instant instanceof Date ? instant.getTime() : Date.parse(instant);
  if (!Number.isFinite(epochMs)) throw new RangeError(`invalid instant: ${String(instant)}`);
  const wall = wallClock(seoulFormatter, epochMs);
  return {
    date: `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`,
    time: `${pad(wall.hour)}:${pad(wall.minute)}`,
  };
}

/** Offset of the zone from UTC at an instant, in milliseconds (PDT → -7 h). */
function offsetMs(formatter: Intl.DateTimeFormat, instant: number): number {
  const wall = wallClock(formatter, instant);
  const wallAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return wallAsUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The next midnight in America/Los_Angeles strictly after `now`: the platform's daily quota
 * resets then. 23- and 25-hour days around DST changes are handled by asking the zone for
 * its offset at the target instant rather than assuming one.
 */
export function nextQuotaResetAt(now: Date): Date {
  const nowMs = now.getTime();
  if (!Number.isFinite(nowMs)) throw new RangeError('invalid date');
  const today = wallClock(pacificFormatter, nowMs);
  // Date.UTC rolls day 32 over into the next month, and December into January.
  const midnightWallAsUtc = Date.UTC(today.year, today.month - 1, today.day + 1);
  // The offset is read 7–8 hours before the reset (16:00 or 17:00 the day before in Los
  // Angeles); clocks there change at 02:00, so it is the offset in force at midnight.
  return new Date(midnightWallAsUtc - offsetMs(pacificFormatter, midnightWallAsUtc));
}

export interface TitleFilter {
  include: readonly string[];
  exclude: readonly string[];
}

const fold = (text: string): string => text.normalize('NFC').toLowerCase();

/** A title passes when it contains any include term (none = all) and no exclude term; exclude wins. */
export function passesTitleFilter(title: string, filter: TitleFilter): boolean {
  const folded = fold(title);
  const include = filter.include.map(fold).filter((term) => term.trim() !== '');
  const exclude = filter.exclude.map(fold).filter((term) => term.trim() !== '');
  if (exclude.some((term) => folded.includes(term))) return false;
  return include.length === 0 || include.some((term) => folded.includes(term));
}

export interface MemberNames {
  id: number;
  name: string;
  nameEn?: string | null;
  nicknames: readonly string[];
  isFormer: boolean;
}

const LATIN_WORD_CHAR = /[a-z0-9]/;

/**
 * Whether `term` occurs in `text` (both folded). Hangul names match anywhere, since particles
 * attach to them (하영이, 지원의); a term made of Latin letters or digits must not sit inside a
 * longer Latin word, so a nickname `ha` does not match `happy`.
 */
function containsTerm(text: string, term: string): boolean {
  if (term.trim() === '') return false;
  const latin = /^[a-z0-9 ._-]+$/.test(term);
  let from = 0;
  for (;;) {
    const at = text.indexOf(term, from);
    if (at < 0) return false;
    if (!latin) return true;
    const before = text[at - 1];
    const after = text[at + term.length];
    const startsWord = LATIN_WORD_CHAR.test(term[0] ?? '');
    const endsWord = LATIN_WORD_CHAR.test(term[term.length - 1] ?? '');
    const leftOk = !startsWord || before === undefined || !LATIN_WORD_CHAR.test(before);
    const rightOk = !endsWord || after === undefined || !LATIN_WORD_CHAR.test(after);
    if (leftOk && rightOk) return true;
    from = at + 1;
  }
}

/**
 * Ids of members named in `text` by name, English name or nickname; a group name links every
 * current member (former members only by their own names). Sorted, without duplicates.
 */
export function extractMemberIds(
  text: string,
  members: readonly MemberNames[],
  groupNames: readonly string[],
): number[] {
  const folded = fold(text);
  const ids = new Set<number>();
  const groupNamed = groupNames.some((groupName) => containsTerm(folded, fold(groupName)));
  for (const member of members) {
    if (groupNamed && !member.isFormer) {
      ids.add(member.id);
      continue;
    }
    const terms = [member.name, member.nameEn ?? '', ...member.nicknames];
    if (terms.some((term) => containsTerm(folded, fold(term)))) ids.add(member.id);
  }
  return [...ids].sort((a, b) => a - b);
}
