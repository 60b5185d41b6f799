-- Collection bots (decisions.md "Bots and platform records"): defined by BOTS_CONFIG, synchronised
-- here at start; their state lives here and survives restarts.
CREATE TABLE bots (
  id                text PRIMARY KEY CHECK (id ~ '^[a-z0-9-]+$'),
  name              text    NOT NULL,
  type              text    NOT NULL CHECK (type IN ('video', 'microblog')),
  status            text    NOT NULL DEFAULT 'stopped' CHECK (status IN ('running', 'stopped', 'error')),
  interval_minutes  integer NOT NULL CHECK (interval_minutes > 0),
  config            jsonb   NOT NULL,
  last_check_at     timestamptz,
  last_added_count  integer NOT NULL DEFAULT 0,
  error_message     text,
  error_count       integer NOT NULL DEFAULT 0,
  next_run_at       timestamptz,
  updated_at        timestamptz NOT NULL DEFAULT now()
);

-- The video platform's daily quota warning (one row when active).
CREATE TABLE quota_warning (
  id         integer PRIMARY KEY CHECK (id = 1),
  message    text        NOT NULL,
  since      timestamptz NOT NULL DEFAULT now(),
  resume_at  timestamptz NOT NULL
);
