// Demo data in every table, enough to page, sort and filter every screen:
// hundreds of orders, a dozen vendors (EDI and CSV), assignments in every
// status, drop-ship requests, responses, transmissions and logs, feeds with
// logs, EOD rows and batches, sales records, special orders with errors,
// products and mappings. Deterministic (seeded random) and idempotent: a
// database that already has vendors is left alone.
import { createHash } from "node:crypto";
import { createPrismaClient } from "../../app/db/client.server";
import type { Prisma } from "../../app/db/generated/client";
import { seedProductData } from "./products";
import { linkSeededFeedRuns } from "./feeds";
import { seedSpecialOrders } from "./special-orders";
import { seedSalesDemo } from "./sales";
import { seedRealtimeLogs } from "./realtime-logs";
import { seedEod } from "./eod";
import { seedAttention } from "./attention";
import { seedStaffActivity } from "./staff-activity";
import { DEMO_STORE_LOCATIONS } from "../../app/shopify/stand-in-shop";
import { dateOnly, dayIn } from "../../app/lib/app-time";
import { syncVendorSources } from "../../app/sales/vendor-sources.server";
import { logMessage } from "../../app/i18n/english.server";
import { message } from "../../app/i18n/messages";

/** A log line as the app writes it: English text and its code (D114), so the demo reads in every language. */
function coded(code: string, params: Record<string, unknown>) {
  const { message: text, message_code } = logMessage(code, params);
  return { message: text, message_code: message_code as Prisma.InputJsonValue };
}

const DAY = 86_400_000;

/** A small seeded PRNG (mulberry32) so every seed produces the same data. */
export function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const weighted = <T>(items: ReadonlyArray<readonly [T, number]>): T => {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return items[items.length - 1][0];
  };
  return { next, int, pick, weighted, chance: (p: number) => next() < p };
}

const FIRST = [
  "James",
  "Mary",
  "Robert",
  "Patricia",
  "John",
  "Jennifer",
  "Michael",
  "Linda",
  "David",
  "Elizabeth",
  "William",
  "Barbara",
  "Richard",
  "Susan",
  "Joseph",
  "Jessica",
  "Thomas",
  "Sarah",
  "Carlos",
  "Karen",
  "Daniel",
  "Lisa",
  "Matthew",
  "Nancy",
  "Anthony",
  "Betty",
  "Mark",
  "Sandra",
  "Paul",
  "Ashley",
];
const LAST = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Gonzalez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Perez",
  "Thompson",
  "White",
  "Harris",
];
const STREETS = ["Main St", "Oak Ave", "Maple Dr", "Cedar Ln", "Pine St", "Elm St", "Washington Blvd", "Lake Shore Dr", "Hillcrest Rd", "Park Ave"];
const CITIES: Array<[string, string, string]> = [
  ["Chicago", "IL", "60601"],
  ["Austin", "TX", "73301"],
  ["Denver", "CO", "80202"],
  ["Columbus", "OH", "43004"],
  ["Portland", "OR", "97201"],
  ["Atlanta", "GA", "30301"],
  ["Phoenix", "AZ", "85001"],
  ["Nashville", "TN", "37201"],
  ["Madison", "WI", "53703"],
  ["Boston", "MA", "02108"],
  ["Seattle", "WA", "98101"],
  ["Raleigh", "NC", "27601"],
];
const ADJECTIVES = ["Trail", "Summit", "Coastal", "Urban", "Classic", "Alpine", "Harbor", "Prairie", "Canyon", "Metro"];
const NOUNS = [
  "Runner",
  "Hiker",
  "Jacket",
  "Backpack",
  "Boot",
  "Sandal",
  "Fleece",
  "Cap",
  "Tent",
  "Lantern",
  "Bottle",
  "Glove",
  "Sneaker",
  "Parka",
  "Duffel",
  "Loafer",
  "Chair",
  "Blanket",
  "Watch",
  "Speaker",
];
const CARRIERS = ["UPS", "FedEx", "USPS"];

// The stores are the demo shop's Shopify locations (app/shopify/stand-in-shop.ts): they and their stock come in
// through the location_sync feed at start, and get these AS400 codes as staff would give them (D48, D49).
const STORES = DEMO_STORE_LOCATIONS.map((store) => [store.as400Code, store.name] as const);

const VENDORS = [
  "Acme Outdoor Supply",
  "Brightline Footwear",
  "Cascade Apparel Co",
  "Delta Home Goods",
  "Evergreen Sporting",
  "Fairway Golf Distributors",
  "Granite Tools",
  "Harbor Marine Supply",
  "Ironwood Furniture",
  "Juniper Kids",
  "Keystone Pet Supply",
  "Lakeside Electronics",
];

