-- Administrator tokens can be revoked: each token carries the token_version of its
-- administrator when it was signed, and counts only while that is still the stored one. A password
-- change (ADMIN_PASSWORD at start), `npm run admin -- disable|revoke` raise it. A disabled
-- administrator cannot log in until enabled again.
ALTER TABLE admin_users
  ADD COLUMN token_version integer NOT NULL DEFAULT 0,
  ADD COLUMN disabled      boolean NOT NULL DEFAULT false;
