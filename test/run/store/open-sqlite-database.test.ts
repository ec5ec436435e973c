import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteRunStore } from "../../../src/run/store/sqlite-run-store.js";
import { StoreOpenError } from "../../../src/run/store/store-open-error.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../../helpers/temporary-store-directory.js";

// Root ignores directory permissions, so a chmod test proves nothing there (as in CI).
const runningAsRoot = process.getuid?.() === 0;

async function openingError(path: string): Promise<StoreOpenError> {
  const error = await SqliteRunStore.open(path).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StoreOpenError);
  return error as StoreOpenError;
}

let temporary: TemporaryStoreDirectory;

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
});

afterEach(async () => {
  await chmod(temporary.directory, 0o755);
  await temporary.remove();
});

describe("opening the store", () => {
  it("reports a file that is not a database as corrupt, says what to do, and leaves it be", async () => {
    const garbage = randomBytes(8192);
    await mkdir(join(temporary.directory, "data"));
    await writeFile(temporary.path, garbage);

    const error = await openingError(temporary.path);
    expect(error.reason).toBe("corrupt");
    expect(error.path).toBe(temporary.path);
    expect(error.message).toContain(temporary.path);
    expect(error.message).toContain(`mv ${temporary.path} ${temporary.path}.corrupt`);
    expect(error.message).not.toContain("\n");
    expect(await readFile(temporary.path)).toEqual(garbage);
  });

  it("reports a data dir that cannot be created as not writable, naming GADFLY_DATA_DIR", async () => {
    // A path under a regular file fails for every user, root included.
    const file = join(temporary.directory, "plain-file");
    await writeFile(file, "not a directory");
    const path = join(file, "sub", "gadfly.sqlite");

    const error = await openingError(path);
    expect(error.reason).toBe("not-writable");
    expect(error.path).toBe(path);
    expect(error.message).toContain(path);
    expect(error.message).toContain("GADFLY_DATA_DIR");
  });

  it.skipIf(runningAsRoot)("reports a read-only data dir as not writable", async () => {
    const readOnly = join(temporary.directory, "read-only");
    await mkdir(readOnly);
    await chmod(readOnly, 0o555);
    const path = join(readOnly, "gadfly.sqlite");

    const error = await openingError(path);
    expect(error.reason).toBe("not-writable");
    expect(error.message).toContain(path);
    await chmod(readOnly, 0o755);
  });

  it.skipIf(runningAsRoot)("reports a read-only database file as not writable", async () => {
    const store = await SqliteRunStore.open(temporary.path);
    await store.close();
    await chmod(temporary.path, 0o444);

    const error = await openingError(temporary.path);
    expect(error.reason).toBe("not-writable");
  });
});
