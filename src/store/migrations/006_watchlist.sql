-- Licences an account watches (their change events go to its webhooks); a licence not on file
-- may be watched. `license_number` is the canonical form.
CREATE TABLE watched_licences (
  account_id uuid NOT NULL REFERENCES accounts (id),
  credential_id text NOT NULL,
  state text NOT NULL,
  license_number text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, credential_id)
);
CREATE INDEX watched_licences_credential ON watched_licences (credential_id);
