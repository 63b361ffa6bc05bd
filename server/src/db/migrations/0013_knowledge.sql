-- Hand-written (drizzle-kit models neither extensions nor text search configurations): the knowledge area's
-- full-text search folds accents ("educacion" finds "educación") with unaccent, then stems in the file's
-- language. PGlite loads unaccent and pgvector too (db/pglite-worker.mjs).
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION pluma_english (COPY = english);--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION pluma_english ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION pluma_spanish (COPY = spanish);--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION pluma_spanish ALTER MAPPING FOR hword, hword_part, word WITH unaccent, spanish_stem;--> statement-breakpoint
CREATE TABLE "knowledge_chunks" (
	"chunk_id" serial PRIMARY KEY NOT NULL,
	"file_id" integer NOT NULL,
	"ordinal" integer NOT NULL,
	"page" integer,
	"heading" text,
	"text" text NOT NULL,
	"start_offset" integer NOT NULL,
	"language" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector(CASE WHEN "language" = 'spanish' THEN 'pluma_spanish'::regconfig ELSE 'pluma_english'::regconfig END, coalesce("heading", '')), 'A') || to_tsvector(CASE WHEN "language" = 'spanish' THEN 'pluma_spanish'::regconfig ELSE 'pluma_english'::regconfig END, "text")) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_files" (
	"file_id" integer PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"failure_reason" text,
	"language" text,
	"pages" integer,
	"characters" integer,
	"chunks" integer DEFAULT 0 NOT NULL,
	"source_key" text,
	"embedding_model" text,
	"embedding_dimensions" integer,
	"generation" integer DEFAULT 1 NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_file_id_files_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("file_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_files" ADD CONSTRAINT "knowledge_files_file_id_files_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("file_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_chunks_file_ordinal_unique" ON "knowledge_chunks" USING btree ("file_id","ordinal");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_search_idx" ON "knowledge_chunks" USING gin ("search");--> statement-breakpoint
CREATE INDEX "knowledge_files_status_idx" ON "knowledge_files" USING btree ("status");
--> statement-breakpoint
-- Hand-written: chunk vectors, only where the server has pgvector (PGlite always; a PostgreSQL server when
-- the operator installed it — docs/decisions.md "Knowledge"). Without it retrieval is full-text only
-- (features/knowledge/vector-support.ts looks for this table). `vector` without dimensions: each row keeps
-- its model and dimensions, and a search compares only vectors of the configured ones, within the files
-- searched (exact distances over a few files' chunks; no approximate index needed).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    CREATE EXTENSION IF NOT EXISTS vector;
    EXECUTE 'CREATE TABLE knowledge_chunk_embeddings (
      chunk_id integer PRIMARY KEY REFERENCES knowledge_chunks (chunk_id) ON DELETE CASCADE,
      file_id integer NOT NULL REFERENCES files (file_id) ON DELETE CASCADE,
      model text NOT NULL,
      dimensions integer NOT NULL,
      embedding vector NOT NULL
    )';
    EXECUTE 'CREATE INDEX knowledge_chunk_embeddings_file_idx ON knowledge_chunk_embeddings (file_id, model, dimensions)';
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'pgvector is installed but this role may not create it: knowledge search is full-text only';
END
$$;
