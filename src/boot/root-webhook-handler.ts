import type { IncomingMessage, ServerResponse } from "node:http";
import type { Probot } from "probot";

/**
 * Takes GitHub deliveries POSTed to `/` as if they came to the webhook path. Probot's setup
 * mode registers the App with its webhook URL at the server's root (`<address>/`, from the
 * manifest it builds), while Probot listens on `/api/github/webhooks`: without this, an App
 * registered by `npm start` would get 404 for every delivery until its owner edits the URL.
 * The delivery still goes through Probot's middleware, so its signature is checked the same.
 */
export function rootWebhookHandler(
  app: Probot,
): (request: IncomingMessage, response: ServerResponse) => Promise<boolean> {
  let middleware: ReturnType<Probot["getNodeMiddleware"]> | null = null;
  // Probot's own middleware, made once: the one its server puts first, here at our path.
  return async (request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (
      request.method !== "POST" ||
      path !== "/" ||
      request.headers["x-github-event"] === undefined
    ) {
      return false;
    }
    middleware ??= app.getNodeMiddleware({ log: app.log, path: app.webhookPath });
    request.url = app.webhookPath;
    return (await middleware)(request, response);
  };
}
