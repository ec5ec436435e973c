import type { SiteUrls, UserRecord } from "../types.js";

/** A user as GitHub's REST API shows one (the "simple user" shape). */
export function userJson(user: UserRecord, urls: SiteUrls): Record<string, unknown> {
  const apiUrl = `${urls.api}/users/${encodeURIComponent(user.login)}`;
  return {
    login: user.login,
    id: user.id,
    node_id: Buffer.from(`04:${user.type}${user.id}`).toString("base64"),
    avatar_url: `${urls.html}/avatars/u/${user.id}`,
    gravatar_id: "",
    url: apiUrl,
    html_url: `${urls.html}/${user.type === "Bot" ? `apps/${user.login.replace(/\[bot\]$/, "")}` : user.login}`,
    followers_url: `${apiUrl}/followers`,
    following_url: `${apiUrl}/following{/other_user}`,
    gists_url: `${apiUrl}/gists{/gist_id}`,
    starred_url: `${apiUrl}/starred{/owner}{/repo}`,
    subscriptions_url: `${apiUrl}/subscriptions`,
    organizations_url: `${apiUrl}/orgs`,
    repos_url: `${apiUrl}/repos`,
    events_url: `${apiUrl}/events{/privacy}`,
    received_events_url: `${apiUrl}/received_events`,
    type: user.type,
    site_admin: false,
  };
}
