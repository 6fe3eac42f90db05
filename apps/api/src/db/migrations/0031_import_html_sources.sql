-- What each imported description and comment message was sanitised from (issue 12: a re-import of an
-- unchanged million-ticket portal). The stored HTML is the sanitiser's output, which cannot tell whether
-- the back office still sends the same input: the input may not be a fixed point of the sanitiser (and
-- need not be: DOMPurify promises no idempotence), and a sanitiser of another version or policy may
-- answer differently. The import stores beside the output a digest of (sanitiser fingerprint, input)
-- and sanitises again only the fragments whose digest differs; the others keep their stored output.
ALTER TABLE "tickets" ADD COLUMN "description_source" text;
--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD COLUMN "message_source" text;
--> statement-breakpoint
-- A digest describes the stored HTML only while nobody else changed it: any writer that changes the HTML
-- without naming its new source (the integration API, the staff desk, a future one) forgets the source, so
-- the next import sanitises its fragment again.
CREATE FUNCTION tickets_forget_html_source() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.description_source := NULL;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_forget_html_source BEFORE UPDATE OF description ON tickets FOR EACH ROW
  WHEN (NEW.description IS DISTINCT FROM OLD.description
    AND NEW.description_source IS NOT DISTINCT FROM OLD.description_source)
  EXECUTE FUNCTION tickets_forget_html_source();
--> statement-breakpoint
CREATE FUNCTION ticket_comments_forget_html_source() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.message_source := NULL;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_comments_forget_html_source BEFORE UPDATE OF message ON ticket_comments FOR EACH ROW
  WHEN (NEW.message IS DISTINCT FROM OLD.message
    AND NEW.message_source IS NOT DISTINCT FROM OLD.message_source)
  EXECUTE FUNCTION ticket_comments_forget_html_source();
--> statement-breakpoint
-- The import's writers keep a stored fragment (they send no HTML for it) only while its source is the
-- digest they checked before their transaction; a concurrent change in between fails the import, which
-- is then run again, rather than keep HTML the document no longer describes.
CREATE FUNCTION import_kept_html(stored text, stored_source text, expected_source text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  IF stored_source IS DISTINCT FROM expected_source OR expected_source IS NULL THEN
    RAISE EXCEPTION 'an HTML fragment changed while importing' USING ERRCODE = '40001';
  END IF;
  RETURN stored;
END
$$;
