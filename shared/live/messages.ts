// What a change-log row becomes on the wire (docs/live.md, "Messages"): the JSON a WebSocket
// client receives and the event an EventSource receives, made once per row and shared by every
// subscriber. A birthday row becomes one message per year that a subscriber watches, since a
// birthday is listed in every year.
import type { Category, ItemRow, ScheduleItem } from '../db/repositories/schedules.ts';
import { toItem } from '../db/repositories/schedules.ts';
import { birthdayIn } from '../schedules/calendar.ts';
import type { BirthdayChange, BirthdayState, LiveRow } from './change-log.ts';

export type ChangeType = 'schedule.created' | 'schedule.updated' | 'schedule.deleted';

export interface LiveMessage {
  seq: number;
  type: ChangeType | 'reset';
  /** Months the message concerns; empty for a reset (every month). */
  months: string[];
  /** The WebSocket message. */
  json: string;
  /** When the change was written (ms since the epoch): delivery lag starts here. */
  writtenAt: number;
  /** The Server-Sent Event, made on first use and shared by every stream (sseFrame). */
  sse?: string;
  /** The WebSocket message's UTF-8 bytes, made on first use and shared by every replay (wireBytes). */
  bytes?: Buffer;
}

/** 'YYYY-MM' of a year from 1900 to 2999 and a month 01-12. */
export const MONTH_KEY = /^(19|2\d)\d{2}-(0[1-9]|1[0-2])$/;

const TYPES = { created: 'schedule.created', updated: 'schedule.updated', deleted: 'schedule.deleted' } as const;

export function resetMessage(seq: number, writtenAt = Date.now()): LiveMessage {
  return { seq, type: 'reset', months: [], json: JSON.stringify({ type: 'reset', seq }), writtenAt };
}

const change = (seq: number, type: ChangeType, id: number | string, months: string[], schedule: ScheduleItem | null, writtenAt: number): LiveMessage => ({
  seq, type, months, writtenAt, json: JSON.stringify({ type, seq, id, months, schedule }),
});

/** A birthday's listing item, as the month listing shows it (shared/schedules/calendar.ts). */
function birthdayItem(memberId: number, state: BirthdayState, date: string, year: number, category: Category): ScheduleItem {
  return { id: `birthday-${memberId}-${year}`, title: `${state.name} 생일`, date, time: null, category, source: null, members: [{ id: memberId, name: state.name }], isBirthday: true };
}

/** A birthday is listed from the year of birth on. */
const listedIn = (state: BirthdayState | null, year: number) => (state && year >= Number(state.birthDate.slice(0, 4)) ? birthdayIn(year, state.birthDate) : null);

function birthdayMessages(row: LiveRow, watched: ReadonlySet<string>, category: Category): LiveMessage[] {
  const { memberId, before, after } = row.item as BirthdayChange;
  const years = [...new Set([...watched].map((month) => Number(month.slice(0, 4))))].sort((a, b) => a - b);
  const messages: LiveMessage[] = [];
  for (const year of years) {
    const was = listedIn(before, year);
    const is = listedIn(after, year);
    if (was === is) continue;
    const months = [...new Set([was, is].filter((date): date is string => date !== null).map((date) => date.slice(0, 7)))];
    if (!months.some((month) => watched.has(month))) continue;
    const type = was && is ? TYPES.updated : is ? TYPES.created : TYPES.deleted;
    messages.push(change(row.seq, type, `birthday-${memberId}-${year}`, months, is ? birthdayItem(memberId, after!, is, year, category) : null, row.writtenAt));
  }
  return messages;
}

/**
 * The messages of one row for subscribers watching `watched` months: a schedule change is one
 * message (whoever watches it); a birthday, one per watched year it shows in; a reset, one.
 */
export function messagesOf(row: LiveRow, watched: ReadonlySet<string>, birthdayCategory: Category): LiveMessage[] {
  switch (row.kind) {
    case 'reset':
      return [resetMessage(row.seq, row.writtenAt)];
    case 'birthday':
      return birthdayMessages(row, watched, birthdayCategory);
    default: {
      const schedule = row.kind === 'deleted' || row.item === null ? null : toItem(row.item as ItemRow);
      return [change(row.seq, TYPES[row.kind], row.targetId, row.months, schedule, row.writtenAt)];
    }
  }
}

/** Consecutive resets say the same thing: only the last of each run is kept. */
export function collapseResets(messages: LiveMessage[]): LiveMessage[] {
  return messages.filter((message, i) => message.type !== 'reset' || messages[i + 1]?.type !== 'reset');
}

/** The same message as a Server-Sent Event: its seq as the event id, its type as the event name. */
export function sseEvent(message: { seq: number; type: string; json: string }): string {
  return `id: ${message.seq}\nevent: ${message.type}\ndata: ${message.json}\n\n`;
}

/** A message's bytes for a WebSocket, encoded once however many sockets a replay sends it to. */
export function wireBytes(message: LiveMessage): Buffer {
  return (message.bytes ??= Buffer.from(message.json));
}

/** A message's Server-Sent Event, made once however many streams receive it. */
export function sseFrame(message: LiveMessage): string {
  return (message.sse ??= sseEvent(message));
}
