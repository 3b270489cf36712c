CREATE TABLE `notify_queue` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`author` text DEFAULT '' NOT NULL,
	`thumb_url` text,
	`pending` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`next_attempt_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notify_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`vapid_public_key` text,
	`vapid_private_key` text,
	`last_status` text
);
--> statement-breakpoint
CREATE TABLE `push_subscriptions` (
	`endpoint` text PRIMARY KEY NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `event_settings` ADD `notify_url` text;--> statement-breakpoint
ALTER TABLE `event_settings` ADD `notify_format` text DEFAULT 'json' NOT NULL;--> statement-breakpoint
ALTER TABLE `event_settings` ADD `notify_on` text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE `event_settings` ADD `notify_secret` text;