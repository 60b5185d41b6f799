-- Images, members and albums (api-service.md 2.4, 2.8; decisions.md "Members and albums").

-- One record per uploaded image: the original as uploaded and two WebP sizes. The storage keys
-- are kept so that deleting the record can delete its files.
CREATE TABLE images (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  original_url  text NOT NULL,
  medium_url    text NOT NULL,
  thumb_url     text NOT NULL,
  original_key  text NOT NULL,
  medium_key    text NOT NULL,
  thumb_key     text NOT NULL,
  width         integer NOT NULL,
  height        integer NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE members (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text    NOT NULL UNIQUE,
  name_en     text,
  birth_date  date,
  position    text,
  image_id    integer REFERENCES images (id) ON DELETE SET NULL,
  instagram   text,
  is_former   boolean NOT NULL DEFAULT false,
  sort_order  integer NOT NULL DEFAULT 0,
  nicknames   text[]  NOT NULL DEFAULT '{}'
);

CREATE TABLE albums (
  id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  title           text NOT NULL UNIQUE,
  album_type      text NOT NULL,
  release_date    date,
  cover_image_id  integer REFERENCES images (id) ON DELETE SET NULL,
  description     text,
  created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tracks (
  id               integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  album_id         integer NOT NULL REFERENCES albums (id) ON DELETE CASCADE,
  track_number     integer NOT NULL CHECK (track_number > 0),
  title            text    NOT NULL,
  is_title_track   boolean NOT NULL DEFAULT false,
  duration         text,
  lyricist         text,
  composer         text,
  arranger         text,
  lyrics           text,
  music_video_url  text,
  UNIQUE (album_id, track_number)
);
CREATE INDEX tracks_title ON tracks (album_id, title);

CREATE TABLE album_photos (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  album_id    integer NOT NULL REFERENCES albums (id) ON DELETE CASCADE,
  image_id    integer NOT NULL REFERENCES images (id),
  concept     text,
  member_ids  integer[] NOT NULL DEFAULT '{}',
  sort_order  integer NOT NULL DEFAULT 0
);
CREATE INDEX album_photos_album ON album_photos (album_id, sort_order);

CREATE TABLE album_teasers (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  album_id      integer NOT NULL REFERENCES albums (id) ON DELETE CASCADE,
  kind          text    NOT NULL CHECK (kind IN ('image', 'video')),
  image_id      integer REFERENCES images (id),
  original_url  text    NOT NULL,
  original_key  text    NOT NULL,
  thumb_url     text,
  sort_order    integer NOT NULL DEFAULT 0
);
CREATE INDEX album_teasers_album ON album_teasers (album_id, sort_order);
