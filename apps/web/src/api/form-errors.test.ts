import { describe, expect, it } from "vitest";
import { ApiError } from "./client.ts";
import { readFormErrors } from "./form-errors.ts";

describe("readFormErrors", () => {
  it("maps known fields and sends the rest to the general message", () => {
    const error = new ApiError(
      400,
      { email: ["Enter a valid email address."], non_field_errors: ["Too many attempts."], error_code: 7 },
      "Server Error",
    );
    expect(readFormErrors(error, ["email", "password"], "Server Error (translated)")).toEqual({
      fields: { email: "Enter a valid email address." },
      general: "Too many attempts.",
    });
  });

  it("uses the detail of other statuses and the translated fallback for 'Server Error'", () => {
    expect(readFormErrors(new ApiError(403, { detail: "Forbidden." }, "Forbidden."), [], "X")).toEqual({
      fields: {},
      general: "Forbidden.",
    });
    expect(readFormErrors(new ApiError(500, null, "Server Error"), [], "Serverfehler")).toEqual({
      fields: {},
      general: "Serverfehler",
    });
  });
});
