-- Accounts people can recover: password reset links, a version that revokes a user's tokens, and
-- per-key hourly windows for the mails anyone can ask for (reset, verification again).

-- Raised by a password reset or change: user tokens signed with another version are refused.
ALTER TABLE users ADD COLUMN token_version integer NOT NULL DEFAULT 0;

-- A reset link's token, stored as its SHA-256 (the token itself is only in the mail). Used links
-- stay until their expiry so a second use is told apart from an unknown token.
CREATE TABLE password_resets (
  token_hash  text        PRIMARY KEY,
  user_id     integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_resets_user ON password_resets (user_id);

-- Mails asked for per key ('client:<client key>', 'reset:<address>', 'verify:<address>') in a
-- one-hour window that starts with the key's first request.
CREATE TABLE account_mail_windows (
  key           text        PRIMARY KEY,
  window_start  timestamptz NOT NULL,
  count         integer     NOT NULL
);
CREATE INDEX account_mail_windows_start ON account_mail_windows (window_start);
