import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { loadConfig } from "./config.js";
import { listInvoices } from "./invoices.js";
import { handlePaymentWebhook } from "./webhooks/handle-payment-webhook.js";

const config = loadConfig(process.env);

const server = createServer((request, response) => {
  if (request.method === "GET" && request.url === "/health") {
    send(response, 200, "ok");
    return;
  }
  if (request.method === "GET" && request.url === "/invoices") {
    send(response, 200, JSON.stringify(listInvoices()));
    return;
  }
  if (request.method === "POST" && request.url === "/webhooks/payhook") {
    readBody(request).then(async (body) => {
      const result = await handlePaymentWebhook(request.headers, body, config.webhookSecret);
      send(response, result.status, result.body);
    });
    return;
  }
  send(response, 404, "not found");
});

function send(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { "content-type": "text/plain" });
  response.end(body);
}

/** The raw body: the signature is computed over exactly these bytes. */
function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk;
    });
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

server.listen(config.port, () => {
  console.log(`invoice-service listening on ${config.port}`);
});
