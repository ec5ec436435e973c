export interface Invoice {
  id: string;
  customer: string;
  amountCents: number;
  paid: boolean;
}

const invoices = new Map<string, Invoice>([
  ["inv_1001", { id: "inv_1001", customer: "acme", amountCents: 12_500, paid: false }],
  ["inv_1002", { id: "inv_1002", customer: "globex", amountCents: 4_999, paid: true }],
]);

export function listInvoices(): Invoice[] {
  return [...invoices.values()];
}

/** Marks an invoice paid; throws when it is unknown or the amount does not match. */
export async function markInvoicePaid(id: string, amountCents: number): Promise<void> {
  const invoice = invoices.get(id);
  if (invoice === undefined) {
    throw new Error(`unknown invoice ${id}`);
  }
  if (invoice.amountCents !== amountCents) {
    throw new Error(`invoice ${id} is ${invoice.amountCents} cents, payment was ${amountCents}`);
  }
  invoice.paid = true;
}
