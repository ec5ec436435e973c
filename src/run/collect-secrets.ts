import { PROBOT_DEFAULT_SECRET, type ProviderConfig } from "../config/index.js";

export interface SecretSources {
  env: Readonly<Record<string, string | undefined>>;
  /** The app's providers: their key variables (and an agent CLI's `env`) are secrets. */
  providers: readonly ProviderConfig[];
  /**
   * The GitHub App's private key as Probot reads it (PRIVATE_KEY_PATH's file, say),
   * when the caller has it: PRIVATE_KEY in `env` is taken either way.
   */
  privateKey?: string | null;
}

/** Variables whose whole value is a credential. */
const SECRET_VARIABLES = [
  "WEBHOOK_SECRET",
  "GADFLY_DASHBOARD_TOKEN",
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "PGPASSWORD",
  "SENTRY_DSN",
] as const;
/** Variables holding a URL whose password (and the URL as a whole) is a credential. */
const URL_VARIABLES = ["GADFLY_DATABASE_URL", "DATABASE_URL", "REDIS_URL"] as const;
/** Shorter PEM lines (the last one of the body) are kept only when they are this long. */
const MINIMUM_KEY_LINE = 16;

/**
 * Every secret value this process holds, computed once at start-up and passed to
 * whatever publishes, logs or stores text: the App's private key (whole, each line of
 * its body and the body on one line, since a model could quote any of them), the
 * webhook secret, the database URL and its password on its own, tokens in the
 * environment and every provider key. Values only: the redactor (createRedactor) adds the shapes
 * (`ghs_…`, `github_pat_…`, PEM blocks, URL credentials) of secrets made later, such
 * as installation tokens.
 */
export function collectSecrets(sources: SecretSources): string[] {
  const { env } = sources;
  const secrets = new Set<string>();
  const add = (value: string | undefined | null) => {
    const trimmed = value?.trim() ?? "";
    if (trimmed !== "") secrets.add(trimmed);
  };
  for (const key of [env.PRIVATE_KEY, sources.privateKey]) {
    if (key === undefined || key === null) continue;
    add(key);
    for (const form of privateKeyForms(key)) for (const value of keyParts(form)) add(value);
  }
  for (const name of SECRET_VARIABLES) {
    // Probot's default webhook secret is public (and refused at start): hiding the word would
    // only blank it out of the very message that says it is the default, and of any text at all.
    if (name === "WEBHOOK_SECRET" && env[name]?.trim() === PROBOT_DEFAULT_SECRET) continue;
    add(env[name]);
  }
  for (const name of URL_VARIABLES) for (const value of urlSecrets(env[name])) add(value);
  for (const value of configuredSecrets(sources.providers, env)) add(value);
  return [...secrets];
}

/** The values of every key the config names: what must never be published or stored. */
function configuredSecrets(
  providers: readonly ProviderConfig[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  return providers.flatMap((provider) => {
    const names = [
      ...("apiKeyEnv" in provider && provider.apiKeyEnv !== undefined ? [provider.apiKeyEnv] : []),
      ...(provider.type === "command" ? provider.env : []),
    ];
    return names.flatMap((name) => env[name] ?? []).filter((value) => value.trim() !== "");
  });
}

/** The PEM text a PRIVATE_KEY value stands for: as written, with `\n` escapes, or base64. */
function privateKeyForms(value: string): string[] {
  const forms = [value, value.replaceAll("\\n", "\n")];
  if (!value.includes("-----BEGIN") && /^[A-Za-z0-9+/=\s]+$/.test(value)) {
    forms.push(Buffer.from(value, "base64").toString("utf8"));
  }
  return forms.filter((form) => form.includes("-----BEGIN"));
}

/** The whole key, each base64 line of its body, and the body joined on one line. */
function keyParts(pem: string): string[] {
  const body = pem
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("-----"));
  return [
    pem,
    body.join(""),
    ...body.filter((line) => line.length >= MINIMUM_KEY_LINE && !/^[A-Za-z-]+:/.test(line)),
  ];
}

/** A URL, its password (as written and decoded) and `user:password`. */
function urlSecrets(value: string | undefined): string[] {
  if (value === undefined || value.trim() === "") return [];
  const values = [value];
  try {
    const url = new URL(value.trim());
    if (url.password !== "") {
      values.push(url.password, decode(url.password), `${url.username}:${url.password}`);
    }
  } catch {
    // Not a URL (a libpq key=value string, say): its password= part is taken below.
  }
  const keyValue = /\bpassword\s*=\s*('(?:[^'\\]|\\.)*'|\S+)/i.exec(value);
  if (keyValue?.[1] !== undefined) values.push(keyValue[1].replace(/^'|'$/g, ""));
  return values;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
