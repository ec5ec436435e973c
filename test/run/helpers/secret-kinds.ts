import { generateKeyPairSync } from "node:crypto";
import type { ProviderConfig } from "../../../src/config/schema.js";

/** One secret a model, an error or a log line could repeat, and what it is. */
export interface PlantedSecret {
  kind: string;
  value: string;
}

const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
  type: "pkcs1",
  format: "pem",
}) as string;
const keyLines = privateKey.split("\n").filter((line) => line !== "" && !line.startsWith("-----"));

/** Built so no value is a prefix of an ordinary word: the tests look for each one verbatim. */
const token = (prefix: string) => `${prefix}${"Zq8".repeat(12)}`;

export const SECRET_ENV: Readonly<Record<string, string>> = {
  PRIVATE_KEY: privateKey,
  WEBHOOK_SECRET: "whsec-Planted-4f1e9c",
  GADFLY_DATABASE_URL: "postgres://gadfly:Pg%40ss-Planted-77@db.internal:5432/gadfly",
  GADFLY_DASHBOARD_TOKEN: "dash-Planted-Token-0a9b8c",
  OPENAI_API_KEY: "oa-key-Planted-123456789",
};

export const SECRET_PROVIDERS: ProviderConfig[] = [
  {
    name: "openai",
    type: "openai",
    baseURL: "http://127.0.0.1:9/v1",
    apiKeyEnv: "OPENAI_API_KEY",
  } as ProviderConfig,
];

/** Every kind of secret the process holds, as a model or an error could quote it. */
export const PLANTED: readonly PlantedSecret[] = [
  { kind: "App private key (whole)", value: privateKey.trim() },
  { kind: "App private key (first body line)", value: keyLines[0] ?? "" },
  { kind: "App private key (a middle line)", value: keyLines[10] ?? "" },
  { kind: "App private key (body on one line)", value: keyLines.join("") },
  { kind: "webhook secret", value: SECRET_ENV.WEBHOOK_SECRET ?? "" },
  { kind: "database URL", value: SECRET_ENV.GADFLY_DATABASE_URL ?? "" },
  { kind: "database password (as in the URL)", value: "Pg%40ss-Planted-77" },
  { kind: "database password (decoded)", value: "Pg@ss-Planted-77" },
  { kind: "dashboard token", value: SECRET_ENV.GADFLY_DASHBOARD_TOKEN ?? "" },
  { kind: "provider key", value: SECRET_ENV.OPENAI_API_KEY ?? "" },
  { kind: "installation token (ghs_)", value: token("ghs_") },
  { kind: "personal token (ghp_)", value: token("ghp_") },
  { kind: "OAuth token (gho_)", value: token("gho_") },
  { kind: "user token (ghu_)", value: token("ghu_") },
  { kind: "refresh token (ghr_)", value: token("ghr_") },
  { kind: "fine-grained token (github_pat_)", value: `github_pat_${"11AbC_dEf".repeat(9)}` },
  { kind: "a URL with credentials", value: "https://x-access-token:short1@github.com/o/r.git" },
];

/** The parts of a secret that must not appear: a PEM's base64 lines, or the value itself. */
export function secretFragments(value: string): string[] {
  const lines = value.split("\n").filter((line) => line.length >= 16 && !line.startsWith("-----"));
  return lines.length > 0 ? lines : [value.replace(/^https:\/\/x-access-token:/, "")];
}
