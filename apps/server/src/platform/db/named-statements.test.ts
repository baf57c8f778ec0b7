import type pg from "pg";
import { describe, expect, it } from "vitest";
import { createStatementNames, nameStatementsOf } from "./named-statements.ts";

/** A stand-in connection that records what the driver would send. */
function recordingClient() {
  const sent: unknown[] = [];
  const client = { query: (config: unknown) => sent.push(config) } as unknown as pg.Client;
  return { client, sent };
}

describe("named statements", () => {
  it("names each parameterised text once and the same text alike on every connection", () => {
    const names = createStatementNames();
    const first = recordingClient();
    const second = recordingClient();
    nameStatementsOf(first.client, names);
    nameStatementsOf(second.client, names);
    first.client.query({ text: "select $1::int" }, [1]);
    first.client.query({ text: "select $1::int" }, [2]);
    second.client.query({ text: "select $1::int", values: [3] });
    first.client.query({ text: "select $1::text" }, ["a"]);
    const nameOf = (config: unknown) => (config as { name?: string }).name;
    const [once, again, other] = first.sent.map(nameOf);
    expect(once).toMatch(/^tarmac_\d+$/);
    expect([again, nameOf(second.sent[0])]).toEqual([once, once]);
    expect(other).toMatch(/^tarmac_\d+$/);
    expect(other).not.toBe(once);
  });

  it("leaves parameterless text (it may hold several statements) and already named statements alone", () => {
    const { client, sent } = recordingClient();
    nameStatementsOf(client, createStatementNames());
    client.query("begin");
    client.query({ text: "create table a (x int); create table b (y int)" });
    client.query({ text: "select $1::int", name: "mine" }, [1]);
    expect(sent).toEqual([
      "begin",
      { text: "create table a (x int); create table b (y int)" },
      { text: "select $1::int", name: "mine" },
    ]);
  });

  it("stops naming new texts past the bounds, so varying statements cannot grow memory", () => {
    const names = createStatementNames(3);
    const { client, sent } = recordingClient();
    nameStatementsOf(client, names, 2);
    for (let i = 0; i < 5; i++) client.query({ text: `select $1::int + ${i}` }, [i]);
    client.query({ text: "select $1::int + 0" }, [9]);
    const sentNames = sent.map((config) => (config as { name?: string }).name);
    // Two per connection; the third text has a name but this connection is full.
    expect(sentNames).toEqual(["tarmac_1", "tarmac_2", undefined, undefined, undefined, "tarmac_1"]);
    expect(names.nameOf("select $1::int + 3")).toBeUndefined();
  });
});
