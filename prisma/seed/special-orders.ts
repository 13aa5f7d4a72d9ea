// Demo special orders: five pulled files (downloadable from the logs, in the
// format of docs/as400-files.md), the orders they made in Shopify, and tickets
// in error for the error screen, each broken the way its message says so that
// revising it shows the rule at work. Deterministic; called once by demo.ts.
import type { createPrismaClient } from "../../app/db/client.server";
import type { Prisma } from "../../app/db/generated/client";
import { englishText } from "../../app/i18n/english.server";
import { message } from "../../app/i18n/messages";
import { errorRowOf } from "../../app/special-orders/special-order-rules";

type Db = ReturnType<typeof createPrismaClient>;

const DAY = 86_400_000;
const NAMES = ["Maria Lopez", "Tom Becker", "Ann Cole", "Ray Olson", "Julie Tremblay", "Sam Patel", "Grace Kim", "Luis Ortega", "Nora Walsh", "Ethan Brooks"];
const PLACES: Array<[string, string, string, string]> = [
  ["1450 Lake Shore Dr", "Chicago", "IL", "60610"],
  ["88 Meridian St", "Indianapolis", "IN", "46204"],
  ["5 Woodward Ave", "Detroit", "MI", "48226"],
  ["12 Nicollet Mall", "Minneapolis", "MN", "55403"],
  ["300 Rue Saint-Paul", "Montreal", "PQ", "H2Y 1H2"],
  ["77 Water St", "St. John's", "NF", "A1C 1A1"],
  ["410 Market St", "St. Louis", "MO", "63102"],
  ["PSC 3 Box 1234", "APO", "AE", "09021"],
];
const STORES = ["001", "002", "003", "004", "005", "006"];
const HEADER =
  "store_id,store_ticket,employee_number,customer_name,customer_email,customer_phone,customer_address_1," +
  "customer_address_2,customer_address_city,customer_address_state_code,customer_address_zip,shipping_cost,sku,size," +
  "width,price,tax";

/** What breaks an error ticket, and the message the pull gave it (the rules' own words). */
const BROKEN = [
  {
    message: "Price must be a number.",
    code: message("special_orders.validation.price_number"),
    breakItem: (item: Item) => ({ ...item, price: "call store" }),
  },
  { message: "Size is a required field.", code: message("special_orders.validation.size_required"), breakItem: (item: Item) => ({ ...item, size: "" }) },
  {
    message: "'XX' is not a US state, Canadian province or territory, or armed-forces code.",
    code: message("special_orders.validation.state_code", { value: "XX" }),
    state: "XX",
  },
  {
    message: "'maria.lopez@example' is not a valid email address.",
    code: message("special_orders.validation.email", { value: "maria.lopez@example" }),
    email: "maria.lopez@example",
  },
] as const;

interface Item {
  sku: string;
  size: string;
  width: string;
  price: string;
  tax: string;
}

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const cents = (value: string) => Math.round((Number(value) || 0) * 100);

