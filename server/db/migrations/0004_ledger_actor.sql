ALTER TABLE `ledger_events` ADD `recorded_by` text;--> statement-breakpoint
ALTER TABLE `ledger_settings` ADD `require_separate_approver` integer DEFAULT false NOT NULL;