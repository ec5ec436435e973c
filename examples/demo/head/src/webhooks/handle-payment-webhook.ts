import type { IncomingHttpHeaders } from "node:http";
import { markInvoicePaid } from "../invoices.js";
import { verifySignature } from "./verify-signature.js";

export interface WebhookResponse {
  status: number;
  body: string;
}

interface PaymentEvent {
  id: string;
  type: string;
  data: { invoiceId: string; amountCents: number };
}

// PayHook delivers an event at least once and retries until it gets a 2xx.
const seenEvents = new Set<string>();

export async function handlePaymentWebhook(
  headers: IncomingHttpHeaders,
  body: string,
  secret: string,
): Promise<WebhookResponse> {
  const valid = verifySignature({
    body,
    signature: headerValue(headers["x-payhook-signature"]),
    timestamp: headerValue(headers["x-payhook-timestamp"]),
    secret,
    now: Date.now(),
  });
  if (!valid) {
    return { status: 401, body: "invalid signature" };
  }
  const event = JSON.parse(body) as PaymentEvent;
  if (seenEvents.has(event.id)) {
    return { status: 200, body: "duplicate" };
  }
  seenEvents.add(event.id);
  if (event.type === "payment.succeeded") {
    await markInvoicePaid(event.data.invoiceId, event.data.amountCents);
  }
  console.log(`payhook event ${event.id} (${event.type}) handled`);
  return { status: 200, body: "ok" };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
