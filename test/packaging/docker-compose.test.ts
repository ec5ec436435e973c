import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readScaleSettings } from "../../src/boot/read-scale-settings.js";
import { SHUTDOWN_GRACE_MS } from "../../src/boot/start-gadfly.js";
import { type DockerStage, parseDockerfile } from "./parse-dockerfile.js";

/*
 * docker-compose.yml checked against what it runs, without an engine: the Dockerfile (build,
 * port, volume, working directory), the variables the app reads, the roles it accepts, and what
 * each service is given. test/packaging/container.e2e.test.ts runs it for real.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const compose = parse(readFileSync(join(ROOT, "docker-compose.yml"), "utf8"), {
  merge: true,
}) as Compose;
const runtime = parseDockerfile(readFileSync(join(ROOT, "Dockerfile"), "utf8")).at(
  -1,
) as DockerStage;

interface Service {
  build?: string;
  init?: boolean;
  stop_grace_period?: string;
  mem_limit?: string;
  cpus?: number;
  pids_limit?: number;
  secrets?: string[];
  security_opt?: string[];
  logging?: { driver: string; options?: Record<string, string> };
  image?: string;
  env_file?: string | string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  secrets?: Record<string, { file: string }>;
}

const gadflyServices = ["web", "worker"] as const;
const service = (name: string): Service => {
  const found = compose.services[name];
  if (found === undefined) throw new Error(`no service ${name}`);
  return found;
};
const instruction = (keyword: string) =>
  runtime.instructions.filter((entry) => entry.keyword === keyword).map((entry) => entry.argument);
const imageEnv = Object.fromEntries(
  instruction("ENV")
    .join(" ")
    .split(/\s+/)
    .map((pair) => pair.split("=") as [string, string]),
);

/** Every variable the app reads: `env.X` and `"GADFLY_…"` in src/, and Probot's own. */
function variablesTheAppReads(): Set<string> {
  const names = new Set<string>();
  const files = (directory: string): string[] =>
    readdirSync(directory).flatMap((entry) => {
      const path = join(directory, entry);
      return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
    });
  const probot = join(ROOT, "node_modules/probot/lib/bin/read-env-options.js");
  for (const file of [...files(join(ROOT, "src")), probot]) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)/g)) names.add(match[1] ?? "");
    for (const match of text.matchAll(/"(GADFLY_[A-Z0-9_]+)"/g)) names.add(match[1] ?? "");
  }
  return names;
}

