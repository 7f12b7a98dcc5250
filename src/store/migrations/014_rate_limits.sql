-- Request-rate windows shared by several API processes (modules/accounts/fair-share.ts), in the
-- layout rate-limiter-flexible's PostgreSQL limiter reads and writes: a key per plan and account,
-- the points taken in its window and when the window ends (ms since the epoch).
CREATE TABLE rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
