CREATE INDEX `backup_runs_started_idx` ON `backup_runs` (`started_at`);--> statement-breakpoint
CREATE INDEX `backup_runs_file_idx` ON `backup_runs` (`file`);