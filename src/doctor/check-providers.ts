import { access, constants, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { z } from "zod";
import type { AppConfig, ProviderConfig } from "../config/index.js";
import { type DoctorCheck, doctorCheck } from "./doctor-check.js";
import { getJson } from "./get-json.js";
import { keyHelp } from "./key-help.js";

export interface ProviderProbeOptions {
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs: number;
  fetch?: typeof fetch;
  /**
   * At start-up: a place among the provider's capped calls (its `concurrency`), held for the
   * probe, so checking a provider never puts one request more on it than the operator allows.
   */
  acquireSlot?: (provider: string, signal: AbortSignal) => Promise<{ release(): Promise<void> }>;
  /** How long to wait for that place before leaving the provider unchecked. */
  slotWaitMs?: number;
}

const DEFAULT_SLOT_WAIT_MS = 30_000;

/** What a provider said: its row, and the model names it lists (null when it lists none). */
interface ProviderProbe {
  check: DoctorCheck;
  known: Set<string> | null;
}

const OpenAIModelList = z.object({ data: z.array(z.object({ id: z.string() })) });
const OllamaTags = z.object({
  models: z.array(z.object({ name: z.string(), model: z.string().optional() })),
});
const AnthropicModelList = z.object({ data: z.array(z.object({ id: z.string() })) });

/**
 * Each provider reached with the cheapest call its API has (OpenAI's `GET /models`,
 * Ollama's `GET /api/tags`, Anthropic's `GET /v1/models`; an agent CLI is looked up on
 * PATH, never run), all at once and each bounded by the timeout; then one row per model:
 * is its name among those the provider listed.
 */
export async function checkProviders(
  config: AppConfig,
  options: ProviderProbeOptions,
): Promise<DoctorCheck[]> {
  const probes = await Promise.all(
    config.providers.map((provider) => probeProvider(provider, options)),
  );
  const modelRows = config.models.map((model) => {
    const index = config.providers.findIndex((provider) => provider.name === model.provider);
    const provider = config.providers[index];
    const probe = probes[index];
    const name = model.model ?? model.id;
    const id = `model:${model.id}`;
    const title = `model ${model.id}`;
    if (provider === undefined || probe === undefined) {
      return doctorCheck(id, title, "fail", `no provider ${model.provider}`);
    }
    if (probe.known === null) {
      const why =
        probe.check.status === "fail"
          ? `not checked: ${provider.name} did not answer`
          : `not checked: ${provider.name} lists no models`;
      return doctorCheck(id, title, "skip", why);
    }
    if (probe.known.has(name) || probe.known.has(withoutLatest(name))) {
      return doctorCheck(id, title, "pass", `${name} is known to ${provider.name}`);
    }
    const listed = [...probe.known].slice(0, 5).join(", ");
    return doctorCheck(
      id,
      title,
      "fail",
      `${provider.name} does not list ${name} (it lists ${listed === "" ? "none" : listed}${probe.known.size > 5 ? ", …" : ""})`,
      provider.type === "ollama" && !provider.host.startsWith("https://ollama.com")
        ? `pull it on that host (ollama pull ${name}) or correct models[].model`
        : "correct the model name (models[].model, or its id) in the config",
    );
  });
  return [...probes.map((probe) => probe.check), ...modelRows];
}

async function probeProvider(
  provider: ProviderConfig,
  options: ProviderProbeOptions,
): Promise<ProviderProbe> {
  const id = `provider:${provider.name}`;
  const title = `provider ${provider.name}`;
  const key =
    "apiKeyEnv" in provider && provider.apiKeyEnv !== undefined
      ? (options.env[provider.apiKeyEnv] ?? "").trim()
      : "";
  const bearer: Record<string, string> = key === "" ? {} : { authorization: `Bearer ${key}` };
  // Wider than the union: a provider type added later gets a row, not a crash.
  const type: string = provider.type;
  if (provider.type === "openai") {
    const url = `${provider.baseURL.replace(/\/+$/, "")}/models`;
    return listed(id, title, provider, url, bearer, options, (body) =>
      OpenAIModelList.parse(body).data.map((model) => model.id),
    );
  }
  if (provider.type === "ollama") {
    const url = `${provider.host.replace(/\/+$/, "")}/api/tags`;
    return listed(id, title, provider, url, bearer, options, (body) =>
      OllamaTags.parse(body).models.flatMap((model) => [model.name, model.model ?? model.name]),
    );
  }
  if (provider.type === "command") {
    const executable = provider.command[0] ?? "";
    const found = await findExecutable(executable, options.env.PATH ?? "");
    return {
      check:
        found === null
          ? doctorCheck(
              id,
              title,
              "fail",
              `${executable} not found on PATH`,
              `install the agent CLI, or give its absolute path in providers[].command`,
            )
          : doctorCheck(id, title, "pass", `agent CLI ${found} (not run by doctor)`),
      known: null,
    };
  }
  if (provider.type === "replay") {
    const isDirectory = await stat(provider.dir).then(
      (found) => found.isDirectory(),
      () => false,
    );
    return {
      check: isDirectory
        ? doctorCheck(id, title, "pass", `recordings in ${provider.dir}`)
        : doctorCheck(
            id,
            title,
            "fail",
            `no directory ${provider.dir}`,
            "record some with --record DIR",
          ),
      known: null,
    };
  }
  if (provider.type === "anthropic") {
    // The key as the provider's SDK sends it (x-api-key), never as a bearer token.
    const url = `${provider.baseURL.replace(/\/+$/, "")}/v1/models`;
    const headers = {
      ...(key === "" ? {} : { "x-api-key": key }),
      "anthropic-version": "2023-06-01",
    };
    return listed(id, title, provider, url, headers, options, (body) =>
      AnthropicModelList.parse(body).data.map((model) => model.id),
    );
  }
  return { check: doctorCheck(id, title, "skip", `no check for type ${type}`), known: null };
}

async function listed(
  id: string,
  title: string,
  provider: ProviderConfig,
  url: string,
  headers: Record<string, string>,
  options: ProviderProbeOptions,
  names: (body: unknown) => string[],
): Promise<ProviderProbe> {
  const waitMs = options.slotWaitMs ?? DEFAULT_SLOT_WAIT_MS;
  let slot: { release(): Promise<void> } | null = null;
  if (options.acquireSlot !== undefined) {
    try {
      slot = await options.acquireSlot(provider.name, AbortSignal.timeout(waitMs));
    } catch {
      return {
        check: doctorCheck(
          id,
          title,
          "skip",
          `not checked: its concurrency slots stayed busy for ${waitMs / 1000} s (it is in use)`,
        ),
        known: null,
      };
    }
  }
  const answer = await getJson(url, {
    headers,
    timeoutMs: options.timeoutMs,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  }).finally(() => slot?.release().catch(() => undefined));
  if (!answer.ok) {
    const refused = answer.status === 401 || answer.status === 403;
    if (answer.status === 404) {
      // Some OpenAI-compatible servers answer chat but list no models.
      return {
        check: doctorCheck(
          id,
          title,
          "warn",
          `${answer.problem}: reachable, but it does not list models, so their names are not checked`,
          "check the model names by hand, or the baseURL (it usually ends in /v1)",
        ),
        known: null,
      };
    }
    const help = keyHelp(provider);
    return {
      check: doctorCheck(
        id,
        title,
        "fail",
        answer.problem,
        refused
          ? `the key was refused: check the variable named by apiKeyEnv${help === null ? "" : ` (${help})`}`
          : "check the provider's address in the config and that this host can reach it",
      ),
      known: null,
    };
  }
  try {
    const known = new Set(names(answer.body));
    return {
      check: doctorCheck(
        id,
        title,
        "pass",
        `reachable (${url.replace(/^(https?:\/\/[^/]+).*$/, "$1")}), ${known.size} models listed`,
      ),
      known,
    };
  } catch {
    return {
      check: doctorCheck(
        id,
        title,
        "warn",
        `${url} answered, but not with a model list`,
        "check the provider's address and type in the config",
      ),
      known: null,
    };
  }
}

/** Ollama lists `llama3.2:latest` for a model pulled as `llama3.2`. */
function withoutLatest(name: string): string {
  return name.includes(":") ? name : `${name}:latest`;
}

async function findExecutable(command: string, path: string): Promise<string | null> {
  const candidates =
    isAbsolute(command) || command.includes("/")
      ? [command]
      : path
          .split(delimiter)
          .filter((directory) => directory !== "")
          .map((directory) => join(directory, command));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
