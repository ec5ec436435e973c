import { type CorpusScenario, GLM, GPT, KIMI, labelled, OPUS, SONNET } from "./corpus-scenario.js";

const FILE = "internal/client/retry.go";

/**
 * Second held-out part (issue 33): written before its figures were first looked at and never
 * tuned on. One Go retry loop (lines 60-74) with three defects in the same words ("retry",
 * "request", "body"): the request body is consumed on the first attempt and resent empty on a
 * retry; the response body of a failed attempt is never closed (a connection leak); and the
 * backoff has no cap or context check, so a cancelled caller keeps sleeping.
 */
export const secondHeldOutGoRetry: CorpusScenario = {
  name: "second-held-out-go-retry",
  description:
    "second held-out: drained request body vs unclosed response body vs uncancellable backoff",
  modelOrder: [OPUS, KIMI, SONNET, GLM, GPT],
  findings: [
    labelled(
      "drained",
      OPUS,
      "correctness",
      FILE,
      63,
      "high",
      "high",
      "Retries resend an already-consumed request body",
      "`req.Body` is read by the first `Do`; the retry reuses the same *http.Request, so the second attempt sends an empty body. Rebuild the body with `req.GetBody()` before each attempt.",
    ),
    labelled(
      "drained",
      GLM,
      "correctness",
      FILE,
      64,
      "high",
      "medium",
      "Request body empty on retry",
      "http.Request body is an io.Reader consumed on first send; retry sends nothing.",
    ),
    labelled(
      "drained",
      SONNET,
      "correctness",
      FILE,
      [62, 64],
      "medium",
      "high",
      "POST retries silently drop the payload",
      "Because the same request value is sent again after its body reader hit EOF, a retried POST reaches the server with Content-Length but no bytes; the server may accept an empty update.",
    ),
    labelled(
      "unclosed",
      KIMI,
      "performance",
      FILE,
      67,
      "medium",
      "high",
      "Response body not closed before retrying",
      "When the status is 5xx the loop continues without `resp.Body.Close()`, so each failed attempt leaks a connection from the transport's pool.",
    ),
    labelled(
      "unclosed",
      GPT,
      "correctness",
      FILE,
      66,
      "medium",
      "medium",
      "Leaked HTTP connection on failed attempt",
      "resp.Body must be drained and closed on every path; the retry path skips it and the keep-alive connection is never returned.",
    ),
    labelled(
      "unclosed",
      OPUS,
      "performance",
      FILE,
      [66, 67],
      "medium",
      "medium",
      "Failed attempts' response bodies are never closed",
      "Each retry abandons the previous response without closing its body, exhausting file descriptors under a flaky upstream.",
    ),
    labelled(
      "backoff",
      SONNET,
      "correctness",
      FILE,
      71,
      "medium",
      "medium",
      "Backoff sleep ignores context cancellation",
      "`time.Sleep(backoff)` does not select on `ctx.Done()`, so a caller that gave up keeps a goroutine sleeping through every retry.",
    ),
    labelled(
      "backoff",
      GLM,
      "performance",
      FILE,
      [71, 72],
      "low",
      "medium",
      "Uncapped exponential backoff between retries",
      "backoff doubles without a maximum and the loop does not watch the request's context: a cancelled request can wait minutes before returning.",
    ),
    labelled(
      "backoff",
      KIMI,
      "correctness",
      FILE,
      72,
      "medium",
      "low",
      "Retry loop cannot be cancelled",
      "The retry waits with time.Sleep instead of a timer in a select with ctx.Done(), so cancellation is only seen after the full wait.",
    ),
  ],
};
