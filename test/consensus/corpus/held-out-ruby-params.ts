import { type CorpusScenario, GLM, GPT, KIMI, labelled, OPUS, SONNET } from "./corpus-scenario.js";

const FILE = "app/controllers/invoices_controller.rb";

/**
 * Held out (written before tuning, never looked at while tuning): the same vocabulary for
 * different defects. Every finding talks about `params` in one Rails action (lines 12-19): an
 * insecure direct object reference (`Invoice.find(params[:id])` without scoping to the
 * account), mass assignment (`update(params[:invoice])` without strong parameters) and an open
 * redirect (`redirect_to params[:return_to]`).
 */
export const heldOutRubyParams: CorpusScenario = {
  name: "held-out-ruby-params",
  description: "held out: IDOR vs mass assignment vs open redirect, all about params",
  modelOrder: [OPUS, KIMI, SONNET, GLM, GPT],
  findings: [
    labelled(
      "idor",
      OPUS,
      "security",
      FILE,
      13,
      "high",
      "high",
      "`Invoice.find(params[:id])` lets any user read any account's invoice",
      "The lookup is not scoped to `current_account`, so changing the id in the URL returns another customer's invoice. Use `current_account.invoices.find(params[:id])`.",
    ),
    labelled(
      "idor",
      SONNET,
      "security",
      FILE,
      13,
      "high",
      "high",
      "Missing authorization check on invoice lookup (IDOR)",
      "Any signed-in user can fetch an invoice by guessing its id because the record is loaded globally rather than through the current account's association.",
    ),
    labelled(
      "idor",
      GPT,
      "security",
      FILE,
      13,
      "high",
      "medium",
      "IDOR on invoices#update",
      "find by raw params id, no ownership check.",
    ),
    labelled(
      "mass-assignment",
      KIMI,
      "security",
      FILE,
      15,
      "high",
      "medium",
      "`update(params[:invoice])` without strong parameters allows mass assignment",
      "Passing the raw params hash lets a client set `paid`, `account_id` or `amount_cents`; use `params.require(:invoice).permit(:notes, :due_on)`.",
    ),
    labelled(
      "mass-assignment",
      GLM,
      "correctness",
      FILE,
      [15, 16],
      "high",
      "medium",
      "Unfiltered params passed to update",
      "all attributes from request params are written to the model, attacker can mark invoice as paid by adding paid=true to the form, need permit list",
    ),
    labelled(
      "redirect",
      OPUS,
      "security",
      FILE,
      18,
      "medium",
      "high",
      "`redirect_to params[:return_to]` is an open redirect",
      "A link such as `/invoices/1?return_to=https://evil.example` sends the user to an attacker's site after saving. Only redirect to paths (`url_from`) or a fixed route.",
    ),
    labelled(
      "redirect",
      GPT,
      "security",
      FILE,
      18,
      "medium",
      "medium",
      "Open redirect via return_to",
      "Unvalidated redirect target from params.",
    ),
    labelled(
      "redirect",
      SONNET,
      "security",
      FILE,
      [18, 19],
      "medium",
      "medium",
      "Redirect target taken from user input without validation",
      "Phishing risk: the return location comes straight from the request; Rails 7 raises `UnsafeRedirectError` only with `allow_other_host: false`, which is not set here.",
    ),
  ],
};
