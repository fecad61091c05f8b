-- Every change to an organization's API client is announced on the channel
-- "api_client_changed" with the tenant id as payload ("*" after a TRUNCATE). NOTIFY is
-- transactional: listeners hear it when the change commits, never before and never for a
-- rollback. The api caches each client's secret version and drops it when it hears this
-- (src/modules/auth/client-secret-cache.ts), so a rotation, expiry change or deletion made by any
-- process, or by hand in SQL, reaches every api instance without a query per request.

CREATE FUNCTION "api_client_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('api_client_changed', '*');
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('api_client_changed', NEW."tenantId"::text);
  ELSE
    -- UPDATE or DELETE: the old tenant, and the new one should an update ever move the row.
    PERFORM pg_notify('api_client_changed', OLD."tenantId"::text);
    IF TG_OP = 'UPDATE' AND NEW."tenantId" <> OLD."tenantId" THEN
      PERFORM pg_notify('api_client_changed', NEW."tenantId"::text);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "ApiClient_notify_change"
AFTER INSERT OR UPDATE OR DELETE ON "ApiClient"
FOR EACH ROW EXECUTE FUNCTION "api_client_notify_change"();

CREATE TRIGGER "ApiClient_notify_truncate"
AFTER TRUNCATE ON "ApiClient"
FOR EACH STATEMENT EXECUTE FUNCTION "api_client_notify_change"();
