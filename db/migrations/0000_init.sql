CREATE TABLE `event_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`couple_names` text DEFAULT '' NOT NULL,
	`event_date` text,
	`max_file_size_bytes` integer DEFAULT 524288000 NOT NULL,
	`allow_videos` integer DEFAULT true NOT NULL,
	`max_video_duration_sec` integer DEFAULT 300 NOT NULL,
	`moderation` text DEFAULT 'post' NOT NULL,
	`cover_upload_id` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `pending_deletions` (
	`key` text PRIMARY KEY NOT NULL,
	`multipart_upload_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`next_attempt_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `revoked_tokens` (
	`jti` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`kind` text NOT NULL,
	`author` text DEFAULT '' NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`width` integer,
	`height` integer,
	`duration_sec` real,
	`storage_key` text NOT NULL,
	`multipart_upload_id` text,
	`part_count` integer,
	`thumb_key` text,
	`display_key` text,
	`poster_key` text,
	`derived_at` integer,
	`created_at` integer NOT NULL,
	`confirmed_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `uploads_status_created_idx` ON `uploads` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `uploads_confirmed_created_idx` ON `uploads` (`confirmed_at`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `uploads_unconfirmed_idx` ON `uploads` (`created_at`) WHERE confirmed_at IS NULL;--> statement-breakpoint
CREATE INDEX `uploads_derive_idx` ON `uploads` (`confirmed_at`) WHERE derived_at IS NULL AND confirmed_at IS NOT NULL;