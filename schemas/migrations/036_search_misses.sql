-- Searches that found nothing, or found something only by leaving words out, counted by the query's
-- normalised form and nothing else (no address, no user). `score` decays by half a day
-- (docs/search.md, "Learning from misses"): it is stored as of `seen_at` and read decayed to now.
CREATE TABLE search_misses (
  query       text PRIMARY KEY CHECK (length(query) BETWEEN 1 AND 200),
  score       double precision NOT NULL,
  total       bigint NOT NULL DEFAULT 0,
  partial     boolean NOT NULL DEFAULT false,
  first_seen  timestamptz NOT NULL,
  seen_at     timestamptz NOT NULL
);
CREATE INDEX search_misses_seen ON search_misses (seen_at);
