-- Files leave the blobs table: their bytes move to blob_chunks (at most 1 MiB a row), named by
-- the row's upload_id. On PGlite the first start after this moves them on to files in the data dir.
CREATE TABLE "blob_chunks" (
	"upload_id" uuid NOT NULL,
	"n" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "blob_chunks_upload_id_n_pk" PRIMARY KEY("upload_id","n")
);
--> statement-breakpoint
ALTER TABLE "blobs" ADD COLUMN "upload_id" uuid;--> statement-breakpoint
UPDATE "blobs" SET "upload_id" = gen_random_uuid();--> statement-breakpoint
INSERT INTO "blob_chunks" ("upload_id", "n", "data")
	SELECT b."upload_id", c.n, substring(b."data" FROM c.n * 1048576 + 1 FOR 1048576)
	FROM "blobs" b CROSS JOIN LATERAL generate_series(0, (length(b."data") - 1) / 1048576) AS c(n)
	WHERE length(b."data") > 0;--> statement-breakpoint
CREATE INDEX "blobs_upload_idx" ON "blobs" USING btree ("upload_id");--> statement-breakpoint
ALTER TABLE "blobs" DROP COLUMN "data";
