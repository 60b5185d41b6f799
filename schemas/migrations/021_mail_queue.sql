-- Outgoing mail waits here until the SMTP server (or the mail directory) accepts it: a message is
-- queued in the transaction that makes it necessary (a registration), so an acknowledged
-- registration always has its verification mail, and a failed send is retried, never lost.
CREATE TABLE mail_queue (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  recipient        text        NOT NULL,
  subject          text        NOT NULL,
  body_text        text        NOT NULL,
  body_html        text        NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
  attempts         integer     NOT NULL DEFAULT 0,
  -- Due from this time; a sender that claims a message moves it a lease ahead.
  next_attempt_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  last_error       text
);
CREATE INDEX mail_queue_due ON mail_queue (next_attempt_at);
