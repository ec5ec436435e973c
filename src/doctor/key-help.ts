import type { ProviderConfig } from "../config/index.js";

/** Where a provider's key comes from, for the fix of a missing or refused key; null when unknown. */
export function keyHelp(provider: ProviderConfig): string | null {
  const type: string = provider.type;
  const host = "baseURL" in provider ? provider.baseURL : "host" in provider ? provider.host : "";
  if (type === "openai" && host.startsWith("https://api.openai.com")) {
    return "create one at https://platform.openai.com/api-keys";
  }
  if (type === "ollama" && host.startsWith("https://ollama.com")) {
    return "create one at https://ollama.com/settings/keys";
  }
  if (type === "anthropic") return "create one at https://console.anthropic.com/settings/keys";
  if (type === "command")
    return "the agent CLI's own API key (a saved login is not seen: HOME is empty)";
  return null;
}
