DROP INDEX `uploads_gallery_idx`;--> statement-breakpoint
ALTER TABLE `uploads` ADD `video_codec` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `display` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `display_copy_key` text;--> statement-breakpoint
CREATE INDEX `uploads_gallery_idx` ON `uploads` (`status`,`created_at`,`id`) WHERE confirmed_at IS NOT NULL AND ((kind = 'video' AND display IS NOT 'pending') OR display_key IS NOT NULL);