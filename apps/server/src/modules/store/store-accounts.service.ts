/**
 * Owns the organizations' store developer accounts (App Store Connect API keys, Google Play
 * service accounts) and their store uploads. Keys are sealed at rest and never sent back; an
 * account is saved only after the store accepted it.
 */
import type {
  AppleDeveloperAccountInput,
  DeveloperAccount,
  GoogleDeveloperAccountInput,
  StoreKind,
} from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import type { Database } from "../../platform/db/client.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import { readServiceAccount } from "./google-play.ts";
import { can, type StoreAction } from "./store.policy.ts";
import {
  countDeveloperAccounts,
  type DeveloperAccountRow,
  deleteDeveloperAccount,
  findDeveloperAccountById,
  insertDeveloperAccount,
  listDeveloperAccounts,
} from "./store.repo.ts";
import type { StoreClients } from "./store-clients.ts";
import { StoreError } from "./store-http.ts";

export interface StoreAccountsDeps {
  db: Database;
  membership: MembershipService;
  clients: StoreClients;
}

/** What a key file field answers when the store or the file says no. */
function keyFileError(error: unknown): AppError {
  if (error instanceof StoreError) return AppError.validation({ private_key_file: [error.message] });
  throw error;
}

export class StoreAccountService {
  constructor(private readonly deps: StoreAccountsDeps) {}

  private async authorize(userId: number, organizationId: number, action: StoreAction) {
    const member = await this.deps.membership.getMembership(userId, organizationId);
    if (!can(member, action)) throw AppError.forbidden();
    return member;
  }

  async list(userId: number, organizationId: number, store: StoreKind): Promise<DeveloperAccount[]> {
    await this.authorize(userId, organizationId, "store-account:read");
    return (await listDeveloperAccounts(this.deps.db, organizationId, store)).map(presentAccount);
  }

  /** Whether the organization has any developer account (store events are offered only then); the caller checked access. */
  async hasAccounts(organizationId: number): Promise<boolean> {
    return (await countDeveloperAccounts(this.deps.db, organizationId)) > 0;
  }

  async createApple(userId: number, input: AppleDeveloperAccountInput, keyFile: Buffer | undefined) {
    await this.authorize(userId, input.org, "store-account:manage");
    if (!keyFile?.length) throw AppError.validation({ private_key_file: ["No file was submitted."] });
    const privateKey = keyFile.toString("utf8");
    try {
      // A token is signed and one read made: a wrong issuer, key id or revoked key fails here.
      await this.deps.clients.apple({ issuerId: input.issuer_id, keyId: input.key_id, privateKey }).verify();
    } catch (error) {
      throw keyFileError(error);
    }
    const row = await insertDeveloperAccount(this.deps.db, {
      organizationId: input.org,
      store: "app_store",
      keyName: input.key_name,
      issuerId: input.issuer_id,
      keyId: input.key_id,
      sealedKey: this.deps.clients.seal(privateKey),
      createdBy: userId,
    });
    return presentAccount(row);
  }

  async createGoogle(userId: number, input: GoogleDeveloperAccountInput, keyFile: Buffer | undefined) {
    await this.authorize(userId, input.org, "store-account:manage");
    if (!keyFile?.length) throw AppError.validation({ private_key_file: ["No file was submitted."] });
    const json = keyFile.toString("utf8");
    let clientEmail: string;
    try {
      clientEmail = readServiceAccount(json).client_email;
      // Google signs no token for a deleted or disabled service account, or a key it revoked.
      await this.deps.clients.google(json).accessToken();
    } catch (error) {
      throw keyFileError(error);
    }
    const row = await insertDeveloperAccount(this.deps.db, {
      organizationId: input.org,
      store: "google_play",
      keyName: input.key_name,
      clientEmail,
      sealedKey: this.deps.clients.seal(json),
      createdBy: userId,
    });
    return presentAccount(row);
  }

  async delete(userId: number, store: StoreKind, id: number): Promise<void> {
    const account = await findDeveloperAccountById(this.deps.db, id);
    if (!account || account.store !== store) throw AppError.notFound();
    await this.authorize(userId, account.organizationId, "store-account:manage");
    if (!(await deleteDeveloperAccount(this.deps.db, account.organizationId, id))) throw AppError.notFound();
  }
}

export function presentAccount(row: DeveloperAccountRow): DeveloperAccount {
  return {
    id: row.id,
    org: row.organizationId,
    store: row.store as StoreKind,
    key_name: row.keyName,
    issuer_id: row.issuerId,
    key_id: row.keyId,
    client_email: row.clientEmail,
    created_at: row.createdAt.toISOString(),
  };
}
