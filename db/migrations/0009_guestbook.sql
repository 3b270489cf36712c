CREATE TABLE `guestbook_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`author` text DEFAULT '' NOT NULL,
	`text` text NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`undo_token_hash` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `guestbook_status_created_idx` ON `guestbook_messages` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `guestbook_created_idx` ON `guestbook_messages` (`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `event_settings` ADD `allow_audio` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `event_settings` ADD `max_audio_duration_sec` integer DEFAULT 120 NOT NULL;--> statement-breakpoint
CREATE INDEX `uploads_audio_status_idx` ON `uploads` (`status`,`created_at`,`id`) WHERE kind = 'audio' AND confirmed_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `uploads_audio_created_idx` ON `uploads` (`created_at`,`id`) WHERE kind = 'audio' AND confirmed_at IS NOT NULL;
--> statement-breakpoint
-- Hand-written (drizzle cannot declare triggers): the `guestbook` change counter of data_versions, moved by every write to a written message, as migration 0003 does for uploads.
INSERT OR IGNORE INTO `data_versions` (`name`, `version`) VALUES ('guestbook', 0);
--> statement-breakpoint
CREATE TRIGGER `data_versions_guestbook_insert` AFTER INSERT ON `guestbook_messages` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'guestbook';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_guestbook_update` AFTER UPDATE ON `guestbook_messages` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'guestbook';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_guestbook_delete` AFTER DELETE ON `guestbook_messages` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'guestbook';
END;
