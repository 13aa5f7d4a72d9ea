// The purchase-order files we send a vendor, built and cut in one place
// (D108): the 850 interchange for a vendor (its trading profile's envelope,
// delimiters and 850 template, control numbers reserved for it), which Send
// Ship Requests and the Tools' sample 850 both write; and one PO cut out of a
// file we sent (X12 or CSV), which the Tools' Vendor Testing answers alone.
import type { reserveInterchangeNumbers } from "./control-numbers";
import { readPurchaseOrderCsv } from "./csv/read";
import { CsvWriteError, writePurchaseOrderCsv } from "./csv/write";
import { mapTransactions } from "./documents";
import { build850, type DropShipOrderRequest } from "./documents/850";
import { extractTransaction } from "./documents/extract";
import { fillTemplate, type TradingProfile } from "./vendor-profile";
import { readX12 } from "./x12/reader";
import { writeInterchange, x12DateTime, type SegmentData, type TransactionData } from "./x12/writer";

/** ISA13, and GS06 and the ST02s of each group, as reserveInterchangeNumbers gives them. */
export type InterchangeNumbers = Awaited<ReturnType<typeof reserveInterchangeNumbers>>;

/**
 * One 850 interchange from us to the vendor: ISA/GS with the profile's sender,
 * receiver, usage and output delimiters, dated `now`; one group (GS08 the
 * profile's 850 version) holding a set per order, numbered from `numbers`'
 * first group. Each order gets the vendor's 850 template segments, filled from
 * the order (po_number, order_number, date, vendor_name, vendor_store_id = the
 * order's vendor number, ship_to_name); segments end with a line break.
 */
export function purchaseOrderInterchange(profile: TradingProfile, orders: readonly DropShipOrderRequest[], numbers: InterchangeNumbers, now: Date): string {
  const transactions = orders.map((order, i) => build850(with850Template(profile, order, now), numbers.groups[0].transactions[i]));
  return vendorInterchange(profile, "PO", profile.documents["850"].version, transactions, numbers, now);
}

/** The order with the vendor's 850 template segments, filled from it (see purchaseOrderInterchange). */
export function with850Template<Order extends Pick<DropShipOrderRequest, "poNumber" | "orderNumber" | "vendor"> & { shipTo?: { name: string } }>(
  profile: TradingProfile,
  order: Order,
  now: Date,
): Order & { extraSegments: SegmentData[] } {
  return {
    ...order,
    extraSegments: fillTemplate(profile.documents["850"].template, {
      po_number: order.poNumber,
      order_number: order.orderNumber,
      date: x12DateTime(now).date8,
      vendor_name: order.vendor?.name,
      vendor_store_id: order.vendor?.number,
      ship_to_name: order.shipTo?.name,
    }),
  };
}

/**
 * One interchange from us to the vendor: ISA/GS with the profile's sender,
 * receiver, usage and output delimiters, dated `now`; one group of the given
 * functional ID and version holding `transactions`, numbered from `numbers`'
 * first group; segments end with a line break.
 */
export function vendorInterchange(
  profile: TradingProfile,
  functionalId: string,
  version: string,
  transactions: TransactionData[],
  numbers: InterchangeNumbers,
  now: Date,
): string {
  const when = x12DateTime(now);
  return writeInterchange({
    delimiters: profile.output,
    sender: profile.sender,
    receiver: profile.receiver,
    date: when.date6,
    time: when.time,
    controlNumber: numbers.interchange,
    usage: profile.usage,
    groups: [
      {
        functionalId,
        sender: profile.sender.id,
        receiver: profile.receiver.id,
        date: when.date8,
        time: when.time,
        controlNumber: numbers.groups[0].group,
        version,
        transactions,
      },
    ],
    lineBreak: "\n",
  }).text;
}

/**
 * A file we sent reduced to the one PO, or null when it does not carry it: the
 * 850 set alone in its interchange (envelope and control numbers as sent), or
 * the purchase-order CSV with that PO's rows only.
 */
export function onlyPurchaseOrder(content: Buffer, po: string, format: TradingProfile["format"]): Buffer | null {
  if (format === "csv") {
    const read = readPurchaseOrderCsv(content);
    const orders = read.orders.filter((order) => order.poNumber === po);
    if (!orders.length) return null;
    try {
      return Buffer.from(writePurchaseOrderCsv(orders).text);
    } catch (error) {
      if (error instanceof CsvWriteError) return null;
      throw error;
    }
  }
  const read = readX12(content);
  for (const located of mapTransactions(read)) {
    if (located.mapped?.type !== "850" || located.mapped.document.poNumber !== po) continue;
    return Buffer.from(extractTransaction(read, located));
  }
  return null;
}
