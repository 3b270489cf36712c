ALTER TABLE `uploads` ADD `client_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `uploads_client_key_idx` ON `uploads` (`client_key`) WHERE client_key IS NOT NULL;