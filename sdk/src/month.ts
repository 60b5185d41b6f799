// A month's listing kept current from the live stream: fetched once the subscription is live (so
// no change falls between the two), changed in place by each message, fetched again on `reset`.
import type { ApiError } from './errors.js';
import type { Client, MonthListing, ScheduleItem } from './client.js';
import type { ChangeMessage, LiveStatus, Subscription } from './live.js';

export interface FollowMonthHandlers {
  /** The listing as it now is (a fresh array each time). */
  onUpdate(listing: MonthListing, change?: ChangeMessage): void;
  onStatus?(status: LiveStatus, detail?: { delayMs?: number; reason?: string }): void;
  /** A failed fetch (retried on the next reset or reconnect) or the subscription stopping. */
  onError?(error: unknown): void;
}

export interface FollowedMonth {
  readonly listing: MonthListing | undefined;
  readonly subscription: Subscription;
  close(): void;
}

/** The listing's order: by date; then timed items by time, birthdays, untimed items (ties keep their order). */
function order(item: ScheduleItem): [string, number, string] {
  if (item.isBirthday) return [item.date, 1, ''];
  return item.time ? [item.date, 0, item.time] : [item.date, 2, ''];
}

function sorted(items: ScheduleItem[]): ScheduleItem[] {
  return items
    .map((item, index) => ({ item, index, key: order(item) }))
    .sort((a, b) => a.key[0].localeCompare(b.key[0]) || a.key[1] - b.key[1] || a.key[2].localeCompare(b.key[2]) || a.index - b.index)
    .map(({ item }) => item);
}

/** The listing after one change: the item leaves, and comes back in its place if it is (still) in this month. */
export function applyChange(listing: MonthListing, change: ChangeMessage): MonthListing {
  const month = `${listing.year}-${String(listing.month).padStart(2, '0')}`;
  const schedules = listing.schedules.filter((item) => item.id !== change.id);
  if (change.type !== 'schedule.deleted' && change.schedule && change.schedule.date.startsWith(`${month}-`)) schedules.push(change.schedule);
  return { ...listing, schedules: sorted(schedules) };
}

export function followMonth(client: Client, year: number, month: number, handlers: FollowMonthHandlers): FollowedMonth {
  const key = `${year}-${String(month).padStart(2, '0')}`;
  let listing: MonthListing | undefined;
  /** Changes that arrive while a fetch is in flight, applied on top of what it returns. */
  let pending: ChangeMessage[] | undefined;
  let fetches = 0;

  const refetch = async () => {
    const mine = ++fetches;
    pending = [];
    try {
      const fresh = await client.schedules.month(year, month, { cache: 'no-cache' });
      if (mine !== fetches) return; // a newer fetch (another reset) wins
      listing = pending.reduce(applyChange, fresh);
      pending = undefined;
      handlers.onUpdate(listing);
    } catch (error) {
      if (mine === fetches) pending = undefined;
      handlers.onError?.(error);
    }
  };

  const subscription = client.live.subscribe({ months: [key] }, {
    onSubscribed: () => {
      // The first time only: after a reconnect the missed changes arrive as messages.
      if (listing === undefined && pending === undefined) void refetch();
    },
    onReset: () => void refetch(),
    onChange: (change) => {
      if (pending) pending.push(change);
      else if (listing) {
        listing = applyChange(listing, change);
        handlers.onUpdate(listing, change);
      }
    },
    ...(handlers.onStatus ? { onStatus: handlers.onStatus } : {}),
    onError: (error: ApiError) => handlers.onError?.(error),
  });

  return {
    get listing() {
      return listing;
    },
    subscription,
    close: () => subscription.close(),
  };
}
