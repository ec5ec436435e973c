/** How far a listening address reaches: this machine only, every interface, or one address. */
export type ListenReach = "loopback" | "all" | "address";

export interface ListenAddress {
  reach: ListenReach;
  /** Where to open it from this machine: `http://localhost:3000`, `http://10.0.0.5:3000`. */
  localUrl: string;
  port: number;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);
const ALL = new Set(["0.0.0.0", "::", "[::]"]);

/** HOST as Probot takes it (unset: `localhost`) and the port it listens on. */
export function listenAddress(host: string | undefined, port: number): ListenAddress {
  const name = host?.trim() || "localhost";
  if (LOOPBACK.has(name)) return { reach: "loopback", localUrl: `http://localhost:${port}`, port };
  if (ALL.has(name)) return { reach: "all", localUrl: `http://localhost:${port}`, port };
  const shown = name.includes(":") && !name.startsWith("[") ? `[${name}]` : name;
  return { reach: "address", localUrl: `http://${shown}:${port}`, port };
}

/** Why GitHub cannot deliver here, and what to set, when only this machine can connect. */
const LOOPBACK_HINT =
  "only this machine can connect: set HOST=0.0.0.0 (or this host's address) for GitHub to reach it, or forward deliveries with WEBHOOK_PROXY_URL";

/** Setup mode's line: which page to open, knowing its address becomes the App's webhook URL. */
export function setupModeLine(address: ListenAddress, webhookProxy: string | undefined): string {
  const page =
    address.reach === "all"
      ? `open http://<this host's public address>:${address.port} (or ${address.localUrl} here)`
      : `open ${address.localUrl}`;
  const webhook =
    webhookProxy !== undefined && webhookProxy.trim() !== ""
      ? "GitHub will deliver its webhooks through WEBHOOK_PROXY_URL"
      : `the App's webhook URL will be the address you open the page at${address.reach === "loopback" ? `, and ${LOOPBACK_HINT}` : ""}`;
  return `gadfly: setup mode (no APP_ID): ${page} to register the GitHub App from app.yml; ${webhook}`;
}

/** The served app's line: where it listens and where GitHub's deliveries go. */
export function servingLine(address: ListenAddress, webhookProxy: string | undefined): string {
  const where =
    address.reach === "all"
      ? `listening on every interface, port ${address.port}`
      : `listening on ${address.localUrl}`;
  if (webhookProxy !== undefined && webhookProxy.trim() !== "") {
    return `${where}; webhooks come through WEBHOOK_PROXY_URL`;
  }
  const path = "/api/github/webhooks (or the root)";
  if (address.reach === "loopback") return `${where}; webhooks at ${path}: ${LOOPBACK_HINT}`;
  return `${where}; webhooks at ${path}, the App's webhook URL on this host`;
}
