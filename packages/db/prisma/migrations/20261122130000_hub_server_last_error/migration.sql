-- Why the last health probe of a registered engine failed (shown in the registry listing).
ALTER TABLE "managed_servers" ADD COLUMN "last_error" TEXT;
