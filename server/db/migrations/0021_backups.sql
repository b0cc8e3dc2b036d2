CREATE TABLE `backup_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`file` text NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`size` integer,
	`verified` integer DEFAULT false NOT NULL,
	`secrets_included` integer DEFAULT false NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE TABLE `backup_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`folder` text,
	`enabled` integer DEFAULT true NOT NULL,
	`interval_hours` integer DEFAULT 24 NOT NULL,
	`keep_daily` integer DEFAULT 7 NOT NULL,
	`keep_weekly` integer DEFAULT 4 NOT NULL,
	`passphrase_kdf` text,
	`passphrase_public_key` text,
	`passphrase_set_at` text,
	`updated_at` text NOT NULL
);