export const FEEDS: Array<[string, string]> = [
  ["populate_ship_requests", "*/15 * * * *"],
  ["send_ship_requests", "5,20,35,50 * * * *"],
  ["populate_ship_responses", "*/10 * * * *"],
  ["process_ship_responses", "2,12,22,32,42,52 * * * *"],
  ["clear_completed_ship_requests", "0 2 * * *"],
  ["vendor_inventory_846", "0 */4 * * *"],
  ["vendor_invoices_810", "30 6 * * *"],
  ["eod_report", "0 23 * * *"],
  ["order_sync", "*/5 * * * *"],
  ["product_sync", "0 3 * * *"],
  ["special_order_pull", "*/30 * * * *"],
  ["assignment_import", "*/20 * * * *"],
  ["realtime_as400_export", "* * * * *"],
  ["location_sync", "15 * * * *"],
  ["needs_attention", "*/5 * * * *"],
  ["vendor_scorecards", "15 * * * *"],
  ["dropship_watch", "* * * * *"],
];

const pad = (value: number, width: number) => String(value).padStart(width, "0");

/** A drop-ship line as its request and its response both carry it: the vendor and the assignment. */
const lineOf = (
  vendor: { id: number; name: string },
  a: { id: number; purchase_order: string | null; order_increment_id: string; product_sku: string; qty_assigned: number },
) => ({
  vendor_id: vendor.id,
  vendor_name: vendor.name,
  assignment_id: a.id,
  po_number: a.purchase_order!,
  order_increment_id: a.order_increment_id,
  item_sku: a.product_sku,
  qty: a.qty_assigned,
});

/** A vendor file's transmission: its path, an X12 file's control numbers (one transaction set, 0001), content and sha256. */
function vendorFileRow(vendorId: number, direction: "in" | "out", folder: string | null, fileName: string, set: string, control: number, content: string) {
  const isEdi = set !== "csv";
  return {
    vendor_id: vendorId,
    direction,
    file_name: fileName,
    remote_path: `${folder}/${fileName}`,
    transaction_set: set,
    interchange_control_number: isEdi ? pad(control, 9) : null,
    group_control_number: isEdi ? String(control) : null,
    transaction_control_numbers: isEdi ? ["0001"] : [],
    content_hash: createHash("sha256").update(content).digest("hex"),
    content: Buffer.from(content),
    size: Buffer.byteLength(content),
  };
}
const ymd = (date: Date) => date.toISOString().slice(0, 10).replace(/-/g, "");
// The business day of a moment, in the app's time zone (as the order sync and Daily Sales count days).
const businessDate = (instant: Date) => dateOnly(dayIn(process.env.APP_TIMEZONE || "America/New_York", instant));
const money = (value: number) => Math.round(value * 100) / 100;

function x12Envelope(set: string, control: number, body: string[], sender: string, receiver: string, when: Date) {
  const date = ymd(when).slice(2);
  const time = when.toISOString().slice(11, 16).replace(":", "");
  const segments = [
    `ISA*00*          *00*          *ZZ*${sender.padEnd(15)}*ZZ*${receiver.padEnd(15)}*${date}*${time}*U*00401*${pad(control, 9)}*0*P*>`,
    `GS*${{ "850": "PO", "855": "PR", "856": "SH", "997": "FA", "810": "IN", "846": "IB" }[set]}*${sender}*${receiver}*20${date}*${time}*${control}*X*004010`,
    `ST*${set}*${pad(1, 4)}`,
    ...body,
    `SE*${body.length + 2}*${pad(1, 4)}`,
    `GE*1*${control}`,
    `IEA*1*${pad(control, 9)}`,
  ];
  return segments.join("~\n") + "~\n";
}

