// The durable mail queue (migration 021): a message is stored in the transaction that needs it,
// then delivered by whichever process runs the delivery loop (edge and actors roles). A message is
// claimed for a lease (SKIP LOCKED, so two processes never take the same one), deleted once the
// mailer accepted it, and otherwise tried again with backoff capped at MAX_BACKOFF_MS: a mail
// server that is down delays a mail, never loses it.
import type { Db, Queryable } from './db/database.ts';
import type { Mailer, MailMessage } from './mail.ts';
import { runPeriodically, type PeriodicTask } from './runtime/background.ts';
import { FailureStreak } from './runtime/failure-streak.ts';
import type { Logger } from './runtime/logger.ts';

const FIRST_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 60_000;
/** A claimed message is due again after this long if its sender died before it finished. */
const LEASE_MS = 120_000;
const POLL_MS = 2_000;
const BATCH = 20;

export async function enqueueMail(db: Queryable, message: MailMessage): Promise<void> {
  await db.none('INSERT INTO mail_queue (recipient, subject, body_text, body_html) VALUES ($1, $2, $3, $4)', [message.to, message.subject, message.text, message.html]);
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

export function startMailDelivery(db: Db, mailer: Mailer, logger: Logger): MailDelivery {
  const log = logger.child({ component: 'mail-queue' });
  const streak = new FailureStreak(log, 'mail delivery');
  let round: Promise<void> | null = null;
  let again = false;

  const deliverDue = async () => {
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
