import { generateKeyPairSync } from "node:crypto";
import { mkdir, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dotEnvPath, readDotEnv } from "../../src/boot/read-dot-env.js";
import { writeDotEnv } from "../../src/boot/write-dot-env.js";

const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
  type: "pkcs1",
  format: "pem",
}) as string;

describe(".env, as setup mode writes it and the app reads it", () => {
  it("keeps what was there, adds the App's credentials, and reads the key back whole", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gadfly-dotenv-"));
    // A user who copied .env.example first: their lines stay, and so does nothing else's mode.
    await writeFile(join(dir, ".env"), "OPENAI_API_KEY=sk-mine\nAPP_ID=\n", { mode: 0o644 });
    // Probot hands the key quoted, as its own writer expects.
    writeDotEnv(join(dir, ".env"), {
      APP_ID: "42",
      PRIVATE_KEY: `"${pem}"`,
      WEBHOOK_SECRET: "s3cret",
    });
    expect((await stat(join(dir, ".env"))).mode & 0o777).toBe(0o600);
    const env = readDotEnv({ APP_ID: "", PATH: "/bin" }, dir);
    expect(env).toMatchObject({
      APP_ID: "42",
      WEBHOOK_SECRET: "s3cret",
      OPENAI_API_KEY: "sk-mine",
    });
    expect(env.PRIVATE_KEY).toBe(pem);
    expect(env.PATH).toBe("/bin");
    expect((await readFile(join(dir, ".env"), "utf8")).split("\n")).toHaveLength(5);
  });

  it("reads and writes the file GADFLY_ENV_FILE names instead, relative to the directory", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gadfly-dotenv-"));
    await writeFile(join(dir, ".env"), "APP_ID=7\n");
    const env = { GADFLY_ENV_FILE: "state/app.env" };
    expect(dotEnvPath(env, dir)).toBe(join(dir, "state", "app.env"));
    expect(dotEnvPath({ GADFLY_ENV_FILE: " " }, dir)).toBe(join(dir, ".env"));
    // The file in the directory is not read when another is named.
    expect(readDotEnv(env, dir)).toEqual(env);
    await mkdir(join(dir, "state"));
    writeDotEnv(dotEnvPath(env, dir), { APP_ID: "42" });
    expect(readDotEnv(env, dir)).toEqual({ ...env, APP_ID: "42" });
  });

  it("reads nothing more when there is no .env", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gadfly-dotenv-"));
    expect(readDotEnv({ APP_ID: "1" }, dir)).toEqual({ APP_ID: "1" });
  });
});
