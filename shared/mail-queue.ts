// The durable mail queue (migration 021): a message is stored in the transaction that needs it,
// then delivered by whichever process runs the delivery loop (edge and actors roles). A message is
// claimed for a lease (SKIP LOCKED, so two processes never take the same one), deleted once the
// mailer accepted it, and otherwise tried again with backoff doubling from 1 s to MAX_BACKOFF_MS.
// A mail server that is down delays a mail up to MAIL_MAX_AGE_HOURS (the verification link's own
// lifetime by default: older, the mail is of no use), then it is dropped and logged. The queue
// holds at most MAIL_QUEUE_MAX mails: past it, the write that would queue one is refused, so
// clients rotating addresses while the mail server is down cannot grow it without end.
import type { Db, Queryable } from './db/database.ts';
import type { Mailer, MailMessage } from './mail.ts';
import { runPeriodically, type PeriodicTask } from './runtime/background.ts';
import { FailureStreak } from './runtime/failure-streak.ts';
import type { Logger } from './runtime/logger.ts';
import { HttpError } from './errors.ts';

const FIRST_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 60_000;
/** A claimed message is due again after this long if its sender died before it finished. */
const LEASE_MS = 120_000;
const POLL_MS = 2_000;
const BATCH = 20;

/** Seconds a client refused because the mail queue is full is told to wait (Retry-After). */
const QUEUE_FULL_RETRY_AFTER_S = 60;

/** 503: the queue holds MAIL_QUEUE_MAX mails already (the mail server is likely down). */
export const mailQueueFull = () =>
  new HttpError(503, '메일 발송이 밀려 있어 지금은 가입을 받을 수 없습니다. 잠시 후 다시 시도해 주세요.', { 'Retry-After': String(QUEUE_FULL_RETRY_AFTER_S) }, 'mail_queue_full');

/** True when `maxPending` mails wait already: checked before any other work of a write that would queue one. */
export async function mailQueueIsFull(db: Queryable, maxPending: number): Promise<boolean> {
  // Counts at most maxPending rows, whatever the table holds.
  const { n } = await db.one<{ n: number }>('SELECT count(*)::int AS n FROM (SELECT 1 FROM mail_queue LIMIT $1) AS pending', [maxPending]);
  return n >= maxPending;
}

/**
 * Queues a message in the caller's transaction; throws mailQueueFull (rolling the transaction back)
 * when `maxPending` mails wait already. Concurrent writers may each take the last place: the cap
 * is exceeded by at most the writers in flight at once.
 */
export async function enqueueMail(db: Queryable, message: MailMessage, maxPending: number): Promise<void> {
  const inserted = await db.result(
    `INSERT INTO mail_queue (recipient, subject, body_text, body_html)
     SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM (SELECT 1 FROM mail_queue LIMIT $5) AS pending) < $5`,
    [message.to, message.subject, message.text, message.html, maxPending],
  );
  if (inserted.rowCount === 0) throw mailQueueFull();
}

interface QueuedMail {
  id: number;
  recipient: string;
  subject: string;
  body_text: string;
  body_html: string;
  attempts: number;
}

export interface MailDelivery {
  /** Look for due mail now (a message was just queued). */
  wake(): void;
  stop(): Promise<void>;
}

export function startMailDelivery(db: Db, mailer: Mailer, logger: Logger, maxAgeHours: number): MailDelivery {
  const log = logger.child({ component: 'mail-queue' });
  const streak = new FailureStreak(log, 'mail delivery');
  let round: Promise<void> | null = null;
  let again = false;

  /** Mails older than maxAgeHours are dropped, one warning each (never the recipient: no e-mail in logs). */
  const dropExpired = async () => {
    const dropped = await db.any<{ id: number; attempts: number; last_error: string | null; age_hours: number }>(
      `DELETE FROM mail_queue WHERE created_at < clock_timestamp() - $1 * interval '1 hour'
        RETURNING id, attempts, last_error, round(extract(epoch FROM clock_timestamp() - created_at) / 3600, 1)::float8 AS age_hours`,
      [maxAgeHours],
    );
    for (const mail of dropped) {
      log.warn({ mailId: mail.id, attempts: mail.attempts, lastError: mail.last_error, ageHours: mail.age_hours, maxAgeHours }, 'mail dropped undelivered: older than MAIL_MAX_AGE_HOURS');
    }
  };

  const deliverDue = async () => {
    await dropExpired();
    for (;;) {
      const due = await db.any<QueuedMail>(
        `UPDATE mail_queue SET next_attempt_at = clock_timestamp() + $1 * interval '1 millisecond'
          WHERE id IN (SELECT id FROM mail_queue WHERE next_attempt_at <= clock_timestamp() ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING id, recipient, subject, body_text, body_html, attempts`,
        [LEASE_MS, BATCH],
      );
      for (const mail of due) {
        try {
          await mailer.send({ to: mail.recipient, subject: mail.subject, text: mail.body_text, html: mail.body_html });
          await db.none('DELETE FROM mail_queue WHERE id = $1', [mail.id]);
          streak.succeeded();
        } catch (error) {
          const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** mail.attempts);
          streak.failed(error, { mailId: mail.id, attempts: mail.attempts + 1, retryInMs: backoff });
          await db.none(
            `UPDATE mail_queue SET attempts = attempts + 1, last_error = $2, next_attempt_at = clock_timestamp() + $3 * interval '1 millisecond' WHERE id = $1`,
            [mail.id, error instanceof Error ? error.message.slice(0, 500) : String(error), backoff],
          );
        }
      }
      if (due.length < BATCH) return;
    }
  };
  /** One round at a time; a wake during a round runs another after it. */
  const run = (): Promise<void> => {
    if (round) {
      again = true;
      return round;
    }
    round = deliverDue()
      .catch((error: unknown) => streak.failed(error))
      .finally(() => {
        round = null;
        if (again) {
          again = false;
          void run();
        }
      });
    return round;
  };
  const periodic: PeriodicTask = runPeriodically(run, () => undefined, POLL_MS);
  return {
    wake: () => void run(),
    stop: async () => {
      await periodic.stop();
      await round;
    },
  };
}
