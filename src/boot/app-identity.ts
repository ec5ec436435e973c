import type { GitHubClient } from "../github/index.js";

export interface AppIdentity {
  appId: number;
  /** `<slug>[bot]`: the author of the comments Gadfly owns. */
  botLogin: string;
}

/**
 * Who this GitHub App is, asked once (`GET /app` with the app's JWT) and
 * remembered; a failed answer is forgotten, so the next call asks again.
 */
export function appIdentity(appClient: () => Promise<GitHubClient>): () => Promise<AppIdentity> {
  let identity: Promise<AppIdentity> | null = null;
  return () => {
    if (identity !== null) return identity;
    const asked = appClient().then(async (octokit) => {
      const { data } = await octokit.rest.apps.getAuthenticated();
      if (data === null) throw new Error("GitHub did not say which app this is");
      return { appId: data.id, botLogin: `${data.slug ?? data.name}[bot]` };
    });
    identity = asked;
    asked.catch(() => {
      if (identity === asked) identity = null;
    });
    return asked;
  };
}
