DROP INDEX `signature_requests_entity_idx`;--> statement-breakpoint
CREATE INDEX `signature_requests_created_idx` ON `signature_requests` (`entity_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `signature_requests_entity_idx` ON `signature_requests` (`entity_id`,`status`,`created_at`,`id`);