// What every schedule write does besides its own rows: an outbox entry in the same transaction
// (the indexer and other replicas' caches follow it), and after the commit the months' cache
// invalidated and, for admin writes, the index updated inline so the caller reads its own write.
import { appendOutbox } from '../bus/outbox.ts';
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

export async function recordScheduleChange(tx: Writer, ...changes: ScheduleChange[]): Promise<void> {
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

/** After the commit: drop the cached months; with `syncIndex`, update the search index now. */
export async function afterScheduleCommit(s: Services, change: ScheduleChange, options: { syncIndex: boolean }): Promise<void> {
  for (const { year, month } of monthsOf(change.dates)) s.monthlyCache.invalidate(year, month);
  s.analysis.schedulesChanged();
  if (!options.syncIndex) return;
  try {
    await syncSchedules(s.db, s.search, [change.scheduleId]);
  } catch (error) {
    // The outbox entry reaches the indexer, which repairs the entry.
    s.logger.warn({ err: error, scheduleId: change.scheduleId }, 'inline index update failed; the indexer will repair it');
  }
}
