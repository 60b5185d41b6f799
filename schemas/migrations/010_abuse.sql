-- Abuse limits (README, "Abuse limits"): slowing down one account attacked from many addresses,
-- registrations per client address, and saves that count toward popular searches once per
-- address, query and day. The per-address login lockout keeps login_attempts (001).

-- Counted login failures per account (user or administrator id), whatever address they came from.
CREATE TABLE login_account_failures (
  scope            text        NOT NULL,   -- 'user' or 'admin', as login_attempts
  account_id       integer     NOT NULL,
  failure_count    integer     NOT NULL,
  last_failure_at  timestamptz NOT NULL,
  PRIMARY KEY (scope, account_id)
);

-- Registrations per client address in a one-hour window that starts with its first registration.
CREATE TABLE registration_windows (
  ip            text        PRIMARY KEY,
  window_start  timestamptz NOT NULL,
  count         integer     NOT NULL
);

-- Who saved a search, and on which day (UTC): one row per address, query and day. Rows saved
-- before this migration have neither and each counts as its own address.
ALTER TABLE saved_searches ADD COLUMN client text, ADD COLUMN saved_on date;
CREATE UNIQUE INDEX saved_searches_once_a_day ON saved_searches (query, client, saved_on);
