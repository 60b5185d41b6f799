// Cache invalidation fan-out: every edge replica drops the months named by schedule.changed, so a
// write on one replica (or by the schedule writer in the actors role) reaches all caches. Each
// running service is its own consumer group and starts from the newest message: a replica with an empty
// cache has nothing stale to drop. The group is deleted when the service stops.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { TOPICS, type Bus, type Subscription } from '../../shared/bus/bus.ts';
import type { ScheduleChangedMessage } from '../../shared/schedule-changes.ts';
import type { Services } from '../../shared/services.ts';

/** One group per running service (not per process: a test may run two services in one process). */
export function cacheInvalidationGroup(): string {
  return `cache-invalidation-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export function startCacheInvalidation(s: Services, bus: Bus): Promise<Subscription> {
  return bus.subscribe(cacheInvalidationGroup(), [TOPICS.scheduleChanged], async (message) => {
    const change = message.value as ScheduleChangedMessage;
    for (const { year, month } of change.months) s.monthlyCache.invalidate(year, month);
  }, { maxAttempts: 1, startAt: 'latest', ephemeral: true });
}
