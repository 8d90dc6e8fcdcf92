-- Cities and regions: where the city database (SQUARELY_GEOIP_CITY_DB)
-- placed a scan, by name; empty without one. As with the country, the
-- address itself is never stored. The rollups count them in their tally
-- text. Keep in step with the other dialect's 0046_scan_places.sql.
ALTER TABLE scan_events ADD COLUMN region TEXT NOT NULL DEFAULT '';
ALTER TABLE scan_events ADD COLUMN city TEXT NOT NULL DEFAULT '';
