import type { DomainEvent } from "../../platform/events/domain-events.ts";
import type { ApplicationRow, VersionRow } from "../application/application.service.ts";

const platformNames = ["Android", "iOS", "Windows", "macOS"];

export interface EventPayload {
  type: string;
  timestamp: string;
  data: {
    organization: { id: number; title: string };
    app: {
      id: number;
      title: string;
      platform: string;
      environment: string;
      bundle_id: string | null;
      dashboard_url: string;
    } | null;
    build: {
      id: number;
      version: string;
      build_number: string;
      file_name: string;
      file_size: number;
      whats_new: string;
      icon_url: string | null;
      install_url: string | null;
    } | null;
    [extra: string]: unknown;
  };
}

/** What a payload is made from: the event, and the rows it names as they are now (when they still exist). */
export interface PayloadFacts {
  event: DomainEvent;
  organizationTitle: string;
  app: ApplicationRow | null;
  version: VersionRow | null;
  iconUrl: string | null;
  installUrl: string | null;
  publicUrl: string;
}

/**
 * The JSON every endpoint of an event receives (Standard Webhooks' `type`/`timestamp`/`data`
 * shape). A build that is gone (deleted) is described from what the event carried.
 */
export function eventPayload(facts: PayloadFacts): EventPayload {
  const { event, app, version } = facts;
  const { build: carriedBuild, ...extra } = event.data as { build?: EventPayload["data"]["build"] };
  const build = version
    ? {
        id: version.id,
        version: version.version,
        build_number: version.buildNumber,
        file_name: version.fileName,
        file_size: version.fileSize,
        whats_new: version.whatsNew,
        icon_url: facts.iconUrl,
        install_url: facts.installUrl,
      }
    : (carriedBuild ?? null);
  return {
    type: event.type,
    timestamp: event.occurredAt,
    data: {
      ...extra,
      organization: { id: event.organizationId, title: facts.organizationTitle },
      app: app ? appSummary(app, facts.publicUrl) : null,
      build,
    },
  };
}

/** How every payload describes the app. */
export function appSummary(app: ApplicationRow, publicUrl: string): NonNullable<EventPayload["data"]["app"]> {
  return {
    id: app.id,
    title: app.title,
    platform: platformNames[app.appType] ?? "Unknown",
    environment: app.environment,
    bundle_id: app.bundleId,
    dashboard_url: `${publicUrl}/dashboard/apps/${app.id}`,
  };
}

/** The payload of "send test event": shaped like a real one, marked as a test. */
export function testPayload(organization: { id: number; title: string }, app: EventPayload["data"]["app"]) {
  return {
    type: "webhook.test",
    timestamp: new Date().toISOString(),
    data: {
      organization,
      app,
      build: null,
      message: "A test event from Tarmac: this endpoint is set up.",
    },
  } satisfies EventPayload;
}