export async function seedDemoData(databaseUrl: string): Promise<boolean> {
  const db = createPrismaClient(databaseUrl);
  try {
    if ((await db.vendor.count()) > 0) return false;
    const r = randomSource(20261121);
    const now = new Date();
    // Demo data never lies in the future: what would come after now happens now.
    const notAfterNow = (ms: number) => new Date(Math.min(ms, now.getTime()));

    // --- products and category mappings --------------------------------------
    const categories = Array.from({ length: 15 }, (_, i) => `CAT-${pad(i + 1, 2)}`);
    const products = Array.from({ length: 200 }, (_, i) => {
      const name = `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} ${r.int(1, 9)}`;
      const price = money(r.int(15, 320) - 0.05);
      return {
        sku: `SKU-${10001 + i}`,
        name,
        as400_category_id: r.pick(categories),
        shopify_product_id: r.chance(0.9) ? String(8100000000 + i) : null,
        shopify_variant_id: r.chance(0.9) ? String(45100000000 + i) : null,
        price,
        cost: money(price * 0.55),
        status: r.weighted([
          ["active", 90],
          ["draft", 6],
          ["archived", 4],
        ] as const),
        created_at: new Date(now.getTime() - r.int(30, 400) * DAY),
      };
    });
    await db.product.createMany({ data: products });
    await db.categoryTagsMapping.createMany({
      data: categories.map((id, i) => ({
        as400_category_id: id,
        shopify_tags: [["outdoor", "hiking"], ["footwear", "running"], ["apparel"], ["home", "decor"], ["camping"]][i % 5].join(", ") + `, cat-${i + 1}`,
      })),
    });

    // --- vendors (their dropshipper sources are saved with them, as the vendor form saves them) --
    const vendorRows = VENDORS.map((name, i) => {
      const edi = i % 3 !== 2; // two in three exchange X12, the rest CSV
      const code = name.split(" ")[0].toUpperCase().slice(0, 8);
      return {
        name,
        store_id: `DS${pad(i + 1, 2)}`,
        enabled: i === 11 ? 0 : 1,
        test_mode: i === 3 || i === 7 ? 1 : 0,
        is_legacy: i === 9 ? 1 : 0,
        transfer_mechanism_id: [1, 1, 2, 3][i % 4],
        sftp_user: `${code.toLowerCase()}_ops`,
        sftp_host: `edi.${code.toLowerCase()}.example.com`,
        sftp_port: [1, 1, 2, 3][i % 4] === 1 ? 22 : 21,
        sftp_incoming_folder: "/outbound",
        sftp_outcoming_folder: "/inbound",
        sftp_cancellation_put_folder: "/cancellations/in",
        sftp_cancellation_pull_folder: "/cancellations/out",
        edi_identifier: `${code}EDI`,
        edi_qualifier: "ZZ",
        test_identifier: `${code}TEST`,
        test_qualifier: "ZZ",
        input_segmenter: "~",
        input_delimiter: "*",
        output_segmenter: "~",
        output_delimiter: "*",
        edi_format: edi ? 1 : 0,
        // File names to pick up (docs/edi.md): X12 files, or CSV files.
        regex_format: edi ? "\\.(edi|x12|txt)$" : "\\.csv$",
        edi856_file_contents_regex: edi ? null : "tracking_number",
        sort_files_by_file_contents: i % 4 === 0 ? 1 : 0,
        is_archiving_files: 1,
        // The demo vendor is ours and writes under a temporary name, then renames (app/demo/demo-vendor.server.ts):
        // a file it lists is whole, so no second listing is needed (D60).
        incoming_min_age_seconds: 0,
        use_cost: i % 2,
        edi997_enabled: edi ? 1 : 0,
        edi846_enabled: i % 2 === 0 ? 1 : 0,
        unwrap_846: i % 5 === 0 ? 1 : 0,
        edi846_as400_filepath: i % 2 === 0 ? code : null,
        edi810_enabled: i % 3 === 0 ? 1 : 0,
        edi810_as400_filepath: i % 3 === 0 ? code : null,
        created_at: new Date(now.getTime() - (400 - i * 20) * DAY),
      };
    });
    const vendors = await db.vendor.createManyAndReturn({ data: vendorRows });
    await db.$transaction((tx) =>
      syncVendorSources(
        tx,
        vendors.map((vendor) => vendor.store_id),
      ),
    );
    const vendorByStore = new Map(vendors.map((vendor) => [vendor.store_id, vendor]));

    // The vendors' last 846: what each dropshipper has available. The stores' draws are still
    // made (and dropped), so the rest of the demo data stays as it was before stores came from Shopify.
    const stock: Prisma.SourceStockCreateManyInput[] = [];
    for (const _store of STORES) for (const _product of products) if (r.chance(0.6)) r.int(0, 40);
    for (const source of vendors.map((vendor) => vendor.store_id)) {
      for (const product of products) if (r.chance(0.6)) stock.push({ source_code: source, sku: product.sku, quantity: r.int(0, 40) });
    }
    await db.sourceStock.createMany({ data: stock });

    // --- orders and items --------------------------------------------------------
    const orderInputs: Prisma.OrderCreateManyInput[] = [];
    const itemPlans: Array<Array<{ sku: string; name: string; qty: number; price: number }>> = [];
    for (let i = 0; i < 420; i++) {
      // A fifth of the orders are from today, so Home and the EOD report have figures.
      const created = new Date(now.getTime() - (i < 80 ? r.int(0, 10 * 3600_000) : r.int(1, 45) * DAY + r.int(0, DAY)));
      const bill = `${r.pick(FIRST)} ${r.pick(LAST)}`;
      const ship = r.chance(0.85) ? bill : `${r.pick(FIRST)} ${r.pick(LAST)}`;
      const [city, state, zip] = r.pick(CITIES);
      const street = `${r.int(10, 9999)} ${r.pick(STREETS)}`;
      const address = `${street}, ${city}, ${state} ${zip}, US`;
      const [shipFirst, ...shipLast] = ship.split(" ");
      const items = Array.from(
        {
          length: r.weighted([
            [1, 55],
            [2, 30],
            [3, 15],
          ] as const),
        },
        () => {
          const product = r.pick(products);
          return {
            sku: product.sku,
            name: product.name,
            qty: r.weighted([
              [1, 80],
              [2, 15],
              [3, 5],
            ] as const),
            price: product.price,
          };
        },
      );
      itemPlans.push(items);
      const status = r.weighted([
        ["processing", 45],
        ["complete", 30],
        ["avs_pending", 8],
        ["canceled", 7],
        ["closed", 5],
        ["fraud", 5],
      ] as const);
      const source = r.weighted([
        ["", 70],
        ["AMAZON_US", 20],
        ["EBAY_STORES", 10],
      ] as const);
      const shipping = r.pick([0, 7.95, 12.5, 19.99]);
      orderInputs.push({
        order_id: String(100045001 + i),
        shopify_order_id: r.chance(0.95) ? String(5812345670000 + i * 7) : null,
        created_at: created,
        updated_at: notAfterNow(created.getTime() + r.int(0, 3 * DAY)),
        shopify_updated_at: notAfterNow(created.getTime() + r.int(0, 3 * DAY)),
        concat_bill_to_name: bill,
        concat_ship_to_name: ship,
        grand_total_purchased: money(items.reduce((sum, item) => sum + item.price * item.qty, 0) + shipping),
        select_skus: items.map((item) => item.sku).join(","),
        magento_status: status,
        fulfillment_status: status === "complete" || status === "closed" ? "fulfilled" : r.chance(0.2) ? "partial" : "unfulfilled",
        financial_status:
          status === "closed"
            ? "refunded"
            : status === "canceled"
              ? "voided"
              : r.weighted([
                  ["paid", 85],
                  ["pending", 10],
                  ["partially_refunded", 5],
                ] as const),
        concat_billing_address: address,
        concat_shipping_address: address,
        ship_first_name: shipFirst,
        ship_last_name: shipLast.join(" "),
        ship_street: street,
        ship_city: city,
        ship_region: state,
        ship_postcode: zip,
        ship_country_id: "US",
        ship_phone: r.chance(0.7) ? `312-555-${pad(r.int(0, 9999), 4)}` : null,
        customer_email: `${bill.toLowerCase().replace(" ", ".")}${i}@example.com`,
        marketplace_source: source || null,
        marketplace_order_id:
          source === "AMAZON_US" ? `114-${r.int(1000000, 9999999)}-${r.int(1000000, 9999999)}` : source ? String(r.int(10000000000, 99999999999)) : null,
        ca_site_order_id: source ? String(r.int(100000, 999999)) : null,
        ca_order_id: source ? String(r.int(10000000, 99999999)) : null,
        refer_source_name: r.pick(["Amazon", "Salesforce", "Shopping", "Direct Revenue", "Ebay", "Facebook", "Organic Revenue", "Specials"]),
        gift_card_used: r.chance(0.1) ? 1 : 0,
        shipping_description: shipping === 0 ? "Free Shipping - Ground" : shipping > 15 ? "Express - 2 Day" : "Standard - Ground",
        customer_notes: r.chance(0.1) ? r.pick(["Leave at the back door", "Gift - no prices please", "Call before delivery"]) : null,
        auto_assignment_eligible: source
          ? 2
          : r.weighted([
              [0, 50],
              [1, 20],
              [2, 30],
            ] as const),
        total_shippable_qty_ordered: items.reduce((sum, item) => sum + item.qty, 0),
      });
    }
    const orders = await db.order.createManyAndReturn({
      data: orderInputs,
      select: {
        id: true,
        order_id: true,
        shopify_order_id: true,
        magento_status: true,
        created_at: true,
        concat_ship_to_name: true,
        concat_shipping_address: true,
        grand_total_purchased: true,
        customer_notes: true,
      },
    });
    const itemInputs: Prisma.OrderItemCreateManyInput[] = [];
    orders.forEach((order, index) =>
      itemPlans[index].forEach((item) =>
        itemInputs.push({
          order_id: order.id,
          sku: item.sku,
          name: item.name,
          qty_ordered: item.qty,
          price: item.price,
          created_time: order.created_at,
          qty_shipped: order.magento_status === "complete" ? item.qty : 0,
        }),
      ),
    );
    const items = await db.orderItem.createManyAndReturn({
      data: itemInputs,
      select: { item_id: true, order_id: true, sku: true, qty_ordered: true, created_time: true },
    });
    const orderById = new Map(orders.map((order) => [order.id, order]));

    // --- assignments, drop-ship requests, responses, transmissions, logs ---------
    const assignmentInputs: Prisma.AssignmentCreateManyInput[] = [];
    for (const item of items) {
      const order = orderById.get(item.order_id)!;
      if (!["processing", "complete", "closed"].includes(order.magento_status ?? "") || r.chance(0.25)) continue;
      const toDropshipper = r.chance(0.45);
      const storeId = toDropshipper ? r.pick(vendors.filter((vendor) => vendor.enabled)).store_id : r.pick(STORES)[0];
      const status =
        order.magento_status === "processing"
          ? r.weighted([
              [1, 35],
              [2, 20],
              [3, 30],
              [4, 15],
            ] as const)
          : 4;
      assignmentInputs.push({
        order_increment_id: order.order_id,
        shopify_order_id: order.shopify_order_id,
        item_id: item.item_id,
        product_sku: item.sku,
        qty_assigned: item.qty_ordered,
        store_id: storeId,
        dropshipper_name: toDropshipper ? vendorByStore.get(storeId)!.name : null,
        assign_status: status,
        form_number: toDropshipper ? null : `F${r.int(100000, 999999)}`,
        purchase_order: toDropshipper ? `PO${order.order_id}-${item.item_id}` : null,
        customer_note: order.customer_notes,
        created_time: notAfterNow(order.created_at.getTime() + r.int(600_000, 4 * 3600_000)),
      });
    }
    const assignments = await db.assignment.createManyAndReturn({ data: assignmentInputs });
    for (const order of orders) {
      const mine = assignments.filter((assignment) => assignment.order_increment_id === order.order_id);
      if (mine.length) {
        await db.order.update({
          where: { id: order.id },
          data: {
            total_assigned: mine.reduce((sum, a) => sum + a.qty_assigned, 0),
            total_shipped: mine.filter((a) => a.assign_status === 4).reduce((sum, a) => sum + a.qty_assigned, 0),
            allocated_sources: [...new Set(mine.map((a) => a.store_id))].join(","),
          },
        });
      }
    }

    const dnhCandidates = assignments.filter((a) => !a.dropshipper_name && a.assign_status === 1).slice(0, 6);
    await db.dnhTransfer.createMany({
      data: dnhCandidates.map((a, i) => ({
        assignment_id: a.id,
        order_increment_id: a.order_increment_id,
        shopify_order_id: a.shopify_order_id,
        item_id: a.item_id,
        product_sku: a.product_sku,
        qty_assigned: a.qty_assigned,
        store_id: a.store_id,
        transfer_num: `T${pad(8800 + i, 6)}`,
        reason: r.pick(["Damaged in store, sending from another location", "Customer asked for a different store", "Item not found on shelf"]),
      })),
    });

    const logs: Prisma.DropshipLogCreateManyInput[] = [];
    const dropship = assignments.filter((a) => a.dropshipper_name && a.assign_status >= 2);
    const byVendor = new Map<number, typeof dropship>();
    for (const assignment of dropship) {
      const vendor = vendorByStore.get(assignment.store_id)!;
      byVendor.set(vendor.id, [...(byVendor.get(vendor.id) ?? []), assignment]);
    }
    let control = 1000;
    for (const [vendorId, vendorAssignments] of byVendor) {
      const vendor = vendors.find((v) => v.id === vendorId)!;
      const sent = vendorAssignments.filter((a) => a.assign_status >= 3);
      const isEdi = vendor.edi_format === 1;
      const sentAt = new Date(now.getTime() - r.int(1, 5) * DAY);
      let outbound: { id: number; file_name: string } | null = null;
      if (sent.length) {
        control += 1;
        const content = isEdi
          ? x12Envelope(
              "850",
              control,
              sent.flatMap((a, i) => [`BEG*00*DS*${a.purchase_order}**${ymd(sentAt)}`, `PO1*${i + 1}*${a.qty_assigned}*EA***VP*${a.product_sku}`]),
              "HOUSEROPS",
              vendor.edi_identifier ?? "VENDOR",
              sentAt,
            )
          : "po_number,sku,qty\n" + sent.map((a) => `${a.purchase_order},${a.product_sku},${a.qty_assigned}`).join("\n") + "\n";
        const fileName = `${isEdi ? "850" : "PO"}_${vendor.store_id}_${ymd(sentAt)}_${control}.${isEdi ? "edi" : "csv"}`;
        outbound = await db.transmission.create({
          data: {
            ...vendorFileRow(vendor.id, "out", vendor.sftp_outcoming_folder, fileName, isEdi ? "850" : "csv", control, content),
            status: r.chance(0.9) ? "accepted" : "sent",
            created_at: sentAt,
          },
          select: { id: true, file_name: true },
        });
      }
      for (const a of vendorAssignments) {
        const order = orders.find((o) => o.order_id === a.order_increment_id)!;
        const [first, ...rest] = (order.concat_ship_to_name ?? "Jane Doe").split(" ");
        const [street, city, stateZip] = (order.concat_shipping_address ?? "").split(", ");
        const [state, zip] = (stateZip ?? "IL 60601").split(" ");
        const status =
          a.assign_status === 2
            ? "pending"
            : a.assign_status === 3
              ? r.pick(["sent", "acknowledged", "backordered"])
              : r.chance(0.3)
                ? "archived"
                : "completed";
        const request = await db.dropshipRequest.create({
          data: {
            ...lineOf(vendor, a),
            ship_name_first: first,
            ship_name_last: rest.join(" ") || "Doe",
            ship_address: street ?? "1 Main St",
            ship_city: city ?? "Chicago",
            ship_state: state ?? "IL",
            ship_zip: zip ?? "60601",
            country_id: "US",
            status,
            needs_processing: a.assign_status === 2,
            transmission_id: a.assign_status >= 3 ? outbound?.id : null,
            sent_at: a.assign_status >= 3 ? sentAt : null,
            archived_at: status === "archived" ? now : null,
            created_at: a.created_time,
          },
        });
        logs.push({
          vendor_id: vendor.id,
          vendor_name: vendor.name,
          action: "populate_requests",
          status: "success",
          po_number: a.purchase_order,
          order_increment_id: a.order_increment_id,
          item_sku: a.product_sku,
          qty: a.qty_assigned,
          ...coded("logs.dropship.request_created", {
            po: a.purchase_order,
            qty: a.qty_assigned,
            sku: a.product_sku,
            order: a.order_increment_id,
            assignment: a.id,
          }),
          created_at: a.created_time,
        });
        if (a.assign_status < 3 || !outbound) continue;
        logs.push({
          vendor_id: vendor.id,
          vendor_name: vendor.name,
          action: "send_requests",
          status: "success",
          po_number: a.purchase_order,
          order_increment_id: a.order_increment_id,
          item_sku: a.product_sku,
          qty: a.qty_assigned,
          file_name: outbound.file_name,
          transmission_id: outbound.id,
          ...coded("logs.dropship.sent_in", { file: outbound.file_name, interchange: "" }),
          created_at: sentAt,
        });
        if (a.assign_status === 4) {
          const tracking = `1Z${r.int(100000, 999999)}${r.int(10000000, 99999999)}`;
          const carrier = r.pick(CARRIERS);
          const shippedAt = notAfterNow(sentAt.getTime() + r.int(3600_000, DAY));
          control += 1;
          const content = isEdi
            ? x12Envelope(
                "856",
                control,
                [
                  `BSN*00*${a.purchase_order}*${ymd(shippedAt)}*1200`,
                  `REF*CN*${tracking}`,
                  `TD5**2*${carrier}`,
                  `PRF*${a.purchase_order}`,
                  `LIN**VP*${a.product_sku}`,
                  `SN1**${a.qty_assigned}*EA`,
                ],
                vendor.edi_identifier ?? "VENDOR",
                "HOUSEROPS",
                shippedAt,
              )
            : `po_number,sku,qty,tracking,carrier\n${a.purchase_order},${a.product_sku},${a.qty_assigned},${tracking},${carrier}\n`;
          const fileName = `${isEdi ? "856" : "SHIP"}_${vendor.store_id}_${ymd(shippedAt)}_${control}.${isEdi ? "edi" : "csv"}`;
          const inbound = await db.transmission.create({
            data: {
              ...vendorFileRow(vendor.id, "in", vendor.sftp_incoming_folder, fileName, isEdi ? "856" : "csv", control, content),
              status: "processed",
              processed_at: shippedAt,
              created_at: shippedAt,
            },
          });
          await db.dropshipResponse.create({
            data: {
              request_id: request.request_id,
              ...lineOf(vendor, a),
              tracking_number: tracking,
              tracking_carrier: carrier,
              response_type: isEdi ? "856" : "csv",
              status: "processed",
              needs_processing: false,
              transmission_id: inbound.id,
              processed_at: shippedAt,
              created_at: shippedAt,
            },
          });
          logs.push({
            vendor_id: vendor.id,
            vendor_name: vendor.name,
            action: "receive_file",
            status: "info",
            po_number: a.purchase_order,
            file_name: fileName,
            transmission_id: inbound.id,
            ...coded("logs.dropship.deleted", {
              stored: message("logs.dropship.stored", {
                file: fileName,
                bytes: inbound.size,
                type: message("logs.dropship.type_is", { type: isEdi ? "856" : "csv" }),
                reason: isEdi ? "ST01 is 856" : "csv_file_contents_regex matches",
              }),
            }),
            created_at: shippedAt,
          });
          logs.push({
            vendor_id: vendor.id,
            vendor_name: vendor.name,
            action: "process_responses",
            status: "success",
            po_number: a.purchase_order,
            order_increment_id: a.order_increment_id,
            item_sku: a.product_sku,
            qty: a.qty_assigned,
            tracking_number: tracking,
            file_name: fileName,
            transmission_id: inbound.id,
            ...coded("logs.dropship.shipped", {
              qty: a.qty_assigned,
              sku: a.product_sku,
              po: a.purchase_order,
              carrier: message("logs.dropship.by_carrier", { carrier }),
              tracking,
            }),
            created_at: notAfterNow(shippedAt.getTime() + 120_000),
          });
        } else if (r.chance(0.5)) {
          logs.push({
            vendor_id: vendor.id,
            vendor_name: vendor.name,
            action: "process_responses",
            status: r.chance(0.8) ? "success" : "warning",
            po_number: a.purchase_order,
            order_increment_id: a.order_increment_id,
            item_sku: a.product_sku,
            qty: a.qty_assigned,
            ...(r.chance(0.8)
              ? coded("logs.dropship.ack.accepted", { qty: a.qty_assigned, sku: a.product_sku, po: a.purchase_order, detail: "" })
              : coded("logs.dropship.ack.backordered", {
                  qty: a.qty_assigned,
                  sku: a.product_sku,
                  po: a.purchase_order,
                  detail: message("logs.paren", {
                    text: [message("logs.dropship.expected", { date: new Date(sentAt.getTime() + 10 * DAY).toISOString().slice(0, 10) })],
                  }),
                })),
            created_at: new Date(sentAt.getTime() + 3600_000),
          });
        }
      }
      if (isEdi && outbound) {
        logs.push({
          vendor_id: vendor.id,
          vendor_name: vendor.name,
          action: "ack_997",
          status: "success",
          file_name: outbound.file_name,
          transmission_id: outbound.id,
          ...coded("logs.dropship.group_accepted", { file: outbound.file_name, group: "1", vendor: vendor.name }),
          created_at: new Date(sentAt.getTime() + 1800_000),
        });
      }
    }
    // A few files that went wrong, as staff would see them.
    for (const [i, vendor] of vendors
      .filter((v) => v.edi_format === 1)
      .slice(0, 4)
      .entries()) {
      const when = new Date(now.getTime() - r.int(1, 20) * DAY);
      const fileName = `856_${vendor.store_id}_${ymd(when)}_bad${i}.edi`;
      logs.push({
        vendor_id: vendor.id,
        vendor_name: vendor.name,
        action: "process_responses",
        status: "error",
        file_name: fileName,
        ...coded("logs.dropship.process_failed_997", { file: fileName, error: "segment 9 (SE): SE01 says 7 segments, the transaction has 8", id: 9000 + i }),
        created_at: when,
      });
    }
    logs.push({
      action: "populate_responses",
      status: "warning",
      vendor_name: vendors[5].name,
      vendor_id: vendors[5].id,
      ...coded("logs.dropship.incoming_unreadable", {
        vendor: vendors[5].name,
        error: `could not connect to ${vendors[5].sftp_host}:${vendors[5].sftp_port}: connection timed out after 20 s`,
      }),
      created_at: new Date(now.getTime() - 2 * DAY),
    });
    // --- cancellations (D225): a few sent requests asked back from their vendors, one per state ------
    const asked = await db.dropshipRequest.findMany({
      where: { status: { in: ["sent", "acknowledged"] }, assignment: { assign_status: 3 } },
      orderBy: { request_id: "asc" },
      take: 3,
    });
    const CANCELLATION_STATES = [
      { request: "cancel_requested", assignment: 5, cancellation: "sent", cause: "deleted", codes: [] as string[], answer: null },
      { request: "cancelled", assignment: 6, cancellation: "accepted", cause: "order_cancelled", codes: ["AT", "ID"], answer: "accepted" },
      { request: "cancel_refused", assignment: 7, cancellation: "refused", cause: "reassigned", codes: ["RJ", "IR"], answer: "refused" },
    ] as const;
    for (const [i, request] of asked.entries()) {
      const state = CANCELLATION_STATES[i];
      const askedAt = notAfterNow((request.sent_at ?? now).getTime() + r.int(3600_000, DAY));
      await db.dropshipRequest.update({ where: { request_id: request.request_id }, data: { status: state.request } });
      await db.assignment.update({ where: { id: request.assignment_id }, data: { assign_status: state.assignment } });
      await db.dropshipCancellation.create({
        data: {
          request_id: request.request_id,
          vendor_id: request.vendor_id,
          po_number: request.po_number,
          qty: request.qty,
          whole: true,
          change_number: 1,
          cause: state.cause,
          status: state.cancellation,
          answer_codes: [...state.codes],
          sent_at: askedAt,
          answered_at: state.answer ? notAfterNow(askedAt.getTime() + 3600_000) : null,
          created_at: askedAt,
        },
      });
      if (state.answer) {
        await db.dropshipRequest.update({ where: { request_id: request.request_id }, data: { qty_cancelled: state.answer === "accepted" ? request.qty : 0 } });
        logs.push({
          vendor_id: request.vendor_id,
          vendor_name: request.vendor_name,
          action: "cancel_answers",
          status: state.answer === "accepted" ? "success" : "warning",
          po_number: request.po_number,
          order_increment_id: request.order_increment_id,
          item_sku: request.item_sku,
          qty: request.qty,
          ...coded(`cancellations.log.${state.answer}`, {
            po: request.po_number,
            qty: request.qty,
            vendor: request.vendor_name,
            codes: state.codes.join(" "),
            note: "",
          }),
          created_at: notAfterNow(askedAt.getTime() + 3600_000),
        });
      }
    }
    logs.sort((a, b) => (a.created_at as Date).getTime() - (b.created_at as Date).getTime());
    await db.dropshipLog.createMany({ data: logs });

    // --- sales records, realtime logs, EOD ------------------------------------------
    const sales: Prisma.SalesRecordCreateManyInput[] = [];
    for (const order of orders) {
      if (order.magento_status === "canceled" || order.magento_status === "fraud") continue;
      const total = Number(order.grand_total_purchased);
      sales.push({
        record_type: "invoice",
        order_increment_id: order.order_id,
        shopify_order_id: order.shopify_order_id,
        amount: total,
        record_date: businessDate(order.created_at),
        created_at: order.created_at,
      });
      if (order.magento_status === "complete") {
        sales.push({
          record_type: "shipping_invoice",
          order_increment_id: order.order_id,
          shopify_order_id: order.shopify_order_id,
          amount: money(r.pick([7.95, 12.5])),
          record_date: businessDate(order.created_at),
          created_at: order.created_at,
        });
      }
      if (order.magento_status === "closed") {
        const refund = money(total * r.pick([1, 0.5]));
        sales.push({
          record_type: "credit_memo",
          order_increment_id: order.order_id,
          shopify_order_id: order.shopify_order_id,
          amount: refund,
          record_date: businessDate(order.created_at),
          created_at: order.created_at,
        });
      }
    }
    await db.salesRecord.createMany({ data: sales });
    await seedRealtimeLogs(db, randomSource(20261122), now);
    await seedEod(db, now);

    // --- feeds and their logs ----------------------------------------------------------
    const feedLogs: Prisma.FeedLogCreateManyInput[] = [];
    for (const [index, [name, cron]] of FEEDS.entries()) {
      let lastStarted: Date | null = null,
        lastFinished: Date | null = null,
        lastFailed: Date | null = null,
        lastSkipped: Date | null = null;
      for (let run = 12; run >= 1; run--) {
        const started = new Date(now.getTime() - run * (index + 1) * 3600_000 - r.int(0, 600_000));
        const outcome = r.weighted([
          ["finished", 85],
          ["failed", 8],
          ["skipped", 7],
        ] as const);
        if (outcome === "skipped") {
          feedLogs.push({ feed_name: name, type: "skipped", meta: { reason: "still running elsewhere" }, created_at: started });
          lastSkipped = started;
          continue;
        }
        const ended = new Date(started.getTime() + r.int(800, 90_000));
        feedLogs.push({ feed_name: name, type: "starting", meta: {}, created_at: started });
        feedLogs.push(
          outcome === "finished"
            ? { feed_name: name, type: "finished", meta: { processed: r.int(0, 120), duration_ms: ended.getTime() - started.getTime() }, created_at: ended }
            : {
                feed_name: name,
                type: "failed",
                meta: {
                  error: r.pick([
                    "Connection refused by edi.granite.example.com:22",
                    "Timed out reading /outbound after 30 s",
                    "AS400 answered 421 Service not available",
                  ]),
                },
                created_at: ended,
              },
        );
        lastStarted = started;
        if (outcome === "finished") lastFinished = ended;
        else lastFailed = ended;
      }
      await db.feed.create({
        data: {
          name,
          cron_expression: cron,
          last_started_at: lastStarted,
          last_finished_at: lastFinished,
          last_failed_at: lastFailed,
          last_skipped_at: lastSkipped,
        },
      });
    }
    feedLogs.sort((a, b) => (a.created_at as Date).getTime() - (b.created_at as Date).getTime());
    await db.feedLog.createMany({ data: feedLogs });
    await linkSeededFeedRuns(db);

    await seedSpecialOrders(db, now);

    // --- products' Shopify tags, API operations and errors (prisma/seed/products.ts) -------------
    await seedProductData(db, now);

    // --- saved views of the order grid, and webhooks already handled ---------------------
    const shop = process.env.LOCAL_SHOP ?? "demo-shop.myshopify.com";
    await db.savedView.createMany({
      data: [
        { shop, grid: "advancedorder", name: "Processing", name_key: "processing", filters: { magentoOrderStatus: ["processing"] }, position: 1 },
        { shop, grid: "advancedorder", name: "Amazon orders", name_key: "amazon orders", filters: { marketplaceSource: ["AMAZON_US"] }, position: 2 },
      ],
    });
    await db.webhookEvent.createMany({
      data: orders
        .slice(0, 20)
        .flatMap((order, i) =>
          order.shopify_order_id ? [{ webhook_id: `demo-${order.shopify_order_id}-${i}`, topic: "orders/create", shop, received_at: order.created_at }] : [],
        ),
    });
    await seedSalesDemo(db);
    await seedStaffActivity(db, now);
    // Last: the sweep reads the state everything above made.
    await seedAttention(db, now, vendors[5].id);
    return true;
  } finally {
    await db.$disconnect();
  }
}
