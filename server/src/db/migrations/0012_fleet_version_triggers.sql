-- Raises fleet_versions for every user whose device list a statement changes (schema-fleet.ts,
-- services/device-list-cache.ts). Statement-level, so a statement touching 500 phones raises each user
-- once; users in ascending order, so two statements raising the same users take their rows in one order.
CREATE FUNCTION bump_fleet_versions(user_ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO fleet_versions AS f (user_id, version)
  SELECT DISTINCT u, 1 FROM unnest(user_ids) AS u WHERE u IS NOT NULL ORDER BY u
  ON CONFLICT (user_id) DO UPDATE SET version = f.version + 1
$$;
--> statement-breakpoint
-- A phone's owners before and after, and whoever it is authorised to (a grant's own changes raise its
-- grantee below; a deleted phone's grants go with it and raise theirs that way).
CREATE FUNCTION devices_fleet_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bump_fleet_versions(ARRAY(SELECT user_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM bump_fleet_versions(ARRAY(SELECT user_id FROM old_rows));
  ELSE
    PERFORM bump_fleet_versions(ARRAY(
      SELECT user_id FROM new_rows
      UNION SELECT user_id FROM old_rows
      UNION SELECT g.grantee_id FROM device_grants g JOIN new_rows d ON g.device_id = d.id
        WHERE g.revoked_at IS NULL
    ));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER devices_fleet_inserted AFTER INSERT ON devices REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION devices_fleet_changed();
--> statement-breakpoint
CREATE TRIGGER devices_fleet_updated AFTER UPDATE ON devices
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION devices_fleet_changed();
--> statement-breakpoint
CREATE TRIGGER devices_fleet_deleted AFTER DELETE ON devices REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION devices_fleet_changed();
--> statement-breakpoint
-- A grant lists a phone to its grantee.
CREATE FUNCTION device_grants_fleet_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bump_fleet_versions(ARRAY(SELECT grantee_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM bump_fleet_versions(ARRAY(SELECT grantee_id FROM old_rows));
  ELSE
    PERFORM bump_fleet_versions(ARRAY(
      SELECT grantee_id FROM new_rows UNION SELECT grantee_id FROM old_rows
    ));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER device_grants_fleet_inserted AFTER INSERT ON device_grants
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION device_grants_fleet_changed();
--> statement-breakpoint
CREATE TRIGGER device_grants_fleet_updated AFTER UPDATE ON device_grants
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION device_grants_fleet_changed();
--> statement-breakpoint
CREATE TRIGGER device_grants_fleet_deleted AFTER DELETE ON device_grants
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION device_grants_fleet_changed();
--> statement-breakpoint
-- The list shows each phone's group name (a deleted group's phones change through their own rows).
CREATE FUNCTION device_groups_fleet_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_fleet_versions(ARRAY(SELECT user_id FROM new_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER device_groups_fleet_updated AFTER UPDATE ON device_groups
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION device_groups_fleet_changed();
--> statement-breakpoint
-- A grantee's list shows the owner's (masked) mobile number.
CREATE FUNCTION users_fleet_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_fleet_versions(ARRAY(
    SELECT g.grantee_id FROM device_grants g
      JOIN new_rows n ON g.owner_id = n.id
      JOIN old_rows o ON o.id = n.id
    WHERE n.mobile_phone IS DISTINCT FROM o.mobile_phone AND g.revoked_at IS NULL
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_fleet_updated AFTER UPDATE ON users
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_fleet_changed();
