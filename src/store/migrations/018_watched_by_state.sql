-- Alert derivations and the expiry pass page a state's watches by licence, then account.
CREATE INDEX watched_licences_state ON watched_licences (state, credential_id, account_id);
