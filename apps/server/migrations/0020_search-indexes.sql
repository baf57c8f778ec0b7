-- Searches match what people type: case-insensitive substrings with accents folded ("cafe"
-- finds "Café"), served by trigram indexes instead of a scan of the table. pg_trgm and unaccent
-- are trusted extensions (any database owner may create them) and ship with the embedded
-- database as well. Functions are named with their schema: maintenance (index builds, vacuum) runs
-- with an empty search path on PostgreSQL 17.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change), so index expressions go through this
-- IMMUTABLE wrapper naming the dictionary explicitly. Searchable tables keep a stored
-- search_text column made with it (migration 0021) under a trigram index, and a search asks
-- search_text LIKE search_fold(pattern).
CREATE FUNCTION public.search_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;--> statement-breakpoint
-- A person is found by name or address alike, in one text (so "ana garcia" finds Ana García).
CREATE FUNCTION public.person_search_text(first_name text, last_name text, email text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT public.search_fold(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '')) $$;
