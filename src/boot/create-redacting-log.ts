import { getTransformStream } from "@probot/pino";
import { type DestinationStream, type Logger, pino } from "pino";
import { createRedactor } from "../llm/index.js";

export interface RedactingLogOptions {
  /** LOG_LEVEL, LOG_FORMAT, LOG_LEVEL_IN_STRING, LOG_MESSAGE_KEY, SENTRY_DSN: Probot's own settings. */
  env: Readonly<Record<string, string | undefined>>;
  /** Every secret of the process (collectSecrets). */
  secrets: readonly string[];
  /** Where formatted lines go: standard output unless a test captures them. */
  destination?: NodeJS.WritableStream;
}

/**
 * The logger Probot would build for itself (pino, its pretty or JSON formatting,
 * Sentry when configured), except that every line is redacted before anything
 * formats, prints or reports it: a secret in a message, a field, an error's
 * message or stack, or a child logger's bindings never leaves the process.
 */
export async function createRedactingLog(options: RedactingLogOptions): Promise<Logger> {
  const { env } = options;
  const transform = await getTransformStream({
    logFormat:
      env.LOG_FORMAT === "json" ? "json" : env.LOG_FORMAT === "pretty" ? "pretty" : undefined,
    logLevelInString: env.LOG_LEVEL_IN_STRING === "true",
    sentryDsn: env.SENTRY_DSN,
  });
  transform.pipe(options.destination ?? process.stdout);
  return pino(
    {
      level: env.LOG_LEVEL ?? "info",
      name: "probot",
      messageKey: env.LOG_MESSAGE_KEY ?? "msg",
      // The HTTP log of each request would print these headers: the dashboard's bearer token
      // and its session cookie are credentials (the token is redacted by value too).
      redact: { paths: ["req.headers.authorization", "req.headers.cookie"], censor: "[redacted]" },
    },
    redactingStream(transform, options.secrets),
  );
}

/**
 * A pino destination that redacts each serialised line and passes it on. Lines
 * are JSON, where a secret holding a quote, a backslash or a line break (a PEM
 * key) is written escaped: both spellings are redacted.
 */
export function redactingStream(
  target: { write(chunk: string): unknown },
  secrets: readonly string[],
): DestinationStream {
  const spellings = [...new Set(secrets.flatMap((secret) => [secret, jsonEscaped(secret)]))];
  // Prepared once for the stream, not once a line.
  const redact = createRedactor(spellings);
  return {
    write(line: string) {
      target.write(redact(line));
    },
  };
}

function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
