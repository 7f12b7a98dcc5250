-- Transfers and bulk moves (docs/changes.md, *Transfers*): a supervision_transferred event names the
-- two relationships and their events; roster_moved, and the supervision events of the affiliates
-- it moved, carry the move. While a run is staged they name events by their place in it (n).
ALTER TABLE change_events ADD COLUMN transfer jsonb, ADD COLUMN bulk_move jsonb;
