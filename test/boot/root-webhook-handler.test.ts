import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Probot } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rootWebhookHandler } from "../../src/boot/root-webhook-handler.js";
import { deliver } from "../fakes/fake-github/index.js";

const SECRET = "root-webhook-secret";
const ping = {
  id: "root-1",
  name: "ping",
  payload: { zen: "Half measures are as bad as nothing at all.", hook_id: 1 },
};

let server: Server;
let url: string;
const received: string[] = [];

beforeAll(async () => {
  const probot = new Probot({
    appId: 1,
    privateKey: generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
      type: "pkcs1",
      format: "pem",
    }) as string,
    secret: SECRET,
    log: pino({ level: "silent" }),
  });
  probot.onAny(async (context) => {
    received.push(context.id);
  });
  const handler = rootWebhookHandler(probot);
  server = createServer((request, response) => {
    handler(request, response).then((handled) => {
      if (!handled) response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe("deliveries at the root, where setup mode registers the webhook URL", () => {
  it("are received as at the webhook path, signature checked", async () => {
    expect((await deliver(`${url}/`, ping, SECRET)).status).toBe(200);
    expect(received).toEqual(["root-1"]);
    const forged = await deliver(`${url}/`, { ...ping, id: "forged" }, "development");
    expect(forged.status).toBe(400);
    expect(received).toEqual(["root-1"]);
  });

  it("leaves everything else to the next handler", async () => {
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/`, { method: "POST", body: "{}" })).status).toBe(404);
    expect((await deliver(`${url}/elsewhere`, ping, SECRET)).status).toBe(404);
  });
});
