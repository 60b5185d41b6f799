-- Saved searches are bounded (docs/security.md): a per-address daily count reads them by client
-- and day, the retention prune by age (saved_searches_recent), and the analysis threads by query.
CREATE INDEX saved_searches_client_day ON saved_searches (client, saved_on);

-- Queries an administrator took out of popular searches and suggestions for good: later saves of
-- the same normalised text are ignored.
CREATE TABLE blocked_searches (
  query text PRIMARY KEY,
  blocked_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
