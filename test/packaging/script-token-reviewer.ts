import type { FakeModelServer } from "../fakes/model-fake-server.js";
import type { FakeReply } from "../fakes/model-script.js";

/** The finding the scripted reviewer reports on the pull request's src/token.ts. */
export const TOKEN_FINDING = {
  file: "src/token.ts",
  line: 2,
  end_line: 2,
  severity: "high",
  confidence: "high",
  title: "Token from Math.random",
  body: "Use crypto.randomBytes.",
};

/**
 * Scripts `glm-test` as a reviewer that reads src/token.ts with its tool (so a test can see
 * which side of the change the tool read), then reports TOKEN_FINDING: two calls per review.
 */
export function scriptTokenReviewer(server: FakeModelServer): void {
  server.script("glm-test", (request): FakeReply => {
    if (!request.messages.some((message) => message.role === "tool"))
      return { toolCalls: [{ name: "read_file", arguments: { path: "src/token.ts" } }] };
    return {
      text: `Checked.\n\nVERDICT: Significant issues\n\`\`\`gadfly-findings\n${JSON.stringify([TOKEN_FINDING])}\n\`\`\``,
    };
  });
}

/** A Gadfly config with that one reviewer (`glm-test` on an Ollama at `host`), security only. */
export function tokenReviewerConfig(host: string): string {
  return `providers:
  - { name: local, type: ollama, host: "${host}", apiKeyEnv: OLLAMA_API_KEY }
models:
  - { id: glm-test, provider: local }
review:
  lenses: [security]
  verify: false
`;
}
