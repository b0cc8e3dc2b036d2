CREATE TABLE "signups" (
	"email" text PRIMARY KEY NOT NULL,
	"name" text,
	"account_id" uuid,
	"password_hash" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
