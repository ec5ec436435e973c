import { describe, expect, it } from "vitest";
import { listenAddress, servingLine, setupModeLine } from "../../src/boot/listen-address.js";

describe("where the app says it listens", () => {
  it("reads HOST as Probot does: unset is localhost, 0.0.0.0 and :: every interface", () => {
    expect(listenAddress(undefined, 3000)).toEqual({
      reach: "loopback",
      localUrl: "http://localhost:3000",
      port: 3000,
    });
    expect(listenAddress("127.0.0.1", 80).reach).toBe("loopback");
    expect(listenAddress("0.0.0.0", 3000).reach).toBe("all");
    expect(listenAddress("::", 3000).reach).toBe("all");
    expect(listenAddress("10.0.0.5", 8080)).toEqual({
      reach: "address",
      localUrl: "http://10.0.0.5:8080",
      port: 8080,
    });
    expect(listenAddress("fd00::5", 3000).localUrl).toBe("http://[fd00::5]:3000");
  });

  it("on loopback, says GitHub cannot reach it and what to set", () => {
    const setup = setupModeLine(listenAddress(undefined, 3000), undefined);
    expect(setup).toMatch(/^gadfly: setup mode \(no APP_ID\): open http:\/\/localhost:3000 /);
    expect(setup).toContain("webhook URL will be the address you open the page at");
    expect(setup).toContain("set HOST=0.0.0.0");
    expect(servingLine(listenAddress(undefined, 3000), undefined)).toMatch(
      /^listening on http:\/\/localhost:3000; webhooks at \/api\/github\/webhooks .*set HOST=0\.0\.0\.0/,
    );
  });

  it("on every interface, asks for the public address and gives no loopback hint", () => {
    const all = listenAddress("0.0.0.0", 3000);
    const setup = setupModeLine(all, undefined);
    expect(setup).toContain("open http://<this host's public address>:3000");
    expect(setup).not.toContain("HOST=");
    expect(servingLine(all, undefined)).toBe(
      "listening on every interface, port 3000; webhooks at /api/github/webhooks (or the root), the App's webhook URL on this host",
    );
  });

  it("with a webhook proxy, says deliveries come through it", () => {
    const line = servingLine(listenAddress(undefined, 3000), "https://smee.io/abc");
    expect(line).toBe(
      "listening on http://localhost:3000; webhooks come through WEBHOOK_PROXY_URL",
    );
    expect(setupModeLine(listenAddress(undefined, 3000), "https://smee.io/abc")).toContain(
      "through WEBHOOK_PROXY_URL",
    );
  });
});
