import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors.ts";
import { checkEndpoint, chooseSecret, parseServiceAccount } from "./storage-input.ts";

async function fieldErrors(check: Promise<unknown>): Promise<unknown> {
  try {
    await check;
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).body();
  }
}

describe("organization storage input", () => {
  it("refuses endpoints on this machine or private networks unless the instance allows them", async () => {
    expect(await fieldErrors(checkEndpoint("https://127.0.0.1:9000", false))).toEqual({
      endpoint: ["This address is not a public one."],
    });
    expect(await fieldErrors(checkEndpoint("https://169.254.169.254", false))).toEqual({
      endpoint: ["This address is not a public one."],
    });
    expect(await fieldErrors(checkEndpoint("http://minio.example.com", false))).toEqual({
      endpoint: ["Use an https:// address."],
    });
    expect(await fieldErrors(checkEndpoint("https://user:pass@s3.example.com", false))).toEqual({
      endpoint: ["Enter the service address alone, without credentials or query."],
    });
    expect(await fieldErrors(checkEndpoint("http://127.0.0.1:9000", true))).toBeNull();
    expect(await fieldErrors(checkEndpoint("", false))).toBeNull();
  });

  it("keeps the saved secret when none is sent", () => {
    expect(chooseSecret(undefined, "saved")).toBe("saved");
    expect(chooseSecret("  new ", "saved")).toBe("new");
    expect(() => chooseSecret("", null)).toThrow(AppError);
  });

  it("accepts only Google's token endpoint in a key file unless the instance allows private targets", () => {
    const key = {
      type: "service_account",
      project_id: "p",
      client_email: "a@p.iam.gserviceaccount.com",
      private_key: "not a key",
    };
    expect(() => parseServiceAccount(Buffer.from(JSON.stringify(key)), false)).toThrow(AppError);
  });
});
