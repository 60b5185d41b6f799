// The consistency checker's judgement (in the manner of Jepsen's checkers): it reads only what the
// clients saw (the writes they sent and what was answered, every message every subscriber received,
// the final listings) and finds every anomaly against the stream's promises (docs/live.md):
//
// - each subscriber receives each change at most once, in seq order, across all its resumes;
// - a change names the months it touched, before and after: the month of the schedule's previous
//   state (the change before it in seq order) and of its new one;
// - each subscriber receives every change that touched one of its months after it first
//   subscribed, once;
// - each subscriber's state, its messages applied in order, equals the final month listing, and
//   the two processes' listings are equal;
// - every acknowledged write is in the history; a write whose outcome the client never learned is
//   either in the history (and then delivered like any other) or seen by no one.
//
// The history of each schedule is taken from the full observers: subscribers of every month that
// stay connected to the process that is never killed, so every change reaches them live, carrying
// the schedule as that change wrote it.

export interface Delivery {
  seq: number;
  type: string;
  id: string;
  months: string[];
  /** The month of the schedule after the change (null: deleted or gone). */
  month: string | null;
  title: string | null;
  /** Received live (after the subscription's `subscribed`), not replayed on a resume. */
  live: boolean;
  receivedAt: number;
}

export interface SubscriberRecord {
  name: string;
  transport: 'websocket' | 'sse';
  months: string[];
  /** The seq of the first `subscribed`: changes after it are owed to this subscriber. */
  firstSeq: number | null;
  deliveries: Delivery[];
  /** A full observer: watches every month, never leaves the process that is never killed. */
  observer: boolean;
  /** Where each delivery arrived (the process name), for the lag split. */
  process: (delivery: Delivery) => string;
}

export interface WriteRecord {
  op: 'create' | 'move' | 'delete';
  id: string | null;
  title: string | null;
  process: string;
  /** ok: acknowledged (2xx); failed: refused or never sent; unknown: the client never learned. */
  outcome: 'ok' | 'failed' | 'unknown';
  ackedAt: number | null;
}

export interface Verdict {
  changes: number;
  deliveries: number;
  anomalies: string[];
  /** Per subscriber name, its own anomalies (the planted faults are judged by these). */
  bySubscriber: Map<string, string[]>;
  lagSameMs: number[];
  lagOtherMs: number[];
}

interface Change {
  seq: number;
  id: string;
  type: string;
  month: string | null;
  title: string | null;
  /** The months the change names, as the full observers received them. */
  named: string[];
  /**
   * The months it touched (its schedule's previous month and its new one), known when this change
   * and the one before it arrived as written; null when either arrived already compacted.
   */
  months: Set<string> | null;
  /** Arrived carrying a later state of its schedule: the log had compacted it before it was read. */
  compacted: boolean;
}

/**
 * The history: every change the full observers received live. The change log compacts a schedule's
 * earlier changes when a later one commits (they carry the newest state, or become a tombstone on
 * delete), so a change a replica read after its successor committed arrives compacted: it carries
 * the title of a later change of its schedule, or is a `deleted` before the last one. Such a change
 * says nothing of its own state; only changes that arrived as written anchor the months check.
 */
function history(subscribers: SubscriberRecord[], anomalies: string[]): Map<number, Change> {
  const changes = new Map<number, Change>();
  for (const observer of subscribers.filter((s) => s.observer)) {
    for (const d of observer.deliveries) {
      if (!d.live || !d.type.startsWith('schedule.')) continue;
      const known = changes.get(d.seq);
      if (!known) changes.set(d.seq, { seq: d.seq, id: d.id, type: d.type, month: d.month, title: d.title, named: d.months, months: null, compacted: false });
      else if (known.id !== d.id || known.type !== d.type || known.month !== d.month || known.title !== d.title) {
        anomalies.push(`seq ${d.seq}: the full observers disagree (${observer.name})`);
      }
    }
  }
  const bySchedule = new Map<string, Change[]>();
  for (const change of [...changes.values()].sort((a, b) => a.seq - b.seq)) {
    const list = bySchedule.get(change.id) ?? [];
    list.push(change);
    bySchedule.set(change.id, list);
  }
  for (const list of bySchedule.values()) {
    list.forEach((change, i) => {
      const later = list.slice(i + 1);
      change.compacted = change.type === 'schedule.deleted' ? later.length > 0 : later.some((next) => next.title === change.title);
    });
    let before: string | null | undefined = null; // undefined: unknown (the previous change arrived compacted)
    for (const change of list) {
      const after = change.type === 'schedule.deleted' ? null : change.month;
      if (!change.compacted && before !== undefined) change.months = new Set([before, after].filter((month): month is string => month !== null));
      before = change.compacted ? undefined : after;
    }
  }
  return changes;
}

