-- CreateTable
CREATE TABLE "exchanges" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" DOUBLE PRECISION,
    "source" TEXT NOT NULL,
    "engine_id" TEXT,
    "client_address" TEXT,
    "method" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "scheme" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "port" INTEGER,
    "path" TEXT NOT NULL,
    "request_headers" JSONB NOT NULL,
    "request_body" TEXT,
    "request_body_encoding" TEXT,
    "request_body_size" INTEGER NOT NULL DEFAULT 0,
    "request_body_truncated" BOOLEAN NOT NULL DEFAULT false,
    "request_content_type" TEXT,
    "status" INTEGER,
    "status_message" TEXT,
    "response_headers" JSONB,
    "response_body" TEXT,
    "response_body_encoding" TEXT,
    "response_body_size" INTEGER NOT NULL DEFAULT 0,
    "response_body_truncated" BOOLEAN NOT NULL DEFAULT false,
    "response_content_type" TEXT,
    "error" TEXT,
    "tunnel_bytes_up" BIGINT,
    "tunnel_bytes_down" BIGINT,
    "matched_stub_id" TEXT,
    "near_miss" TEXT,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchanges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "managed_servers" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "health" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "last_seen_at" TIMESTAMPTZ(3),
    "last_checked_at" TIMESTAMPTZ(3),
    "stub_count" INTEGER,
    "response_time_ms" DOUBLE PRECISION,
    "self_registered" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "managed_servers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "hub_settings" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "hub_settings_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "exchanges_seq_key" ON "exchanges"("seq");

-- CreateIndex
CREATE INDEX "exchanges_started_at_idx" ON "exchanges"("started_at" DESC);

-- CreateIndex
CREATE INDEX "exchanges_method_started_at_idx" ON "exchanges"("method", "started_at" DESC);

-- CreateIndex
CREATE INDEX "exchanges_status_started_at_idx" ON "exchanges"("status", "started_at" DESC);

-- CreateIndex
CREATE INDEX "exchanges_host_started_at_idx" ON "exchanges"("host", "started_at" DESC);

-- CreateIndex
CREATE INDEX "exchanges_source_started_at_idx" ON "exchanges"("source", "started_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "managed_servers_url_key" ON "managed_servers"("url");
