/**
 * A PostgreSQL server for tests. With GADFLY_TEST_DATABASE_URL set (CI starts
 * one), tests use that server; otherwise, when the server binaries are
 * installed, a throwaway server is started in a temp dir on a loopback port
 * (as the `postgres` user when running as root) and removed afterwards.
 * Each caller gets databases of its own, so test files never share tables.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface TestPostgres {
  /** A fresh, empty database on the server: `postgres://…/gadfly_test_…`. */
  createDatabase(): Promise<string>;
  /** Drops the databases created here and stops the server if it was started here. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  pgCtl: string;
}

const URL_VARIABLE = "GADFLY_TEST_DATABASE_URL";

/**
 * Why the PostgreSQL tests cannot run on this machine, or null when they can.
 * On CI a missing server is an error, not a skip: CI must run them.
 */
export function postgresUnavailableReason(): string | null {
  if ((process.env[URL_VARIABLE] ?? "") !== "") return null;
  const reason =
    findBinaries() === null
      ? `PostgreSQL tests skipped: set ${URL_VARIABLE} or install the server binaries (initdb, pg_ctl).`
      : asRoot() && postgresUser() === null
        ? "PostgreSQL tests skipped: running as root and there is no `postgres` user to run initdb as."
        : null;
  if (reason !== null && process.env.CI === "true") {
    throw new Error(
      `${reason} CI must run them: .ci/run starts a server and sets ${URL_VARIABLE}.`,
    );
  }
  if (reason !== null) console.warn(reason);
  return reason;
}

/** The server named by GADFLY_TEST_DATABASE_URL, or a throwaway one started here. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const given = process.env[URL_VARIABLE] ?? "";
  if (given !== "") return databasesOn(given, async () => undefined);
  const server = await startThrowawayServer();
  return databasesOn(server.url, server.stop);
}

function databasesOn(serverUrl: string, stopServer: () => Promise<void>): TestPostgres {
  const created: string[] = [];
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    async createDatabase() {
      const name = `gadfly_test_${randomBytes(6).toString("hex")}`;
      await admin((client) => client.query(`CREATE DATABASE ${name}`));
      created.push(name);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      if (created.length > 0) {
        await admin(async (client) => {
          for (const name of created.splice(0)) {
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          }
        }).catch(() => undefined);
      }
      await stopServer();
    },
  };
}

async function startThrowawayServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const binaries = findBinaries();
  if (binaries === null) throw new Error("no PostgreSQL server binaries (initdb, pg_ctl)");
  const owner = asRoot() ? postgresUser() : null;
  const directory = mkdtempSync(join(tmpdir(), "gadfly-postgres-"));
  if (owner !== null) chownSync(directory, owner.uid, owner.gid);
  const data = join(directory, "data");
  const run = (command: string, args: string[]) => {
    const [file, argv] =
      owner === null ? [command, args] : ["runuser", ["-u", "postgres", "--", command, ...args]];
    const result = spawnSync(file, argv, { encoding: "utf8" });
    if (result.status !== 0) {
      throw new Error(`${command} failed: ${result.stderr || result.stdout || result.error}`);
    }
  };
  const port = await freePort();
  const stopNow = () => {
    spawnSync(
      owner === null ? binaries.pgCtl : "runuser",
      owner === null
        ? ["-D", data, "-m", "immediate", "stop"]
        : ["-u", "postgres", "--", binaries.pgCtl, "-D", data, "-m", "immediate", "stop"],
      { stdio: "ignore" },
    );
    rmSync(directory, { recursive: true, force: true });
  };
  // A test worker that dies still takes its server down with it.
  process.once("exit", stopNow);
  try {
    run(binaries.initdb, ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
    run(binaries.pgCtl, [
      "-D",
      data,
      "-l",
      join(directory, "server.log"),
      "-w",
      "-o",
      [
        `-p ${port}`,
        `-k ${directory}`,
        "-c listen_addresses=127.0.0.1",
        // Throwaway data: durability only costs time here.
        "-c fsync=off",
        "-c synchronous_commit=off",
        "-c full_page_writes=off",
      ].join(" "),
      "start",
    ]);
  } catch (error) {
    stopNow();
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      process.removeListener("exit", stopNow);
      stopNow();
    },
  };
}

function findBinaries(): Binaries | null {
  const onPath = spawnSync("sh", ["-c", "command -v initdb && command -v pg_ctl"], {
    encoding: "utf8",
  });
  const [initdb, pgCtl] = onPath.stdout.trim().split("\n");
  if (onPath.status === 0 && initdb && pgCtl) return { initdb, pgCtl };
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((left, right) => Number(right) - Number(left));
  for (const version of versions) {
    const bin = join(root, version, "bin");
    if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"))) {
      return { initdb: join(bin, "initdb"), pgCtl: join(bin, "pg_ctl") };
    }
  }
  return null;
}

function asRoot(): boolean {
  return process.getuid?.() === 0;
}

function postgresUser(): { uid: number; gid: number } | null {
  try {
    const id = (flag: string) =>
      Number(
        execFileSync("id", [flag, "postgres"], {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
        }).trim(),
      );
    const uid = id("-u");
    const gid = id("-g");
    return { uid, gid };
  } catch {
    return null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
