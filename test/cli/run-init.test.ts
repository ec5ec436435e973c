import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/index.js";
import { STARTER_PROVIDERS } from "../../src/cli/starter-providers.js";
import { loadAppConfig } from "../../src/config/index.js";

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function init(
  args: readonly string[],
  cwd: string,
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean },
): Promise<Ran> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const sink = (into: string[]) => {
    const stream = new PassThrough();
    stream.on("data", (chunk: Buffer) => into.push(chunk.toString()));
    return stream;
  };
  const code = await runCli({
    argv: ["init", ...args],
    env: {},
    cwd,
    stdout: sink(stdout),
    stderr: sink(stderr),
    ...(stdin === undefined ? {} : { stdin }),
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const temporary = () => mkdtemp(join(tmpdir(), "gadfly-init-"));

describe("gadfly init", () => {
  it.each(STARTER_PROVIDERS.map((provider) => [provider.id]))(
    "writes a config for %s alone that the app's loader accepts",
    async (id) => {
      const dir = await temporary();
      const ran = await init(["--providers", id], dir);
      expect(ran.code, ran.stderr).toBe(0);
      const config = await loadAppConfig({ GADFLY_CONFIG: "gadfly.config.yml" }, dir);
      expect(config.providers.map((provider) => provider.name)).toEqual([id]);
      expect(config.models.length).toBeGreaterThan(0);
    },
  );

  it("writes every provider at once, and .env.example names every variable the config and Probot need", async () => {
    const dir = await temporary();
    const all = STARTER_PROVIDERS.map((provider) => provider.id).join(",");
    const ran = await init(["--providers", all], dir);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^wrote gadfly\.config\.yml \(.+\) and \.env\.example$/m);
    expect(ran.stdout).toContain("gadfly doctor");
    const config = await loadAppConfig({ GADFLY_CONFIG: "gadfly.config.yml" }, dir);
    const envText = await readFile(join(dir, ".env.example"), "utf8");
    const lines = envText.split("\n");
    const named = config.providers.flatMap((provider) =>
      provider.type === "command"
        ? provider.env
        : "apiKeyEnv" in provider && provider.apiKeyEnv !== undefined
          ? [provider.apiKeyEnv]
          : [],
    );
    expect(named.length).toBeGreaterThan(0);
    for (const name of [...named, "APP_ID", "PRIVATE_KEY", "WEBHOOK_SECRET"]) {
      const index = lines.indexOf(`${name}=`);
      expect(index, name).toBeGreaterThan(0);
      // One line right above it says where to get it.
      expect(lines[index - 1], name).toMatch(/^# \S/);
    }
    // Each variable once, and the file parses as Probot will read it once copied to .env.
    expect(lines.filter((line) => line === "OPENAI_API_KEY=")).toHaveLength(1);
    expect(Object.keys(parseEnv(envText))).toEqual(expect.arrayContaining(named));
    // Optional settings are listed too, commented out so a copy changes no default.
    for (const name of ["GADFLY_DATA_DIR", "GADFLY_DATABASE_URL", "PORT", "GHE_HOST"]) {
      expect(envText).toMatch(new RegExp(`^# ${name}=`, "m"));
    }
  });

  it("runs the agent CLIs with the same commands as examples/configs/ documents", async () => {
    const dir = await temporary();
    expect((await init(["--providers", "claude-code,codex,gemini-cli"], dir)).code).toBe(0);
    const written = await loadAppConfig({ GADFLY_CONFIG: "gadfly.config.yml" }, dir);
    for (const name of ["claude-code", "codex", "gemini-cli"]) {
      const example = await loadAppConfig(
        { GADFLY_CONFIG: join(ROOT, "examples/configs", `${name}.yml`) },
        dir,
      );
      const commandOf = (config: typeof written) =>
        config.providers.find((provider) => provider.name === name);
      expect(commandOf(written), name).toMatchObject({
        command: (commandOf(example) as { command: string[] }).command,
        env: (commandOf(example) as { env: string[] }).env,
      });
    }
  });

  it("never overwrites: an existing config or .env.example stops it before anything is written", async () => {
    const dir = await temporary();
    await writeFile(join(dir, "gadfly.config.yml"), "mine\n");
    const ran = await init(["--providers", "openai"], dir);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/gadfly\.config\.yml already exists: gadfly init never overwrites/);
    expect(await readFile(join(dir, "gadfly.config.yml"), "utf8")).toBe("mine\n");
    await expect(readFile(join(dir, ".env.example"))).rejects.toThrow();

    const other = await temporary();
    await writeFile(join(other, ".env.example"), "MINE=1\n");
    const second = await init(["--providers", "openai"], other);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(".env.example already exists");
    expect(await readFile(join(other, ".env.example"), "utf8")).toBe("MINE=1\n");
    await expect(readFile(join(other, "gadfly.config.yml"))).rejects.toThrow();
  });

  it("writes where --config says, with .env.example next to it, creating the directory", async () => {
    const dir = await temporary();
    const ran = await init(
      ["--providers", "ollama", "--config", "home/.config/gadfly/config.yml"],
      dir,
    );
    expect(ran.code, ran.stderr).toBe(0);
    await loadAppConfig({ GADFLY_CONFIG: "home/.config/gadfly/config.yml" }, dir);
    expect(await readFile(join(dir, "home/.config/gadfly/.env.example"), "utf8")).toContain(
      "APP_ID=",
    );
    expect(ran.stdout).toContain("gadfly doctor --config home/.config/gadfly/config.yml");
  });

  it("asks on a terminal, taking numbers or names", async () => {
    const dir = await temporary();
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    stdin.end("1, ollama-cloud\n");
    const ran = await init([], dir, stdin);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain("Which model providers should Gadfly use?");
    expect(ran.stderr).toMatch(/1\) openai/);
    const config = await loadAppConfig({ GADFLY_CONFIG: "gadfly.config.yml" }, dir);
    expect(config.providers.map((provider) => provider.name)).toEqual(["openai", "ollama-cloud"]);
  });

  it("refuses an unknown provider, or no choice without a terminal, in one line", async () => {
    const dir = await temporary();
    const unknown = await init(["--providers", "openai,gemeni"], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `gadfly: unknown provider "gemeni": choose from ${STARTER_PROVIDERS.map((p) => p.id).join(", ")}\n`,
    );
    const piped = await init([], dir, Object.assign(new PassThrough(), { isTTY: false }));
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(
      /^gadfly: gadfly init: choose providers with --providers \(openai, /,
    );
    const option = await init(["--format", "json"], dir);
    expect(option.stderr).toContain('--format is not an option of "gadfly init"');
  });
});