const sameSet = (a: Iterable<string>, b: Iterable<string>) => {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** The months a subscriber is owed a change for: what it touched when known, else what it names. */
const monthsOf = (change: Change): Set<string> => change.months ?? new Set(change.named);

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
export { percentile };

export function judge(
  subscribers: SubscriberRecord[],
  writes: WriteRecord[],
  listings: { [process: string]: Map<string, Map<string, string>> },
  loggedSeqs: number[],
): Verdict {
  const anomalies: string[] = [];
  const changes = history(subscribers, anomalies);
  for (const seq of loggedSeqs) if (!changes.has(seq)) anomalies.push(`seq ${seq} is in the change log but no full observer received it`);

  // The processes' listings agree.
  const [first, ...others] = Object.entries(listings);
  for (const [name, listing] of others) {
    for (const [month, items] of first![1]) {
      if (!sameSet([...items].map(([id, title]) => `${id}=${title}`), [...(listing.get(month) ?? new Map())].map(([id, title]) => `${id}=${title}`))) {
        anomalies.push(`${month}: the listing of ${first![0]} differs from ${name}'s`);
      }
    }
  }
  const truth = first![1];

  const bySubscriber = new Map<string, string[]>();
  let deliveries = 0;
  const lagSameMs: number[] = [];
  const lagOtherMs: number[] = [];
  const ackOf = new Map(writes.filter((w) => w.outcome === 'ok' && w.title).map((w) => [w.title!, w]));
  for (const subscriber of subscribers) {
    const own: string[] = [];
    const watched = new Set(subscriber.months);
    let previous = -1;
    const received = new Set<number>();
    const state = new Map<string, { month: string; title: string }>();
    for (const d of subscriber.deliveries) {
      if (d.type === 'reset') {
        own.push(`reset at seq ${d.seq} (nothing in this run should cause one)`);
        continue;
      }
      if (!d.type.startsWith('schedule.')) continue;
      deliveries++;
      if (d.seq <= previous) own.push(`seq ${d.seq} after ${previous}: ${d.seq === previous || received.has(d.seq) ? 'delivered twice' : 'out of order'}`);
      previous = Math.max(previous, d.seq);
      received.add(d.seq);
      const change = changes.get(d.seq);
      if (change?.months && !sameSet(d.months, change.months)) own.push(`seq ${d.seq} (schedule ${d.id}) names ${d.months.join(',')} but touched ${[...change.months].join(',')}`);
      else if (change && !change.compacted && change.month && change.type !== 'schedule.deleted' && !d.months.includes(change.month)) own.push(`seq ${d.seq} (schedule ${d.id}) does not name the month it moved to, ${change.month}`);
      if (d.type === 'schedule.deleted' || d.month === null) state.delete(d.id);
      else state.set(d.id, { month: d.month, title: d.title ?? '' });
      const write = d.live && d.title ? ackOf.get(d.title) : undefined;
      if (write?.ackedAt) (subscriber.process(d) === write.process ? lagSameMs : lagOtherMs).push(Math.max(0, d.receivedAt - write.ackedAt));
    }
    if (subscriber.firstSeq !== null) {
      for (const change of changes.values()) {
        if (change.seq <= subscriber.firstSeq || received.has(change.seq)) continue;
        if ([...monthsOf(change)].some((month) => watched.has(month))) own.push(`missed seq ${change.seq} (schedule ${change.id}, ${[...monthsOf(change)].join(',')})`);
      }
    }
    // Its state for each month, against the listing, for every schedule it is owed an account of.
    for (const month of subscriber.months) {
      const listed = truth.get(month) ?? new Map<string, string>();
      for (const id of owed(month, changes, subscriber.firstSeq)) {
        const mine = state.get(id);
        const actual = mine?.month === month ? mine.title : undefined;
        if (actual !== listed.get(id)) own.push(`${month}: schedule ${id} is ${actual === undefined ? 'absent' : `'${actual}'`} for it, ${listed.has(id) ? `'${listed.get(id)}'` : 'absent'} in the listing`);
      }
    }
    bySubscriber.set(subscriber.name, own);
  }

  // Writes: every acknowledged one is in the history, as written or (a later change of its schedule
  // having compacted it) as one of its schedule's compacted changes; an unknown one everywhere or nowhere.
  const titles = new Set([...changes.values()].map((c) => c.title).filter(Boolean));
  const deletedIds = new Set([...changes.values()].filter((c) => c.type === 'schedule.deleted').map((c) => c.id));
  const seenTitles = new Set(subscribers.flatMap((s) => s.deliveries.map((d) => d.title)).filter(Boolean));
  const compactedOf = new Map<string, number>();
  for (const change of changes.values()) if (change.compacted) compactedOf.set(change.id, (compactedOf.get(change.id) ?? 0) + 1);
  const unaccounted = new Map<string, string[]>();
  for (const write of writes) {
    if (write.outcome === 'ok' && write.op !== 'delete' && !titles.has(write.title)) unaccounted.set(write.id ?? '?', [...(unaccounted.get(write.id ?? '?') ?? []), write.title!]);
    if (write.outcome === 'ok' && write.op === 'delete' && !deletedIds.has(write.id!)) anomalies.push(`acknowledged delete of ${write.id} is in no change`);
    if (write.outcome !== 'ok' && write.title && !titles.has(write.title) && seenTitles.has(write.title) && !compactedOf.has(write.id ?? '?')) anomalies.push(`${write.outcome} ${write.op} '${write.title}' reached some subscriber but is in no change`);
  }
  for (const [id, lost] of unaccounted) {
    if (lost.length > (compactedOf.get(id) ?? 0)) anomalies.push(`acknowledged writes of schedule ${id} in no change: ${lost.join(', ')}`);
  }
  return { changes: changes.size, deliveries, anomalies, bySubscriber, lagSameMs, lagOtherMs };
}

/** Schedules a subscriber owes an account of in a month: those changed in it after it first subscribed. */
function owed(month: string, changes: Map<number, Change>, firstSeq: number | null): Set<string> {
  const ids = new Set<string>();
  if (firstSeq === null) return ids;
  for (const change of changes.values()) if (change.seq > firstSeq && monthsOf(change).has(month)) ids.add(change.id);
  return ids;
}
