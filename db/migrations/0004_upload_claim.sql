ALTER TABLE `uploads` ADD `claim` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `claimed_until` integer;