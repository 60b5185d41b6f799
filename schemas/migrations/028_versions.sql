-- A version on each resource an administrator edits, for ETag and If-Match: two administrators (or
-- an administrator and a bot) who both read version 3 cannot both write over it. A trigger bumps it
-- on every update of the row, whatever statement makes it (a route, a bot's upsert, a reorder), so
-- no write path can forget; writes that change only a resource's children (an album's tracks)
-- update the row to bump it. Schedules already have theirs: `revision` (migration 023), bumped the
-- same way for the calendar feed's SEQUENCE.
CREATE OR REPLACE FUNCTION bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END
$$;

ALTER TABLE albums ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1;
ALTER TABLE members ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1;
ALTER TABLE schedule_categories ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1;

CREATE OR REPLACE TRIGGER albums_version BEFORE UPDATE ON albums FOR EACH ROW EXECUTE FUNCTION bump_version();
CREATE OR REPLACE TRIGGER members_version BEFORE UPDATE ON members FOR EACH ROW EXECUTE FUNCTION bump_version();
CREATE OR REPLACE TRIGGER schedule_categories_version BEFORE UPDATE ON schedule_categories FOR EACH ROW EXECUTE FUNCTION bump_version();
