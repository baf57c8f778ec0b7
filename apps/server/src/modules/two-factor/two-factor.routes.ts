import {
  recoveryCodesResponse,
  twoFactorDisabled,
  twoFactorDisableInput,
  twoFactorEnabled,
  twoFactorKey,
  twoFactorTokenInput,
} from "@tarmac/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireActor } from "../../http/auth.ts";
import { assertSignedIn } from "../../http/signed-in.ts";
import { requireXsrfForCookieAuth } from "../../http/xsrf.ts";
import type { TwoFactorService } from "./two-factor.service.ts";

const tags = ["two-factor"];

export function registerTwoFactorRoutes(app: FastifyInstance, deps: { twoFactor: TwoFactorService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get("/api/user/get-2fa-key/", {
    schema: { tags, summary: "Start 2FA setup: a new pending secret", response: { 200: twoFactorKey } },
    handler: async (request) => {
      const key = await deps.twoFactor.createPendingKey(requireActor(request).userId);
      return { secret: key.secret, otpauth_uri: key.otpauthUri, qr_code: key.qrCode };
    },
  });

  r.post("/api/user/check-2fa-token/", {
    preValidation: assertSignedIn,
    schema: {
      tags,
      summary: "Enable 2FA with a code from the pending secret",
      body: twoFactorTokenInput,
      response: { 200: twoFactorEnabled },
    },
    handler: async (request) => {
      const codes = await deps.twoFactor.enable(requireActor(request).userId, request.body.token);
      return { two_factor_enabled: true as const, recovery_codes: codes };
    },
  });

  r.get("/api/user/recovery-codes-2fa/", {
    schema: { tags, summary: "Replace the recovery codes", response: { 200: recoveryCodesResponse } },
    handler: async (request) => {
      // It replaces the codes: a cross-site page must not be able to trigger it.
      requireXsrfForCookieAuth(request);
      return { recovery_codes: await deps.twoFactor.regenerateRecoveryCodes(requireActor(request).userId) };
    },
  });

  r.post("/api/user/disable-2fa/", {
    preValidation: assertSignedIn,
    schema: {
      tags,
      summary: "Disable 2FA with a code or the password",
      body: twoFactorDisableInput,
      response: { 200: twoFactorDisabled },
    },
    handler: async (request) => {
      await deps.twoFactor.disableWithProof(requireActor(request).userId, request.body);
      return { two_factor_enabled: false as const };
    },
  });
}
