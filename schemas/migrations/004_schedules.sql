-- Schedules, categories, events, venues, platform records, activity log (api-service.md 2.1-2.5, 6).

CREATE TABLE schedule_categories (
  id          integer PRIMARY KEY,
  name        text    NOT NULL UNIQUE,
  color       text    NOT NULL,
  sort_order  integer NOT NULL
);
INSERT INTO schedule_categories (id, name, color, sort_order) VALUES
  (1,  '방송',     '#ef4444', 1),
  (2,  '공연',     '#f97316', 2),
  (3,  '팬사인회', '#eab308', 3),
  (4,  '라디오',   '#84cc16', 4),
  (5,  '발매',     '#22c55e', 5),
  (6,  '영상',     '#06b6d4', 6),
  (7,  'SNS',      '#3b82f6', 7),
  (8,  '화보',     '#8b5cf6', 8),
  (9,  '기타',     '#64748b', 10),
  (10, '생일',     '#ec4899', 9),
  (11, '행사',     '#14b8a6', 11);

CREATE TABLE schedules (
  id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  category_id  integer NOT NULL REFERENCES schedule_categories (id),
  title        text    NOT NULL,
  date         date    NOT NULL,
  time         time without time zone,
  description  text,
  source_name  text,
  source_url   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX schedules_date ON schedules (date, time NULLS LAST, id);

CREATE TABLE schedule_members (
  schedule_id  integer NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
  member_id    integer NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  PRIMARY KEY (schedule_id, member_id)
);
CREATE INDEX schedule_members_member ON schedule_members (member_id);

-- Image links of a schedule (event posters, post images), in order.
CREATE TABLE schedule_images (
  schedule_id  integer NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
  image_id     integer NOT NULL REFERENCES images (id) ON DELETE CASCADE,
  position     integer NOT NULL,
  PRIMARY KEY (schedule_id, image_id)
);
CREATE INDEX schedule_images_image ON schedule_images (image_id);

CREATE TABLE venues (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name          text NOT NULL,
  address       text NOT NULL DEFAULT '',
  road_address  text NOT NULL DEFAULT '',
  lat           double precision,
  lng           double precision,
  map_id        text
);
-- Venue upsert: match on map_id, else on name + address (4.7 step 5).
CREATE UNIQUE INDEX venues_map_id ON venues (map_id) WHERE map_id IS NOT NULL;
CREATE UNIQUE INDEX venues_name_address ON venues (name, address) WHERE map_id IS NULL;

CREATE TABLE events (
  schedule_id       integer PRIMARY KEY REFERENCES schedules (id) ON DELETE CASCADE,
  subtype           text    NOT NULL DEFAULT 'university' CHECK (subtype IN ('university')),
  school_name       text,
  venue_id          integer REFERENCES venues (id) ON DELETE SET NULL,
  post_urls         text[] CHECK (post_urls IS NULL OR cardinality(post_urls) > 0),
  poster_image_ids  integer[] CHECK (poster_image_ids IS NULL OR cardinality(poster_image_ids) > 0)
);

-- Schedules collected from the video platform and the microblog (decisions.md "Bots and platform records").
CREATE TABLE video_schedules (
  schedule_id    integer PRIMARY KEY REFERENCES schedules (id) ON DELETE CASCADE,
  video_id       text NOT NULL UNIQUE,
  channel_id     text,
  channel_name   text,
  video_type     text NOT NULL CHECK (video_type IN ('video', 'shorts')),
  thumbnail_url  text
);

CREATE TABLE post_schedules (
  schedule_id   integer PRIMARY KEY REFERENCES schedules (id) ON DELETE CASCADE,
  post_id       text NOT NULL UNIQUE,
  username      text NOT NULL,
  display_name  text,
  image_urls    text[] NOT NULL DEFAULT '{}'
);

CREATE TABLE activity_log (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor        text NOT NULL,
  action       text NOT NULL,
  category     text NOT NULL,
  target_type  text NOT NULL,
  target_id    text NOT NULL,
  summary      text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activity_log_target ON activity_log (target_type, target_id);
