-- The live calendar's change log (docs/live.md): one row per schedule change, written in the
-- write's own transaction under a transaction-level advisory lock, so `seq` grows in commit order
-- and a subscriber resuming "after N" can never miss a row with a smaller seq that committed later.
-- `item` is the listing row as it was at the write (the month listing's item is built from it);
-- a birthday row holds the member's birthday before and after; a reset row tells clients to refetch.
CREATE TABLE live_changes (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('created', 'updated', 'deleted', 'reset', 'birthday')),
  -- The schedule's id; a birthday row: the member's id; a reset row: 0.
  target_id integer NOT NULL,
  -- Months ('YYYY-MM') the change touches; empty for reset and birthday rows (they touch every year).
  months text[] NOT NULL DEFAULT '{}',
  item jsonb,
  -- clock_timestamp(), not now(): taken under the lock, just before the commit (the lag metric's start).
  written_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- The highest seq deleted by retention: a subscriber resuming from below it is told to refetch.
CREATE TABLE live_changes_pruned (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  through bigint NOT NULL
);
INSERT INTO live_changes_pruned (only_row, through) VALUES (true, 0);
