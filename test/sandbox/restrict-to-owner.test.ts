import { chmod, mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { restrictToOwner } from "../../src/sandbox/index.js";

let scratch: string;

beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), "gadfly-restrict-"));
});

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("restrictToOwner", () => {
  it("makes our data directory 0700, keeping the owner's bits", async () => {
    const dataDir = join(scratch, ".gadfly");
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    expect(await restrictToOwner(dataDir)).toBe(true);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
  });

  it("leaves a missing directory alone (the store may be PostgreSQL)", async () => {
    expect(await restrictToOwner(join(scratch, "absent"))).toBe(false);
  });
});
