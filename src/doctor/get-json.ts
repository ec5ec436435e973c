export type GetJsonResult =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status: number | null; problem: string };

export interface GetJsonOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/**
 * One bounded GET: the answer's status and JSON body, or why there was none, in one
 * line that names neither a header nor a key (only the URL's host and path).
 */
export async function getJson(url: string, options: GetJsonOptions): Promise<GetJsonResult> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, {
      headers: { accept: "application/json", ...options.headers },
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: "error",
    });
  } catch (error) {
    return {
      ok: false,
      status: null,
      problem: `${describeUrl(url)}: ${networkProblem(error, options.timeoutMs)}`,
    };
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) {
    return {
      ok: false,
      status: response.status,
      problem: `${describeUrl(url)} answered HTTP ${response.status}`,
    };
  }
  try {
    return { ok: true, status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return {
      ok: false,
      status: response.status,
      problem: `${describeUrl(url)} did not answer JSON`,
    };
  }
}

/** `GET host/path`: enough to tell which call failed, never a query string or credentials. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `GET ${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "GET (an unparseable URL)";
  }
}

function networkProblem(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown }).name;
  if (name === "TimeoutError" || name === "AbortError") {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === "string" ? cause.code : null;
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused (is it running, on that port?)";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host name not found";
    default:
      return code === null ? "request failed" : `request failed (${code})`;
  }
}
