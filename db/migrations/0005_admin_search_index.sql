CREATE TABLE `upload_search_keys` (
	`key` integer PRIMARY KEY NOT NULL,
	`upload_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `upload_search_keys_upload_id_unique` ON `upload_search_keys` (`upload_id`);--> statement-breakpoint
CREATE INDEX `uploads_admin_newest_idx` ON `uploads` (`created_at`,`id`,`search_text`) WHERE confirmed_at IS NOT NULL;