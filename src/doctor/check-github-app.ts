import { z } from "zod";
import { type DoctorCheck, doctorCheck } from "./doctor-check.js";
import { getJson } from "./get-json.js";
import { signAppJwt } from "./sign-app-jwt.js";

export interface GitHubAppCheckOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** The App's private key as Probot would find it, or null when there is none. */
  privateKey: string | null;
  timeoutMs: number;
  now: () => number;
  fetch?: typeof fetch;
}

const App = z.object({ id: z.number(), slug: z.string().nullish(), name: z.string() });
const Installations = z.array(
  z.object({ id: z.number(), account: z.object({ login: z.string() }).nullish() }),
);

const REGISTER =
  "run `npm start` without APP_ID and open http://localhost:3000 to register the App";

/**
 * The App's credentials, as GitHub sees them: `GET /app` with the App's JWT (a wrong
 * APP_ID or a key of another App is refused here), then `GET /app/installations`: a
 * first round needs the App installed somewhere.
 */
export async function checkGitHubApp(options: GitHubAppCheckOptions): Promise<DoctorCheck[]> {
  const { env } = options;
  const appId = (env.APP_ID ?? "").trim();
  const title = "GitHub App";
  const installsTitle = "installations";
  const skipInstalls = doctorCheck(
    "installations",
    installsTitle,
    "skip",
    "needs the App's credentials",
  );
  if (appId === "") {
    return [doctorCheck("github-app", title, "fail", "APP_ID not set", REGISTER), skipInstalls];
  }
  if (options.privateKey === null) {
    return [
      doctorCheck(
        "github-app",
        title,
        "fail",
        "no private key (PRIVATE_KEY, PRIVATE_KEY_PATH or a .pem file here)",
        "download a private key from the App's settings page and set PRIVATE_KEY_PATH to it",
      ),
      skipInstalls,
    ];
  }
  let jwt: string;
  try {
    jwt = signAppJwt(appId, options.privateKey, options.now());
  } catch {
    return [
      doctorCheck(
        "github-app",
        title,
        "fail",
        "the private key is not a PEM private key",
        "use the .pem file GitHub gave you, whole (BEGIN and END lines included)",
      ),
      skipInstalls,
    ];
  }
  const api = apiBase(env);
  const request = {
    headers: { authorization: `Bearer ${jwt}`, "x-github-api-version": "2022-11-28" },
    timeoutMs: options.timeoutMs,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  };
  const app = await getJson(`${api}/app`, request);
  if (!app.ok) {
    return [
      doctorCheck(
        "github-app",
        title,
        "fail",
        app.problem,
        app.status === 401
          ? `GitHub refused the JWT: APP_ID ${appId} and the private key do not belong together (the key may be revoked); check both on the App's settings page`
          : "check the network, and GHE_HOST/GHE_PROTOCOL for GitHub Enterprise",
      ),
      skipInstalls,
    ];
  }
  const parsed = App.safeParse(app.body);
  const slug = parsed.success ? (parsed.data.slug ?? parsed.data.name) : "?";
  const installs = await getJson(`${api}/app/installations?per_page=100`, request);
  const installations = installs.ok ? Installations.safeParse(installs.body) : null;
  const htmlBase = htmlBaseUrl(env);
  return [
    doctorCheck("github-app", title, "pass", `${slug} (id ${appId}) at ${api}`),
    installations === null || !installations.success
      ? doctorCheck(
          "installations",
          installsTitle,
          "fail",
          installs.ok ? "GitHub's answer was not a list of installations" : installs.problem,
          "try again; check the network",
        )
      : installations.data.length === 0
        ? doctorCheck(
            "installations",
            installsTitle,
            "fail",
            "the App is not installed on any account",
            `install it on a repository: ${htmlBase}/apps/${slug}/installations/new`,
          )
        : doctorCheck(
            "installations",
            installsTitle,
            "pass",
            `${installations.data.length} (${installations.data
              .slice(0, 5)
              .map((installation) => installation.account?.login ?? `#${installation.id}`)
              .join(", ")}${installations.data.length > 5 ? ", …" : ""})`,
          ),
  ];
}

/** Where Probot sends its API calls: GitHub.com, or GHE_HOST's `/api/v3`. */
function apiBase(env: Readonly<Record<string, string | undefined>>): string {
  const host = (env.GHE_HOST ?? "").trim();
  return host === "" ? "https://api.github.com" : `${env.GHE_PROTOCOL ?? "https"}://${host}/api/v3`;
}

function htmlBaseUrl(env: Readonly<Record<string, string | undefined>>): string {
  const host = (env.GHE_HOST ?? "").trim();
  return host === "" ? "https://github.com" : `${env.GHE_PROTOCOL ?? "https"}://${host}`;
}
