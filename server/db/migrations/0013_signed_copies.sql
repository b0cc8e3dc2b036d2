ALTER TABLE `documents` ADD `signed_from_request_id` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `original_document_id` text;