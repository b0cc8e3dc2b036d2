CREATE TABLE `ledger_balances` (
	`entity_id` text NOT NULL,
	`account_id` text NOT NULL,
	`currency` text NOT NULL,
	`side` text NOT NULL,
	`lines` integer NOT NULL,
	`lo` integer NOT NULL,
	`mid` integer NOT NULL,
	`hi` integer NOT NULL,
	PRIMARY KEY(`entity_id`, `account_id`, `currency`, `side`),
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `ledger_day_totals` (
	`entity_id` text NOT NULL,
	`day` text NOT NULL,
	`account_id` text NOT NULL,
	`currency` text NOT NULL,
	`side` text NOT NULL,
	`lines` integer NOT NULL,
	`lo` integer NOT NULL,
	`mid` integer NOT NULL,
	`hi` integer NOT NULL,
	PRIMARY KEY(`entity_id`, `day`, `account_id`, `currency`, `side`),
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade
);

--> statement-breakpoint
-- Maintained totals (ledger_balances, ledger_day_totals): every line counts once its entry is
-- there, under the entry's effective day. Lines normally follow their entry; a snapshot may bring
-- them first (deferred foreign keys), so an entry also counts the lines already waiting for it.
-- Removing a line or an entry (a refused group undone; orphans settled) subtracts the same way.
-- Nothing is maintained for an entity being deleted (its totals go with it by cascade).
-- Amounts stay exact in three signed base-10^18 limbs (see server/ledger/tables.ts).
CREATE TRIGGER ledger_lines_totals_insert AFTER INSERT ON ledger_lines
WHEN EXISTS (SELECT 1 FROM ledger_entries WHERE id = NEW.entry_id)
BEGIN
  INSERT INTO ledger_balances (entity_id, account_id, currency, side, lines, lo, mid, hi)
  SELECT NEW.entity_id, NEW.account_id, NEW.currency, NEW.side, 1, cast(substr(substr('000000000000000000000000000000000000000000000000000000' || NEW.amount, -54), 37, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || NEW.amount, -54), 19, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || NEW.amount, -54), 1, 18) as integer)
  FROM ledger_entries e WHERE e.id = NEW.entry_id
  ON CONFLICT DO UPDATE SET
    lines = lines + excluded.lines,
    lo = (lo + excluded.lo) % 1000000000000000000,
    mid = (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) % 1000000000000000000,
    hi = hi + excluded.hi + (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) / 1000000000000000000;
  INSERT INTO ledger_day_totals (entity_id, day, account_id, currency, side, lines, lo, mid, hi)
  SELECT NEW.entity_id, substr(e.effective_at, 1, 10), NEW.account_id, NEW.currency, NEW.side, 1, cast(substr(substr('000000000000000000000000000000000000000000000000000000' || NEW.amount, -54), 37, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || NEW.amount, -54), 19, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || NEW.amount, -54), 1, 18) as integer)
  FROM ledger_entries e WHERE e.id = NEW.entry_id
  ON CONFLICT DO UPDATE SET
    lines = lines + excluded.lines,
    lo = (lo + excluded.lo) % 1000000000000000000,
    mid = (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) % 1000000000000000000,
    hi = hi + excluded.hi + (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) / 1000000000000000000;
END;
--> statement-breakpoint
CREATE TRIGGER ledger_lines_totals_delete AFTER DELETE ON ledger_lines
WHEN EXISTS (SELECT 1 FROM ledger_entries WHERE id = OLD.entry_id) AND EXISTS (SELECT 1 FROM entities WHERE id = OLD.entity_id)
BEGIN
  INSERT INTO ledger_balances (entity_id, account_id, currency, side, lines, lo, mid, hi)
  SELECT OLD.entity_id, OLD.account_id, OLD.currency, OLD.side, -1, -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || OLD.amount, -54), 37, 18) as integer), -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || OLD.amount, -54), 19, 18) as integer), -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || OLD.amount, -54), 1, 18) as integer)
  FROM ledger_entries e WHERE e.id = OLD.entry_id
  ON CONFLICT DO UPDATE SET
    lines = lines + excluded.lines,
    lo = (lo + excluded.lo) % 1000000000000000000,
    mid = (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) % 1000000000000000000,
    hi = hi + excluded.hi + (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) / 1000000000000000000;
  INSERT INTO ledger_day_totals (entity_id, day, account_id, currency, side, lines, lo, mid, hi)
  SELECT OLD.entity_id, substr(e.effective_at, 1, 10), OLD.account_id, OLD.currency, OLD.side, -1, -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || OLD.amount, -54), 37, 18) as integer), -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || OLD.amount, -54), 19, 18) as integer), -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || OLD.amount, -54), 1, 18) as integer)
  FROM ledger_entries e WHERE e.id = OLD.entry_id
  ON CONFLICT DO UPDATE SET
    lines = lines + excluded.lines,
    lo = (lo + excluded.lo) % 1000000000000000000,
    mid = (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) % 1000000000000000000,
    hi = hi + excluded.hi + (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) / 1000000000000000000;
