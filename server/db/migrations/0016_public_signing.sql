ALTER TABLE `signature_requests` ADD `public_signing` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `sync_links` ADD `public_url` text;