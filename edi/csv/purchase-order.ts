// A purchase order as the CSV writer takes it and the CSV reader gives it back
// (its own file, so that read.ts and write.ts do not import each other).

export interface CsvShipTo {
  name: string;
  company?: string | null;
  address1: string;
  address2?: string | null;
  city: string;
  state: string;
  zip: string;
  /** ISO 3166-1 alpha-2, e.g. US. */
  country: string;
}

export interface CsvPurchaseOrderLine {
  lineNumber?: number | string | null;
  sku: string;
  vendorSku?: string | null;
  quantity: number;
  /** A number, or decimal text such as a Prisma Decimal's toString(). */
  unitPrice?: number | string | null;
}

/**
 * A purchase order as the 850 builder takes it (a DropShipOrderRequest of
 * edi/documents/850.ts can be passed as is), plus shipMethod and notes.
 */
export interface CsvPurchaseOrder {
  poNumber: string;
  /** The shop's order number; the CSV file requires it. */
  orderNumber?: string | null;
  /** The PO date: a Date (its UTC day, as the 850 builder writes it) or text parseCsvDate reads. */
  date: Date | string;
  shipTo: CsvShipTo;
  /** The end customer; the phone goes to ship_to_phone. */
  contact?: { name?: string; phone?: string | null; email?: string | null } | null;
  shipMethod?: string | null;
  notes?: string | null;
  lines: readonly CsvPurchaseOrderLine[];
}
