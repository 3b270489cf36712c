CREATE TABLE `data_versions` (
	`name` text PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Seeded counters; `epoch` is random per database, so a fresh database never answers a tag an old one gave.
INSERT INTO `data_versions` (`name`, `version`) VALUES ('public', 0), ('uploads', 0), ('event', 0), ('epoch', abs(random()) % 1000000000000);
--> statement-breakpoint
-- Unconfirmed rows are nobody's answer yet: their writes (init, multipart ids) move nothing, so the tags stay put during upload bursts.
CREATE TRIGGER `data_versions_uploads_insert` AFTER INSERT ON `uploads` WHEN NEW.confirmed_at IS NOT NULL BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'uploads';
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'public' AND NEW.status = 'approved' AND NEW.confirmed_at IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_uploads_update` AFTER UPDATE ON `uploads` WHEN NEW.confirmed_at IS NOT NULL OR OLD.confirmed_at IS NOT NULL BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'uploads';
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'public' AND ((OLD.status = 'approved' AND OLD.confirmed_at IS NOT NULL) OR (NEW.status = 'approved' AND NEW.confirmed_at IS NOT NULL));
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_uploads_delete` AFTER DELETE ON `uploads` WHEN OLD.confirmed_at IS NOT NULL BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'uploads';
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'public' AND OLD.status = 'approved' AND OLD.confirmed_at IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_event_insert` AFTER INSERT ON `event_settings` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'event';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_event_update` AFTER UPDATE ON `event_settings` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'event';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_event_delete` AFTER DELETE ON `event_settings` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'event';
END;
