-- Administrators (decisions.md, "Administrator authentication"): their own table, bcrypt cost 10.
CREATE TABLE admin_users (
  id             integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username       text        NOT NULL UNIQUE,
  password_hash  text        NOT NULL CHECK (password_hash ~ '^\$2[aby]\$\d\d\$.{53}$'),
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
