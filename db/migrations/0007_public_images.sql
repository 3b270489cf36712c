ALTER TABLE `uploads` ADD `thumb2x_key` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `phone_images` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `public_image_source` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `phone_images_refusal` text;--> statement-breakpoint
UPDATE `uploads` SET `public_image_source` = CASE WHEN `display_key` IS NOT NULL THEN 'server' ELSE 'undecodable' END WHERE `kind` = 'photo' AND `derived_at` IS NOT NULL;
