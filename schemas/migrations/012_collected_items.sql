-- Exact bot work (decisions.md "Bots and platform records"): every item a bot hands to the schedule
-- writer is recorded here once, in the same transaction as its outbox entry. A pass counts as
-- `added` only the items it inserted here, so an item still on its way to the writer is not counted
-- (or sent) twice, and an immediate second sync-all adds 0.
CREATE TABLE collected_items (
  platform      text        NOT NULL CHECK (platform IN ('video', 'post')),
  item_id       text        NOT NULL,
  -- The channel id (video) or the lower-case account name (post) it came from.
  source        text        NOT NULL,
  bot_id        text,
  collected_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (platform, item_id)
);
CREATE INDEX collected_items_source ON collected_items (platform, source);

-- Items that already have a schedule count as collected.
INSERT INTO collected_items (platform, item_id, source)
SELECT 'video', video_id, coalesce(channel_id, '') FROM video_schedules
ON CONFLICT DO NOTHING;
INSERT INTO collected_items (platform, item_id, source)
SELECT 'post', post_id, lower(username) FROM post_schedules
ON CONFLICT DO NOTHING;

-- The pass a bot is running now, shown in the bot list: {phase, pages, seen, added}, with the time
-- of its last update (a pass whose process died stops being shown after a while).
ALTER TABLE bots ADD COLUMN progress jsonb;
ALTER TABLE bots ADD COLUMN progress_at timestamptz;
