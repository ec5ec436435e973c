import { getPrivateKey } from "@probot/get-private-key";

/**
 * The App's private key exactly as Probot finds it (PRIVATE_KEY, PRIVATE_KEY_PATH,
 * or a `.pem` file in the working directory), so that the key Probot signs with is
 * the one redacted. Null when there is none (Probot's setup mode).
 */
export function readAppPrivateKey(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string | null {
  try {
    return getPrivateKey({ env: { ...env }, cwd });
  } catch {
    // An unreadable key stops Probot itself, with its own message.
    return null;
  }
}
