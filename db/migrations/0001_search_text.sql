ALTER TABLE `uploads` ADD `search_text` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Rows that predate the column: SQLite can only fold ASCII here (lower() leaves 'Ã' alone); the
-- application writes the fully folded text (shared/search.ts) on every insert and edit.
UPDATE `uploads` SET `search_text` = lower(`author`) || char(31) || lower(`message`);
