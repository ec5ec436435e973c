import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets } from "../../src/llm/redact-secrets.js";
import { collectSecrets } from "../../src/run/collect-secrets.js";
import { PLANTED, SECRET_ENV, SECRET_PROVIDERS, secretFragments } from "./helpers/secret-kinds.js";

const secrets = collectSecrets({ env: SECRET_ENV, providers: SECRET_PROVIDERS });

describe("collectSecrets + redactSecrets", () => {
  it.each(PLANTED.map((planted) => [planted.kind, planted.value]))(
    "%s is redacted and the text around it survives",
    (_kind, value) => {
      const text = `Found this in the config: ${value} — please rotate it.`;
      const redacted = redactSecrets(text, secrets);
      for (const fragment of secretFragments(value)) expect(redacted).not.toContain(fragment);
      expect(redacted).toContain(REDACTED);
      expect(redacted.startsWith("Found this in the config: ")).toBe(true);
      expect(redacted.endsWith(" — please rotate it.")).toBe(true);
    },
  );

  it("takes the key Probot reads from PRIVATE_KEY_PATH, passed in by the caller", () => {
    const pem = SECRET_ENV.PRIVATE_KEY ?? "";
    const line = pem.split("\n")[5] ?? "";
    const fromFile = collectSecrets({ env: {}, providers: [], privateKey: pem });
    expect(redactSecrets(`x ${line} y`, fromFile)).toBe(`x ${REDACTED} y`);
  });

  it("understands PRIVATE_KEY written with \\n escapes or base64, as Probot accepts it", () => {
    const pem = SECRET_ENV.PRIVATE_KEY ?? "";
    const line = pem.split("\n")[3] ?? "";
    for (const written of [pem.replaceAll("\n", "\\n"), Buffer.from(pem).toString("base64")]) {
      const collected = collectSecrets({ env: { PRIVATE_KEY: written }, providers: [] });
      expect(redactSecrets(`x ${line} y`, collected)).toBe(`x ${REDACTED} y`);
      expect(redactSecrets(`x ${written} y`, collected)).toBe(`x ${REDACTED} y`);
    }
  });

  it("takes a database password from a key=value connection string too", () => {
    const collected = collectSecrets({
      env: { GADFLY_DATABASE_URL: "host=db user=gadfly password=kv-Planted-pw dbname=g" },
      providers: [],
    });
    expect(redactSecrets("auth failed for kv-Planted-pw", collected)).toBe(
      `auth failed for ${REDACTED}`,
    );
  });

  it("redacts GitHub tokens, private key blocks and URL passwords it was never told about", () => {
    const text = [
      `token ghs_${"a".repeat(36)} and github_pat_${"B_".repeat(30)}`,
      "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
      "postgres://u:pw@db/x",
    ].join("\n");
    expect(redactSecrets(text, [])).toBe(
      `token ${REDACTED} and ${REDACTED}\n${REDACTED}\npostgres://u:${REDACTED}@db/x`,
    );
  });

  it("collects nothing from an empty environment and leaves ordinary text alone", () => {
    expect(collectSecrets({ env: {}, providers: [] })).toEqual([]);
    const text = "See https://github.com/o/r/pull/1 and the ghost_town variable.";
    expect(redactSecrets(text, secrets)).toBe(text);
  });

  it("leaves Probot's public default webhook secret alone: the word is no secret, and redacting it hid it from the message saying so", () => {
    const collected = collectSecrets({
      env: { WEBHOOK_SECRET: "development", GADFLY_DASHBOARD_TOKEN: "development" },
      providers: [],
    });
    // Only the webhook secret's public default is exempt; the same word elsewhere is a value.
    expect(collected).toEqual(["development"]);
    expect(collectSecrets({ env: { WEBHOOK_SECRET: "development" }, providers: [] })).toEqual([]);
    expect(collectSecrets({ env: { WEBHOOK_SECRET: "development-2" }, providers: [] })).toEqual([
      "development-2",
    ]);
  });
});
