// The special-order files the demo AS400 has waiting when local mode first
// starts, so Pull New Special Orders does something visible: good tickets
// (one to Quebec under the AS400's old code PQ) and a bad one in each file
// for the error screen. The format is docs/as400-files.md's.
import type { OutFile } from "../dropship/tools/vendor-answers";

const HEADER =
  "store_id,store_ticket,employee_number,customer_name,customer_email,customer_phone,customer_address_1," +
  "customer_address_2,customer_address_city,customer_address_state_code,customer_address_zip,shipping_cost,sku,size," +
  "width,price,tax";

/** Two files dated `now`, over the first SKUs the shop sells (at least one). */
export function specialOrderSampleFiles(skus: string[], now: Date): OutFile[] {
  const sku = (index: number) => skus[index % skus.length];
  const stamp = now.toISOString().slice(0, 10).replace(/-/g, "");
  const ticket = (n: number) => `D${stamp.slice(2)}${String(n).padStart(2, "0")}`;
  const first = [
    HEADER,
    `001,${ticket(1)},E204,Maria Lopez,maria.lopez@example.com,(312) 555-0142,1450 Lake Shore Dr,Apt 12B,Chicago,IL,60610,9.95,${sku(0)},9,M,129.95,10.72`,
    `001,${ticket(1)},,,,,,,,,,,${sku(1)},9.5,W,89.00,7.34`,
    `003,${ticket(2)},E311,Tom Becker,tom.becker@example.com,(317) 555-0199,88 Meridian St,,Indianapolis,IN,46204,12.50,${sku(2)},11,,74.99,5.25`,
    `004,${ticket(3)},E118,Ann Cole,ann.cole@example.com,(313) 555-0110,5 Woodward Ave,,Detroit,MI,48226,9.95,${sku(3)},8,N,call store,0`,
  ];
  const second = [
    HEADER,
    `002,${ticket(4)},E520,Julie Tremblay,julie.tremblay@example.com,(514) 555-0123,300 Rue Saint-Paul,,Montreal,PQ,H2Y 1H2,19.95,${sku(4)},7,,159.00,23.81`,
    `005,${ticket(5)},E777,Ray Olson,ray.olson@example.com,(612) 555-0188,12 Nicollet Mall,,Minneapolis,MN,55403,9.95,${sku(0)},,M,99.00,7.62`,
  ];
  return [
    { name: `special_orders_${stamp}_01.csv`, content: `${first.join("\n")}\n` },
    { name: `special_orders_${stamp}_02.csv`, content: `${second.join("\n")}\n` },
  ];
}