export async function seedSpecialOrders(db: Db, now: Date): Promise<void> {
  const products = await db.product.findMany({ select: { sku: true, price: true }, orderBy: { sku: "asc" }, take: 40 });
  if (products.length === 0) return;

  const tickets = Array.from({ length: 30 }, (_, i) => {
    const name = NAMES[i % NAMES.length];
    const [address1, city, state, zip] = PLACES[i % PLACES.length];
    const items: Item[] = Array.from({ length: 1 + (i % 2) }, (_, n) => {
      const product = products[(i * 3 + n * 7) % products.length];
      const price = Number(product.price);
      return {
        sku: product.sku,
        size: String(6 + ((i + n) % 8)) + (n % 2 ? ".5" : ""),
        width: ["", "M", "W", "N"][(i + n) % 4],
        price: price.toFixed(2),
        tax: (price * 0.0825).toFixed(2),
      };
    });
    const broken = i % 4 === 3 ? BROKEN[Math.floor(i / 4) % BROKEN.length] : null;
    return {
      index: i,
      store_id: STORES[i % STORES.length],
      store_ticket: String(7000 + i),
      employee_number: `E${100 + ((i * 37) % 900)}`,
      customer_name: name,
      customer_email: broken && "email" in broken ? broken.email : `${name.toLowerCase().replace(" ", ".")}@example.com`,
      customer_phone: `(312) 555-${String(100 + i).padStart(4, "0")}`,
      customer_address_1: address1,
      customer_address_city: city,
      customer_address_state_code: broken && "state" in broken ? broken.state : state,
      customer_address_zip: zip,
      shipping_cost: i % 3 === 0 ? "19.95" : "9.95",
      items: broken && "breakItem" in broken ? [broken.breakItem(items[0]), ...items.slice(1)] : items,
      broken,
      when: new Date(now.getTime() - (5 - (i % 5)) * DAY),
    };
  });

  // One file per day for the last five days, holding that day's tickets, as the AS400 wrote them.
  const logIds: number[] = [];
  for (let day = 0; day < 5; day++) {
    const of = tickets.filter((ticket) => ticket.index % 5 === day);
    const when = of[0].when;
    const lines = of.flatMap((ticket) =>
      ticket.items.map((item, n) =>
        [
          ticket.store_id,
          ticket.store_ticket,
          ...(n === 0
            ? [
                ticket.employee_number,
                ticket.customer_name,
                ticket.customer_email,
                ticket.customer_phone,
                ticket.customer_address_1,
                "",
                ticket.customer_address_city,
                ticket.customer_address_state_code,
                ticket.customer_address_zip,
                ticket.shipping_cost,
              ]
            : Array(10).fill("")),
          item.sku,
          item.size,
          item.width,
          item.price,
          item.tax,
        ]
          .map(csvCell)
          .join(","),
      ),
    );
    const errors = of.filter((ticket) => ticket.broken).length;
    const log = await db.specialOrderLog.create({
      data: {
        file_path: `/as400/special-orders/special_orders_${when.toISOString().slice(0, 10).replace(/-/g, "")}_01.csv`,
        content: Buffer.from(`${[HEADER, ...lines].join("\n")}\n`),
        // As the pull writes it: English text and its code (D114).
        ...(() => {
          const coded = message("logs.special_orders.parts", {
            parts: [
              message("logs.special_orders.tickets", {
                tickets: message("logs.n.ticket", { count: of.length }),
                pending: of.length - errors,
                errors: message("logs.n.error", { count: errors }),
              }),
            ],
          });
          return { summary: englishText(coded), summary_code: coded as Prisma.InputJsonValue };
        })(),
        created_at: when,
      },
    });
    logIds[day] = log.id;
  }

  for (const ticket of tickets) {
    const base = ticket.items.reduce((sum, item) => sum + cents(item.price) + cents(item.tax), 0) + cents(ticket.shipping_cost);
    const order = await db.specialOrder.create({
      data: {
        order_id: ticket.broken ? null : String(100201 + ticket.index),
        shopify_order_id: ticket.broken ? null : String(5812399990000 + ticket.index),
        store_ticket: ticket.store_ticket,
        store_id: ticket.store_id,
        employee_number: ticket.employee_number,
        customer_name: ticket.customer_name,
        customer_email: ticket.customer_email,
        customer_phone: ticket.customer_phone,
        customer_address_1: ticket.customer_address_1,
        customer_address_city: ticket.customer_address_city,
        customer_address_state_code: ticket.customer_address_state_code,
        customer_address_zip: ticket.customer_address_zip,
        items: ticket.items as unknown as object,
        shipping_cost: Number(ticket.shipping_cost),
        bill_to_name: ticket.customer_name,
        ship_to_name: ticket.customer_name,
        grand_total_base: base / 100,
        grand_total_purchased: ticket.broken ? 0 : base / 100,
        status: ticket.broken ? "error" : "created",
        shipping_description: "Special Order Shipping",
        log_id: logIds[ticket.index % 5],
        created_at: ticket.when,
      },
    });
    if (ticket.broken) {
      await db.specialOrderError.create({
        data: {
          ...errorRowOf(order),
          error_message: ticket.broken.message,
          error_code: ticket.broken.code as Prisma.InputJsonValue,
          created_at: ticket.when,
        },
      });
    }
  }
}