describe("docker-compose.yml", () => {
  const gadfly = gadflyServices.map((name) => [name, service(name)] as const);

  it("runs a web receiver and workers from this repository's Dockerfile, with PostgreSQL", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["postgres", "web", "worker"]);
    for (const [name, entry] of gadfly) {
      expect(entry.build, name).toBe(".");
      expect(entry.depends_on?.postgres?.condition, name).toBe("service_healthy");
    }
    expect(service("web").image).toBe(service("worker").image);
    expect(service("postgres").image).toBe("${POSTGRES_IMAGE:-postgres:17}");
  });

  it("gives each service only its own secrets: the key as a file, the password outside any URL", () => {
    for (const [name, entry] of gadfly) {
      const environment = entry.environment ?? {};
      expect(entry.secrets, name).toEqual(["github_app_key"]);
      expect(environment.PRIVATE_KEY_PATH, name).toBe("/run/secrets/github_app_key");
      expect(environment.PRIVATE_KEY, name).toBeUndefined();
      // No password in the URL, so no character of it needs escaping.
      expect(new URL(environment.GADFLY_DATABASE_URL ?? "").password, name).toBe("");
      expect(environment.PGPASSWORD, name).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
      expect(readScaleSettings({ ...environment }).role, name).toBe(name);
    }
    expect(compose.secrets?.github_app_key?.file).toBe("secrets/github-app.pem");
    // No service reads everything: compose's .env only fills in values.
    for (const entry of Object.values(compose.services)) expect(entry.env_file).not.toBe(".env");
    expect(service("web").environment?.WEBHOOK_SECRET).toMatch(/^\$\{WEBHOOK_SECRET:\?/);
    expect(service("worker").environment?.WEBHOOK_SECRET).toBeUndefined();
    expect(service("web").env_file).toBeUndefined();
    expect(service("worker").env_file).toBe("secrets/providers.env");
    expect(service("postgres").environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
  });

  it("sets only variables the app reads", () => {
    const known = variablesTheAppReads();
    // Read by node-postgres and @probot/get-private-key, under the app.
    known.add("PGPASSWORD");
    expect(
      readFileSync(join(ROOT, "node_modules/@probot/get-private-key/dist-src/index.js"), "utf8"),
    ).toContain("PRIVATE_KEY_PATH");
    known.add("PRIVATE_KEY_PATH");
    for (const [name, entry] of gadfly) {
      for (const variable of Object.keys(entry.environment ?? {})) {
        expect(known.has(variable), `${name}: ${variable}`).toBe(true);
      }
    }
  });

  it("publishes only the web's port, where /metrics needs the dashboard token", () => {
    expect(instruction("EXPOSE")).toEqual([imageEnv.PORT]);
    expect(service("web").ports).toEqual([`${imageEnv.PORT}:${imageEnv.PORT}`]);
    expect(service("web").environment?.GADFLY_DASHBOARD_TOKEN).toMatch(
      /^\$\{GADFLY_DASHBOARD_TOKEN:\?/,
    );
    expect(service("worker").ports).toBeUndefined();
    expect(service("postgres").ports).toBeUndefined();
  });

  it("has init, a grace period past Gadfly's shutdown, limits and log rotation", () => {
    for (const [name, entry] of gadfly) {
      expect(entry.init, name).toBe(true);
      expect(Number.parseInt(entry.stop_grace_period ?? "0", 10), name).toBeGreaterThan(
        SHUTDOWN_GRACE_MS / 1000 + 2,
      );
      expect(entry.mem_limit, name).toBeDefined();
      expect(entry.cpus, name).toBeDefined();
      expect(entry.pids_limit, name).toBeGreaterThan(0);
    }
    for (const entry of Object.values(compose.services)) {
      expect(entry.logging?.driver).toBe("json-file");
      expect(entry.logging?.options?.["max-size"]).toBeDefined();
      expect(entry.logging?.options?.["max-file"]).toBeDefined();
    }
  });

  it("gives each container a scratch data directory of its own and the config read-only where the app looks", () => {
    const workdir = instruction("WORKDIR").at(-1);
    expect(instruction("VOLUME")).toEqual([imageEnv.GADFLY_DATA_DIR]);
    for (const [name, entry] of gadfly) {
      const mounts = entry.volumes ?? [];
      expect(mounts, name).toContain(`./gadfly.config.yml:${workdir}/gadfly.config.yml:ro`);
      // An anonymous volume: `--scale worker=3` gives each worker its own.
      expect(mounts, name).toContain(imageEnv.GADFLY_DATA_DIR);
    }
    expect(service("postgres").volumes).toEqual(["postgres-data:/var/lib/postgresql/data"]);
  });

  it("runs the worker's agent CLIs under the shipped seccomp profile, never unconfined", () => {
    const options = service("worker").security_opt ?? [];
    expect(options).toContain("seccomp=docker/seccomp-bwrap.json");
    expect(options.join(" ")).not.toMatch(/seccomp[=:]unconfined/);
    expect(statSync(join(ROOT, "docker/seccomp-bwrap.json")).isFile()).toBe(true);
    // The receiver runs no agent CLI and gets no sandbox option.
    expect(service("web").security_opt).toBeUndefined();
    const profile = JSON.parse(readFileSync(join(ROOT, "docker/seccomp-bwrap.json"), "utf8")) as {
      defaultAction: string;
      syscalls: { names: string[]; action: string }[];
    };
    const refused = profile.syscalls
      .filter((rule) => rule.action === "SCMP_ACT_ERRNO")
      .flatMap((rule) => rule.names);
    for (const name of ["kexec_load", "init_module", "bpf", "keyctl", "open_by_handle_at"]) {
      expect(refused).toContain(name);
    }
    for (const name of ["unshare", "clone", "clone3", "mount", "pivot_root", "setns"]) {
      expect(refused).not.toContain(name);
    }
  });

  it("is described in docs/running-at-scale.md", () => {
    const docs = readFileSync(join(ROOT, "docs/running-at-scale.md"), "utf8");
    expect(docs).toContain("docker-compose.yml");
    expect(docs).toContain("docker compose up");
  });
});
