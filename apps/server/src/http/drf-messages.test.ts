import { useDrfMessages } from "@tarmac/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const messageOf = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;

describe("validation messages in DRF's words", () => {
  beforeAll(() => useDrfMessages());

  it.each([
    [z.object({ app: z.number().int() }), {}, "This field is required."],
    [z.object({ app: z.number().int() }), { app: null }, "This field may not be null."],
    [z.object({ app: z.number().int() }), { app: "seven" }, "A valid integer is required."],
    [z.object({ on: z.boolean() }), { on: "yes" }, "Must be a valid boolean."],
    [z.object({ ids: z.array(z.number()) }), { ids: "1" }, 'Expected a list of items but got type "str".'],
    [z.string().min(1), "", "This field may not be blank."],
    [z.string().min(8), "short", "Ensure this field has at least 8 characters."],
    [z.string().max(3), "long", "Ensure this field has no more than 3 characters."],
    [z.number().min(1), 0, "Ensure this value is greater than or equal to 1."],
    [z.number().max(3), 9, "Ensure this value is less than or equal to 3."],
    [z.email(), "nope", "Enter a valid email address."],
    [z.enum(["a", "b"]), "c", '"c" is not a valid choice.'],
    [z.array(z.number()).min(1), [], "This list may not be empty."],
  ])("%#: %j", (schema, input, message) => {
    expect(messageOf(schema, input)).toBe(message);
  });

  it("keeps a message a schema spells out itself", () => {
    expect(messageOf(z.string().min(1, "Give the app a title."), "")).toBe("Give the app a title.");
  });
});
