-- Named API tokens for automation (a script that posts schedules, a bot that reads the admin
-- calendar): stored as their SHA-256 only, with a scope, an optional expiry and the last use.
CREATE TABLE api_tokens (
  id            integer     GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name          text        NOT NULL,
  token_hash    text        NOT NULL UNIQUE,
  scope         text        NOT NULL CHECK (scope IN ('read', 'read-write')),
  created_by    text        NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz,
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
-- One live token per name: a name says which automation holds it.
CREATE UNIQUE INDEX api_tokens_live_name ON api_tokens (name) WHERE revoked_at IS NULL;
