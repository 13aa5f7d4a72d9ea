// Sample data the edi/ tests share, where only the sample matters and not its values' origin.
import type { DropShipOrderRequest } from "../../edi/documents/850";
import type { VendorEdiFields } from "../../edi/vendor-profile";

/** The ship-to and contact of the drop-ship request samples (850 and CSV tests). */
export const JANE_DOE: Pick<DropShipOrderRequest, "shipTo" | "contact"> = {
  shipTo: {
    name: "Jane Doe",
    company: "Doe Design",
    address1: "1 Main St",
    address2: "Apt 4",
    city: "Springfield",
    state: "IL",
    zip: "62701",
    country: "US",
  },
  contact: { name: "Jane Doe", phone: "555-0100", email: "jane@example.com" },
};

/** Acme Outdoor Supply's EDI fields: production mode, "*" and "~", unless `fields` say otherwise. */
export const acmeVendorFields = (fields: Partial<VendorEdiFields> = {}): VendorEdiFields => ({
  id: 7,
  name: "Acme Outdoor Supply",
  test_mode: 0,
  edi_format: 1,
  edi_identifier: "ACMEEDI",
  edi_qualifier: "01",
  test_identifier: "ACMETEST",
  test_qualifier: "ZZ",
  output_delimiter: "*",
  output_segmenter: "~",
  ...fields,
});
