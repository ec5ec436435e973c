import { describe, expect, it, vi } from "vitest";

// Which PostgreSQL client modules this file's module graph has evaluated: each mock is the
// real module, noted as loaded when first required or imported.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock("pg", async (importOriginal) => {
  loaded.add("pg");
  return importOriginal();
});
vi.mock("pg-boss", async (importOriginal) => {
  loaded.add("pg-boss");
  return importOriginal();
});

describe("a deployment on SQLite never loads pg or pg-boss", () => {
  it("importing the store and queue front doors loads neither", async () => {
    const store = await import("../../../src/run/store/index.js");
    await import("../../../src/run/queue/index.js");
    expect([...loaded]).toEqual([]);
    expect(store.createPostgresPool).toBeTypeOf("function");
  });
});
