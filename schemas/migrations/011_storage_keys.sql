-- Stored files are referenced by key, and their URLs are built when answering: data
-- written under one PUBLIC_BASE_URL / STORAGE_URL answers with the current one after a restart.
--
-- storage_url(ref): a key of our storage (`event/12/poster/01.jpeg`) becomes
-- `<base>/<key>`, where <base> is the connection's `app.storage_base_url` setting (set by the
-- service on every new connection: `<PUBLIC_BASE_URL>/storage/<bucket>` or `<STORAGE_URL>/<bucket>`);
-- an absolute URL (anything with a scheme) is returned as it is. Keys the service makes are
-- URL-safe (ASCII letters, digits, `/`, `.`, `_`, `-`), so no encoding is needed here.
CREATE FUNCTION storage_url(ref text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN ref IS NULL OR ref ~ '^[A-Za-z][A-Za-z0-9+.-]*:' THEN ref
    WHEN coalesce(current_setting('app.storage_base_url', true), '') = '' THEN ref
    ELSE rtrim(current_setting('app.storage_base_url', true), '/') || '/' || ref
  END
$$;

-- Absolute URLs of our own storage become keys. An image's and a teaser's URL ends with its key
-- (percent-encoded per segment, which changes nothing for the keys the service makes).
UPDATE images SET original_url = original_key WHERE original_url ~ '^[A-Za-z][A-Za-z0-9+.-]*://' AND right(original_url, length(original_key) + 1) = '/' || original_key;
UPDATE images SET medium_url = medium_key WHERE medium_url ~ '^[A-Za-z][A-Za-z0-9+.-]*://' AND right(medium_url, length(medium_key) + 1) = '/' || medium_key;
UPDATE images SET thumb_url = thumb_key WHERE thumb_url ~ '^[A-Za-z][A-Za-z0-9+.-]*://' AND right(thumb_url, length(thumb_key) + 1) = '/' || thumb_key;
UPDATE album_teasers SET original_url = original_key WHERE original_url ~ '^[A-Za-z][A-Za-z0-9+.-]*://' AND right(original_url, length(original_key) + 1) = '/' || original_key;
UPDATE album_teasers t SET thumb_url = i.thumb_key
  FROM images i
  WHERE t.image_id = i.id AND t.thumb_url ~ '^[A-Za-z][A-Za-z0-9+.-]*://' AND right(t.thumb_url, length(i.thumb_key) + 1) = '/' || i.thumb_key;
-- Default profile pictures: `<anything>/profile/default_profile_<n>.png` → `profile/default_profile_<n>.png`.
UPDATE users SET profile_url = substring(profile_url FROM '(profile/default_profile_[0-9]+\.png)$')
  WHERE profile_url ~ '^[A-Za-z][A-Za-z0-9+.-]*://.*/profile/default_profile_[0-9]+\.png$';
