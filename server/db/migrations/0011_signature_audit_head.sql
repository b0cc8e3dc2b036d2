ALTER TABLE `signature_requests` ADD `audit_head` text;--> statement-breakpoint
-- Existing requests: the head of their chain as it stands.
UPDATE `signature_requests` SET `audit_head` = (SELECT a.`hash` FROM `signature_audit` a WHERE a.`request_id` = `signature_requests`.`id` ORDER BY a.`seq` DESC LIMIT 1);
