ALTER TABLE `event_settings` ADD `gallery_mode` text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE `event_settings` ADD `reveal_at` integer;--> statement-breakpoint
ALTER TABLE `event_settings` ADD `gallery_pin` text;--> statement-breakpoint
ALTER TABLE `event_settings` ADD `guest_downloads` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `event_settings` ADD `max_uploads_per_guest` integer;--> statement-breakpoint
ALTER TABLE `event_settings` ADD `screen_key` text;--> statement-breakpoint
ALTER TABLE `event_settings` ADD `screen_in_closed_mode` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `guest_id` text;--> statement-breakpoint
CREATE INDEX `uploads_guest_idx` ON `uploads` (`guest_id`,`created_at`,`id`) WHERE guest_id IS NOT NULL;