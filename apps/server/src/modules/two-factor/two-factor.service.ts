/**
 * Owns TOTP two-factor authentication: pending secrets, enabling, recovery codes, disabling,
 * and checking a second factor at login. The secret is sealed at rest; each accepted time step
 * is remembered so a code cannot be replayed; recovery codes are random, hashed and single use.
 */

import { randomBytes } from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { AppError } from "../../http/errors.ts";
import { checkOwnCredential } from "../../http/throttle/throttle.ts";
import { SecretBox } from "../../platform/crypto/secret-box.ts";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Database } from "../../platform/db/client.ts";
import type { PersonalDataSection } from "../../platform/personal-data.ts";
import type { UserService } from "../users/user.service.ts";
import { consumeRecoveryCode, listRecoveryCodeStates, replaceRecoveryCodes } from "./two-factor.repo.ts";

const issuer = "Tarmac";
const recoveryCodeCount = 10;
// Base32 without look-alikes; 16 characters carry 80 bits, so a plain SHA-256 suffices at rest.
const recoveryAlphabet = "abcdefghijkmnpqrstuvwxyz23456789";
/** One step either side absorbs clock drift between the phone and the server. */
const epochTolerance = 30;

export const invalidCodeMessage = "Invalid code.";

function generateRecoveryCode(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((byte) => recoveryAlphabet[byte % recoveryAlphabet.length]).join("");
  return chars.match(/.{4}/g)?.join("-") ?? chars;
}

function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replaceAll("-", "").replaceAll(" ", "");
}

export class TwoFactorService {
  private readonly box: SecretBox;
  private readonly db: Database;

  constructor(private readonly deps: { db: Database; users: UserService; secretKey: string }) {
    this.db = deps.db;
    this.box = new SecretBox(deps.secretKey, "two-factor-secret");
  }

  /** The 2FA columns live on the user row, which the users module owns. */
  private async getState(userId: number) {
    const user = await this.deps.users.findById(userId);
    if (!user) throw AppError.notFound();
    return {
      email: user.email,
      secret: user.twoFactorSecret,
      enabled: user.twoFactorEnabled,
      lastStep: user.twoFactorLastStep,
    };
  }

  private async saveState(
    userId: number,
    state: { secret?: string | null; enabled?: boolean; lastStep?: number | null },
    db = this.db,
  ) {
    await this.deps.users.update(
      userId,
      {
        ...(state.secret !== undefined ? { twoFactorSecret: state.secret } : {}),
        ...(state.enabled !== undefined ? { twoFactorEnabled: state.enabled } : {}),
        ...(state.lastStep !== undefined ? { twoFactorLastStep: state.lastStep } : {}),
      },
      db,
    );
  }

  /** A new pending secret with its otpauth URI and QR code; enabling needs a code from it. */
  async createPendingKey(userId: number) {
    const state = await this.getState(userId);
    if (state.enabled) throw AppError.badRequest("Two-factor authentication is already enabled.");
    const secret = generateSecret();
    await this.saveState(userId, { secret: this.box.seal(secret), lastStep: null });
    const otpauthUri = generateURI({ issuer, label: state.email, secret });
    const qrCode = await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: "M", margin: 2, width: 240 });
    return { secret, otpauthUri, qrCode };
  }

  /** Checks a TOTP code against the stored secret and consumes its time step. */
  private async acceptTotp(
    userId: number,
    sealedSecret: string | null,
    lastStep: number | null,
    token: string,
  ) {
    if (!sealedSecret || !/^\d{6}$/.test(token)) return false;
    const result = await verify({
      secret: this.box.open(sealedSecret),
      token,
      epochTolerance,
      ...(lastStep !== null ? { afterTimeStep: lastStep } : {}),
    });
    if (!result.valid || !("timeStep" in result)) return false;
    return this.deps.users.advanceTwoFactorStep(userId, result.timeStep);
  }

  private async issueRecoveryCodes(db: Database, userId: number): Promise<string[]> {
    const codes = Array.from({ length: recoveryCodeCount }, generateRecoveryCode);
    await replaceRecoveryCodes(
      db,
      userId,
      codes.map((code) => hashToken(normalizeRecoveryCode(code))),
    );
    return codes;
  }

  async enable(userId: number, token: string) {
    const state = await this.getState(userId);
    if (state.enabled) throw AppError.badRequest("Two-factor authentication is already enabled.");
    if (!state.secret) throw AppError.badRequest("Request a two-factor key first.");
    if (!(await this.acceptTotp(userId, state.secret, state.lastStep, token.trim()))) {
      throw AppError.validation({ token: [invalidCodeMessage] });
    }
    return this.db.transaction(async (tx) => {
      await this.saveState(userId, { enabled: true }, tx);
      return this.issueRecoveryCodes(tx, userId);
    });
  }

  async regenerateRecoveryCodes(userId: number): Promise<string[]> {
    const state = await this.getState(userId);
    if (!state.enabled) throw AppError.badRequest("Two-factor authentication is not enabled.");
    return this.db.transaction((tx) => this.issueRecoveryCodes(tx, userId));
  }

  /** The user turns 2FA off, proving it is them with a current code or their password. */
  async disableWithProof(userId: number, proof: { token?: string; password?: string }) {
    const state = await this.getState(userId);
    if (!state.enabled) throw AppError.badRequest("Two-factor authentication is not enabled.");
    if (proof.token) {
      const token = proof.token;
      const ok = await checkOwnCredential(this.db, userId, () => this.verifySecondFactor(userId, token));
      if (!ok) throw AppError.validation({ token: [invalidCodeMessage] });
    } else if (proof.password) {
      const password = proof.password;
      const ok = await checkOwnCredential(this.db, userId, () =>
        this.deps.users.verifyPassword(userId, password),
      );
      if (!ok) throw AppError.validation({ password: ["Wrong password."] });
    } else {
      throw AppError.validation({ non_field_errors: ["Enter a code from your app or your password."] });
    }
    await this.disableTwoFactor(userId);
  }

  /** Turns 2FA off without proof; for organization admins acting on a member (they check the rights). */
  async disableTwoFactor(userId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.saveState(userId, { enabled: false, secret: null, lastStep: null }, tx);
      await replaceRecoveryCodes(tx, userId, []);
    });
  }

  async isEnabled(userId: number): Promise<boolean> {
    return (await this.getState(userId)).enabled;
  }

  /** A login's second factor: a 6-digit TOTP code (each step once) or an unused recovery code. */
  async verifySecondFactor(userId: number, code: string): Promise<boolean> {
    const state = await this.getState(userId);
    if (!state.enabled) return false;
    const trimmed = code.trim();
    if (/^\d{6}$/.test(trimmed)) return this.acceptTotp(userId, state.secret, state.lastStep, trimmed);
    const normalized = normalizeRecoveryCode(trimmed);
    if (normalized.length !== 16) return false;
    return consumeRecoveryCode(this.db, userId, hashToken(normalized), new Date());
  }

  readonly personalData: PersonalDataSection = {
    name: "recovery_codes",
    load: async (person) => {
      const codes = await listRecoveryCodeStates(this.db, person.id);
      return { total: codes.length, unused: codes.filter((code) => code.usedAt === null).length };
    },
  };
}
