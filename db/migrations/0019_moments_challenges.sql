CREATE TABLE `challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`text` text NOT NULL,
	`position` integer NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `challenges_position_idx` ON `challenges` (`position`);--> statement-breakpoint
CREATE TABLE `moments` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`starts_at` integer,
	`ends_at` integer,
	`position` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `moments_name_unique` ON `moments` (`name`);--> statement-breakpoint
CREATE INDEX `moments_position_idx` ON `moments` (`position`);--> statement-breakpoint
ALTER TABLE `uploads` ADD `moment_id` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `taken_at` integer;--> statement-breakpoint
ALTER TABLE `uploads` ADD `challenge_id` text;--> statement-breakpoint
CREATE INDEX `uploads_moment_gallery_idx` ON `uploads` (`moment_id`,`status`,`created_at`,`id`) WHERE confirmed_at IS NOT NULL AND ((kind = 'video' AND display IS NOT 'pending') OR display_key IS NOT NULL);--> statement-breakpoint
CREATE INDEX `uploads_challenge_gallery_idx` ON `uploads` (`challenge_id`,`status`,`created_at`,`id`) WHERE confirmed_at IS NOT NULL AND ((kind = 'video' AND display IS NOT 'pending') OR display_key IS NOT NULL);--> statement-breakpoint
-- Hand-written (drizzle cannot declare triggers): the `moments` change counter of data_versions, moved by every write to a moment, as migration 0003 does for uploads. GET /api/moments and the admin's list tag with it.
INSERT OR IGNORE INTO `data_versions` (`name`, `version`) VALUES ('moments', 0);
--> statement-breakpoint
CREATE TRIGGER `data_versions_moments_insert` AFTER INSERT ON `moments` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'moments';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_moments_update` AFTER UPDATE ON `moments` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'moments';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_moments_delete` AFTER DELETE ON `moments` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'moments';
END;
--> statement-breakpoint
-- Hand-written (drizzle cannot declare triggers): the `challenges` change counter of data_versions, moved by every write to a challenge, as migration 0003 does for uploads. GET /api/challenges and the admin's list tag with it.
INSERT OR IGNORE INTO `data_versions` (`name`, `version`) VALUES ('challenges', 0);
--> statement-breakpoint
CREATE TRIGGER `data_versions_challenges_insert` AFTER INSERT ON `challenges` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'challenges';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_challenges_update` AFTER UPDATE ON `challenges` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'challenges';
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_challenges_delete` AFTER DELETE ON `challenges` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` = 'challenges';
END;
