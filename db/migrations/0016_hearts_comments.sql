CREATE TABLE `comments` (
	`id` text PRIMARY KEY NOT NULL,
	`upload_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`author` text DEFAULT '' NOT NULL,
	`text` text NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`undo_token_hash` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `comments_upload_status_created_idx` ON `comments` (`upload_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `comments_status_created_idx` ON `comments` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `comments_created_idx` ON `comments` (`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `hearts` (
	`upload_id` text NOT NULL,
	`guest_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`upload_id`, `guest_id`)
);
--> statement-breakpoint
CREATE INDEX `hearts_guest_idx` ON `hearts` (`guest_id`);--> statement-breakpoint
-- Hand-written (drizzle cannot declare triggers): the `reactions` change counter of data_versions, moved by every heart and every write to a comment, as migration 0003 does for uploads. The gallery's tag reads it (coalesced: server/utils/reactions/counts-version.ts).
INSERT OR IGNORE INTO `data_versions` (`name`, `version`) VALUES ('reactions', 0);
--> statement-breakpoint
CREATE TRIGGER `data_versions_hearts_insert` AFTER INSERT ON `hearts` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'reactions';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_hearts_delete` AFTER DELETE ON `hearts` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'reactions';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_comments_insert` AFTER INSERT ON `comments` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'reactions';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_comments_update` AFTER UPDATE ON `comments` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'reactions';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_comments_delete` AFTER DELETE ON `comments` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'reactions';
END;
--> statement-breakpoint
-- An upload's hearts and comments go with it, whoever deletes it (an admin, a bulk action, the guest's undo, the sweeper): one rule here rather than one in each path.
CREATE TRIGGER `reactions_follow_upload_delete` AFTER DELETE ON `uploads` BEGIN
  DELETE FROM `hearts` WHERE `upload_id` = OLD.id;
  DELETE FROM `comments` WHERE `upload_id` = OLD.id;
END;
