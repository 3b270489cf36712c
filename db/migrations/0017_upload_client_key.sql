ALTER TABLE `uploads` ADD `client_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `uploads_client_key_idx` ON `uploads` (`client_key`) WHERE client_key IS NOT NULL;--> statement-breakpoint
-- Hand-written (drizzle cannot declare triggers): a `comments` change counter beside `reactions`, so that the admin's stats and comments lists keep their 304s while hearts flow; a comment still moves `reactions` too (the gallery's counts).
INSERT OR IGNORE INTO `data_versions` (`name`, `version`) VALUES ('comments', 0);
--> statement-breakpoint
DROP TRIGGER IF EXISTS `data_versions_comments_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `data_versions_comments_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `data_versions_comments_delete`;
--> statement-breakpoint
CREATE TRIGGER `data_versions_comments_insert` AFTER INSERT ON `comments` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` IN ('reactions', 'comments');
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_comments_update` AFTER UPDATE ON `comments` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` IN ('reactions', 'comments');
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_comments_delete` AFTER DELETE ON `comments` BEGIN
  UPDATE `data_versions` SET `version` = `version` + 1 WHERE `name` IN ('reactions', 'comments');
END;
