// What every schedule write does besides its own rows: an outbox entry and a live change-log row
// in the same transaction (the indexer, other replicas' caches and the live calendar follow them),
// and after the commit the months' cache invalidated, this replica's live subscribers woken and,
// for admin writes, the index updated inline so the caller reads its own write.
import { appendOutbox } from '../bus/outbox.ts';
import { appendLiveChanges, type BirthdayState, type LiveEntry } from '../live/change-log.ts';
import { TOPICS } from '../bus/bus.ts';
import type { Writer } from '../db/database.ts';
import { monthOf } from '../db/repositories/schedules.ts';
import { syncSchedules } from '../search/sync.ts';
import type { Services } from '../services.ts';

export interface ScheduleChange {
  scheduleId: number;
  action: 'create' | 'update' | 'delete';
  /** Dates the schedule had before and after the write (YYYY-MM-DD): their months are invalidated. */
  dates: string[];
  /** Members changed in the same write (their birthdays are listed in every year): every month goes. */
  everyMonth?: boolean;
}

export interface ScheduleChangedMessage {
  scheduleId: number;
  action: ScheduleChange['action'];
  months: Array<{ year: number; month: number }>;
  everyMonth?: true;
}

const monthsOf = (dates: string[]) => {
  const seen = new Map<string, { year: number; month: number }>();
  for (const date of dates) seen.set(date.slice(0, 7), monthOf(date));
  return [...seen.values()];
};

const LIVE_KIND = { create: 'created', update: 'updated', delete: 'deleted' } as const;

/** A change as the live calendar sees it: a change of every month (categories, the demo seed) is a reset. */
const liveEntry = (change: ScheduleChange): LiveEntry =>
  change.everyMonth
    ? { kind: 'reset', targetId: 0, months: [] }
    : { kind: LIVE_KIND[change.action], targetId: change.scheduleId, months: [...new Set(change.dates.map((date) => date.slice(0, 7)))] };

export async function recordScheduleChange(tx: Writer, ...changes: ScheduleChange[]): Promise<void> {
  await appendLiveChanges(tx, changes.map(liveEntry));
  await appendOutbox(
    tx,
    ...changes.map((change) => ({
      topic: TOPICS.scheduleChanged,
      key: String(change.scheduleId),
      payload: {
        scheduleId: change.scheduleId,
        action: change.action,
        months: monthsOf(change.dates),
        ...(change.everyMonth ? { everyMonth: true as const } : {}),
      } satisfies ScheduleChangedMessage,
    })),
  );
}

/**
 * A member's change as the listings see it: a new name is in every schedule of the member (a
 * reset); otherwise only the birthday, listed in every year, may have appeared, moved or gone. The
 * outbox entry drops every replica's cached months.
 */
export async function recordMemberChange(tx: Writer, memberId: number, before: MemberListing, after: MemberListing): Promise<void> {
  const birthday = (member: MemberListing): BirthdayState | null => (!member.isFormer && member.birthDate ? { name: member.name, birthDate: member.birthDate } : null);
  const [was, is] = [birthday(before), birthday(after)];
  let entry: LiveEntry | null = null;
  if (before.name !== after.name) entry = { kind: 'reset', targetId: 0, months: [] };
  else if (was?.birthDate !== is?.birthDate) entry = { kind: 'birthday', targetId: memberId, months: [], item: { memberId, before: was, after: is } };
  if (!entry) return;
  await appendLiveChanges(tx, [entry]);
  await appendOutbox(tx, { topic: TOPICS.scheduleChanged, key: '0', payload: { scheduleId: 0, action: 'update', months: [], everyMonth: true } satisfies ScheduleChangedMessage });
}

/** What of a member the month listing shows. */
export interface MemberListing {
  name: string;
  birthDate: string | null;
  isFormer: boolean;
}

/** After the commit: drop the cached months, wake this replica's live subscribers; with `syncIndex`, update the search index now. */
export async function afterScheduleCommit(s: Services, change: ScheduleChange, options: { syncIndex: boolean }): Promise<void> {
  for (const { year, month } of monthsOf(change.dates)) s.monthlyCache.invalidate(year, month);
  s.live?.wake();
  s.analysis.schedulesChanged();
  if (!options.syncIndex) return;
  try {
    await syncSchedules(s.db, s.search, [change.scheduleId]);
  } catch (error) {
    // The outbox entry reaches the indexer, which repairs the entry.
    s.logger.warn({ err: error, scheduleId: change.scheduleId }, 'inline index update failed; the indexer will repair it');
  }
}
