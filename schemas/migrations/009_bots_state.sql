-- Bot state beyond 007 (decisions.md "Bots and platform records").
-- seen_until: publication time of the newest item a complete pass has walked past; a regular pass
-- stops a day before it, so a channel whose titles the filter mostly rejects is not walked to its
-- first video on every run.
ALTER TABLE bots ADD COLUMN seen_until timestamptz;

-- scheduleCount of the bot list: schedules whose platform record came from the bot's channel/account.
CREATE INDEX video_schedules_channel ON video_schedules (channel_id);
CREATE INDEX post_schedules_username ON post_schedules (lower(username));
