import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readScaleSettings } from "../../src/boot/read-scale-settings.js";
import { createOperationsHandler, startOperationsServer } from "../../src/server/index.js";
import { freePort } from "../helpers/free-port.js";
import { healthcheckExitCode } from "./healthcheck-exit-code.js";
import { type DockerStage, parseDockerfile } from "./parse-dockerfile.js";

/*
 * No Docker engine here: docker-compose.yml is checked against what it runs: the Dockerfile
 * (build, port, volume, working directory), the variables the app reads, the roles it
 * accepts, and the health endpoints each role serves (its healthcheck run for real).
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
  it("runs a web receiver and a worker from this repository's Dockerfile, with PostgreSQL", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["postgres", "web", "worker"]);
    for (const name of gadflyServices) {
      expect(service(name).build, name).toBe(".");
      expect(service(name).env_file, name).toBe(".env");
      expect(service(name).depends_on?.postgres?.condition, name).toBe("service_healthy");
    }
    expect(service("web").image).toBe(service("worker").image);
    expect(statSync(join(ROOT, "Dockerfile")).isFile()).toBe(true);
  });

  it("gives each role settings the app accepts, on the database the postgres service creates", () => {
    const postgres = service("postgres").environment ?? {};
    for (const [name, role] of [
      ["web", "web"],
      ["worker", "worker"],
    ] as const) {
      const environment = service(name).environment ?? {};
      // What compose substitutes from .env: the password variable, whatever its value.
      const substituted = Object.fromEntries(
        Object.entries(environment).map(([key, value]) => [
          key,
          value.replace(/\$\{POSTGRES_PASSWORD:\?[^}]*\}/g, "secret"),
        ]),
      );
      expect(readScaleSettings(substituted)).toMatchObject({ role });
      const url = new URL(substituted.GADFLY_DATABASE_URL ?? "");
      expect(url.hostname).toBe("postgres");
      expect(url.port).toBe("5432");
      expect(decodeURIComponent(url.username)).toBe(postgres.POSTGRES_USER);
      expect(url.pathname).toBe(`/${postgres.POSTGRES_DB}`);
      // The same variable sets the server's password and the app's.
      expect(environment.GADFLY_DATABASE_URL).toContain("${POSTGRES_PASSWORD:?");
      expect(postgres.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    }
    expect(service("postgres").healthcheck?.test).toEqual([
      "CMD",
      "pg_isready",
      "-U",
      postgres.POSTGRES_USER,
      "-d",
      postgres.POSTGRES_DB,
    ]);
  });

  it("sets only variables the app reads", () => {
    const known = variablesTheAppReads();
    expect(known.has("GADFLY_WORKER_CONCURRENCY")).toBe(true);
    for (const name of gadflyServices) {
      for (const variable of Object.keys(service(name).environment ?? {})) {
        expect(known.has(variable), `${name}: ${variable}`).toBe(true);
      }
    }
  });

  it("publishes the web's port, the one the image exposes and the app listens on", () => {
    const exposed = instruction("EXPOSE");
    expect(exposed).toEqual([imageEnv.PORT]);
    expect(service("web").ports).toEqual([`${imageEnv.PORT}:${imageEnv.PORT}`]);
    // A worker receives no webhook: nothing of it is published.
    expect(service("worker").ports).toBeUndefined();
  });

  it("mounts a data volume of its own at the image's data directory, and the config read-only where the app looks", () => {
    const workdir = instruction("WORKDIR").at(-1);
    expect(instruction("VOLUME")).toEqual([imageEnv.GADFLY_DATA_DIR]);
    const volumes = gadflyServices.map((name) => {
      const mounts = service(name).volumes ?? [];
      expect(mounts, name).toContain(`./gadfly.config.yml:${workdir}/gadfly.config.yml:ro`);
      const data = mounts.find((mount) => mount.endsWith(`:${imageEnv.GADFLY_DATA_DIR}`));
      expect(data, name).toBeDefined();
      const volume = (data ?? "").split(":")[0] ?? "";
      expect(Object.keys(compose.volumes), name).toContain(volume);
      return volume;
    });
    // docs/running-at-scale.md: with PostgreSQL each process has its own scratch directory.
    expect(new Set(volumes).size).toBe(volumes.length);
    expect(service("postgres").volumes?.[0]).toMatch(
      /^postgres-data:\/var\/lib\/postgresql\/data$/,
    );
  });

  it.each(gadflyServices)(
    "the %s healthcheck asks an endpoint its role serves: passes when ready, fails when not or when nothing answers",
    async (name) => {
      const command = service(name).healthcheck?.test ?? [];
      expect(command.slice(0, 2)).toEqual(["CMD", "node"]);
      const path = /\/(healthz|readyz|metrics|ping)'/.exec(command.join(" "))?.[1];
      // The worker serves only the operations endpoints (not Probot's /ping).
      expect(["healthz", "readyz"]).toContain(path);
      let ready = true;
      const handler = createOperationsHandler({
        ready: async () => {
          if (!ready) throw new Error("store down");
        },
        metrics: { render: async () => "" },
      });
      const port = await freePort();
      const server = await startOperationsServer(handler, { port, host: "127.0.0.1" });
      try {
        expect(await healthcheckExitCode(command.slice(1), port)).toBe(0);
        ready = false;
        if (path === "readyz") expect(await healthcheckExitCode(command.slice(1), port)).toBe(1);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      expect(await healthcheckExitCode(command.slice(1), port)).toBe(1);
    },
  );

  it("is described in docs/running-at-scale.md", () => {
    const docs = readFileSync(join(ROOT, "docs/running-at-scale.md"), "utf8");
    expect(docs).toContain("docker-compose.yml");
    expect(docs).toContain("docker compose up");
  });
});
