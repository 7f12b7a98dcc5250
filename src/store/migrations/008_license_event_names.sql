-- The change type licence_added is license_added, as every path and field spells it. Stored
-- events, deliveries and endpoints' filters take the new name; clients may still send the old one
-- until 2027-06-30 (src/domain/changes.ts, docs/changes.md).
UPDATE change_events SET type = 'license_added' WHERE type = 'licence_added';
UPDATE webhook_deliveries SET event_type = 'license_added' WHERE event_type = 'licence_added';
UPDATE webhook_endpoints SET event_types = array_replace(event_types, 'licence_added', 'license_added') WHERE 'licence_added' = ANY (event_types);
