ALTER TABLE `uploads` ADD `content_hash` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `undo_token_hash` text;--> statement-breakpoint
CREATE INDEX `uploads_content_hash_idx` ON `uploads` (`content_hash`) WHERE confirmed_at IS NOT NULL AND content_hash IS NOT NULL;