END;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_totals_insert AFTER INSERT ON ledger_entries
WHEN EXISTS (SELECT 1 FROM ledger_lines WHERE entry_id = NEW.id)
BEGIN
  INSERT INTO ledger_balances (entity_id, account_id, currency, side, lines, lo, mid, hi)
  SELECT l.entity_id, l.account_id, l.currency, l.side, 1, cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 37, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 19, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 1, 18) as integer)
  FROM ledger_lines l, ledger_entries e WHERE l.entry_id = NEW.id AND e.id = NEW.id
  ON CONFLICT DO UPDATE SET
    lines = lines + excluded.lines,
    lo = (lo + excluded.lo) % 1000000000000000000,
    mid = (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) % 1000000000000000000,
    hi = hi + excluded.hi + (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) / 1000000000000000000;
  INSERT INTO ledger_day_totals (entity_id, day, account_id, currency, side, lines, lo, mid, hi)
  SELECT l.entity_id, substr(e.effective_at, 1, 10), l.account_id, l.currency, l.side, 1, cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 37, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 19, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 1, 18) as integer)
  FROM ledger_lines l, ledger_entries e WHERE l.entry_id = NEW.id AND e.id = NEW.id
  ON CONFLICT DO UPDATE SET
    lines = lines + excluded.lines,
    lo = (lo + excluded.lo) % 1000000000000000000,
    mid = (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) % 1000000000000000000,
    hi = hi + excluded.hi + (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) / 1000000000000000000;
END;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_totals_delete BEFORE DELETE ON ledger_entries
WHEN EXISTS (SELECT 1 FROM ledger_lines WHERE entry_id = OLD.id) AND EXISTS (SELECT 1 FROM entities WHERE id = OLD.entity_id)
BEGIN
  INSERT INTO ledger_balances (entity_id, account_id, currency, side, lines, lo, mid, hi)
  SELECT l.entity_id, l.account_id, l.currency, l.side, -1, -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 37, 18) as integer), -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 19, 18) as integer), -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 1, 18) as integer)
  FROM ledger_lines l, ledger_entries e WHERE l.entry_id = OLD.id AND e.id = OLD.id
  ON CONFLICT DO UPDATE SET
    lines = lines + excluded.lines,
    lo = (lo + excluded.lo) % 1000000000000000000,
    mid = (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) % 1000000000000000000,
    hi = hi + excluded.hi + (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) / 1000000000000000000;
  INSERT INTO ledger_day_totals (entity_id, day, account_id, currency, side, lines, lo, mid, hi)
  SELECT l.entity_id, substr(e.effective_at, 1, 10), l.account_id, l.currency, l.side, -1, -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 37, 18) as integer), -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 19, 18) as integer), -cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 1, 18) as integer)
  FROM ledger_lines l, ledger_entries e WHERE l.entry_id = OLD.id AND e.id = OLD.id
  ON CONFLICT DO UPDATE SET
    lines = lines + excluded.lines,
    lo = (lo + excluded.lo) % 1000000000000000000,
    mid = (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) % 1000000000000000000,
    hi = hi + excluded.hi + (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) / 1000000000000000000;
END;
--> statement-breakpoint
-- The totals of the journal as it stands.
  INSERT INTO ledger_balances (entity_id, account_id, currency, side, lines, lo, mid, hi)
  SELECT l.entity_id, l.account_id, l.currency, l.side, 1, cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 37, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 19, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 1, 18) as integer)
  FROM ledger_lines l, ledger_entries e WHERE e.id = l.entry_id
  ON CONFLICT DO UPDATE SET
    lines = lines + excluded.lines,
    lo = (lo + excluded.lo) % 1000000000000000000,
    mid = (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) % 1000000000000000000,
    hi = hi + excluded.hi + (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) / 1000000000000000000;
--> statement-breakpoint
  INSERT INTO ledger_day_totals (entity_id, day, account_id, currency, side, lines, lo, mid, hi)
  SELECT l.entity_id, substr(e.effective_at, 1, 10), l.account_id, l.currency, l.side, 1, cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 37, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 19, 18) as integer), cast(substr(substr('000000000000000000000000000000000000000000000000000000' || l.amount, -54), 1, 18) as integer)
  FROM ledger_lines l, ledger_entries e WHERE e.id = l.entry_id
  ON CONFLICT DO UPDATE SET
    lines = lines + excluded.lines,
    lo = (lo + excluded.lo) % 1000000000000000000,
    mid = (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) % 1000000000000000000,
    hi = hi + excluded.hi + (mid + excluded.mid + (lo + excluded.lo) / 1000000000000000000) / 1000000000000000000;
