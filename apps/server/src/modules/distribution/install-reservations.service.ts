/**
 * Install limits that hold under concurrency: a download (or an iOS install) reserves its place
 * in the link's limit when it starts, every request of one client for one build shares that
 * reservation (so range requests count once), and a download that delivered nothing gives its
 * place back. A client is its address and User-Agent: in effect one device. Reservations that
 * took a slot are kept, so a device counts once against a link's limit however often it comes
 * back; the others (iOS file fetches after a manifest) live a day.
 */
import { createHash } from "node:crypto";
import type { Database } from "../../platform/db/client.ts";
import type { DomainEvents } from "../../platform/events/domain-events.ts";
import type { ReleaseService } from "../application/release.service.ts";
import { insertInstallEvent } from "./distribution.repo.ts";
import {
  deleteReservationsBefore,
  insertOrFindReservation,
  markReservationCounted,
  markReservationHoldsSlot,
  type ReservationRow,
  releaseReservation,
  takeInstallSlot,
} from "./install-reservation.repo.ts";

export const reservationLifetimeMs = 24 * 3600 * 1000;

export interface InstallClient {
  address: string;
  userAgent: string | undefined;
}

export interface InstallEvent {
  organizationId: number;
  applicationId: number;
  versionId: number;
  distributionId: number;
  platform: string;
}

/** Thrown when the link has no install slot left for a new client. */
export class InstallLimitReached extends Error {
  override readonly name = "InstallLimitReached";
}

export function clientKeyOf(client: InstallClient): string {
  return createHash("sha256")
    .update(`${client.address}\n${client.userAgent ?? ""}`)
    .digest("hex");
}

export class InstallReservations {
  constructor(
    private readonly deps: {
      db: Database;
      releases: Pick<ReleaseService, "countInstallEvent">;
      events: DomainEvents;
    },
  ) {}

  /** The client's reservation of the build; a new one takes a slot when `takesSlot`. */
  async reserve(
    link: { id: number },
    versionId: number,
    client: InstallClient,
    options: { takesSlot: boolean },
  ): Promise<{ reservation: ReservationRow; created: boolean }> {
    return this.deps.db.transaction(async (tx) => {
      const key = { distributionId: link.id, versionId, clientKey: clientKeyOf(client) };
      const { row, created } = await insertOrFindReservation(tx, key);
      if (created && options.takesSlot) {
        // Refused: the transaction rolls the reservation back with it.
        if (!(await takeInstallSlot(tx, link.id))) throw new InstallLimitReached();
        await markReservationHoldsSlot(tx, row.id);
      }
      return { reservation: row, created };
    });
  }

  /** Counts the install or download once per reservation, however many requests deliver it. */
  async count(reservation: ReservationRow, event: InstallEvent, kind: "install" | "download"): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      if (!(await markReservationCounted(tx, reservation.id, kind, new Date()))) return;
      await insertInstallEvent(tx, event, kind);
      await this.deps.releases.countInstallEvent(event.versionId, kind, tx);
      await this.deps.events.publish(
        {
          type: "tester.installed",
          organizationId: event.organizationId,
          applicationId: event.applicationId,
          versionId: event.versionId,
          // Who installed is not known (install links need no account); how and where is.
          data: { kind, platform: event.platform, distribution: event.distributionId },
        },
        { tx },
      );
    });
  }

  /** A reservation made by a request that delivered nothing: its slot is free again. */
  async release(reservation: ReservationRow): Promise<void> {
    await releaseReservation(this.deps.db, reservation.id);
  }

  async deleteExpired(now = new Date()): Promise<number> {
    return deleteReservationsBefore(this.deps.db, new Date(now.getTime() - reservationLifetimeMs));
  }
}
