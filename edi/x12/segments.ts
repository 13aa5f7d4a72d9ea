// The names of the X12 segments our partners exchange (850, 855, 856, 846,
// 810, 997, 860, 865 and the envelopes), as the X12 standard names them: the
// file viewer shows each segment with its name (issue 32 item 2). A segment
// not listed here shows its id alone.
export const SEGMENT_NAMES: Readonly<Record<string, string>> = {
  // Envelopes
  ISA: "Interchange Control Header",
  IEA: "Interchange Control Trailer",
  GS: "Functional Group Header",
  GE: "Functional Group Trailer",
  ST: "Transaction Set Header",
  SE: "Transaction Set Trailer",
  TA1: "Interchange Acknowledgment",
  // 850 Purchase Order, 860 Purchase Order Change, 865 Change Acknowledgment
  BEG: "Beginning Segment for Purchase Order",
  BCH: "Beginning Segment for Purchase Order Change",
  BCA: "Beginning Segment for Purchase Order Change Acknowledgment",
  CUR: "Currency",
  REF: "Reference Identification",
  PER: "Administrative Communications Contact",
  FOB: "F.O.B. Related Instructions",
  ITD: "Terms of Sale/Deferred Terms of Sale",
  DTM: "Date/Time Reference",
  TD1: "Carrier Details (Quantity and Weight)",
  TD3: "Carrier Details (Equipment)",
  TD4: "Carrier Details (Special Handling, or Hazardous Materials, or Both)",
  TD5: "Carrier Details (Routing Sequence/Transit Time)",
  N9: "Reference Identification",
  MSG: "Message Text",
  N1: "Name",
  N2: "Additional Name Information",
  N3: "Address Information",
  N4: "Geographic Location",
  PO1: "Baseline Item Data",
  POC: "Line Item Change",
  PID: "Product/Item Description",
  PO4: "Item Physical Details",
  SAC: "Service, Promotion, Allowance, or Charge Information",
  SCH: "Line Item Schedule",
  CTT: "Transaction Totals",
  AMT: "Monetary Amount",
  NTE: "Note/Special Instruction",
  // 855 Purchase Order Acknowledgment
  BAK: "Beginning Segment for Purchase Order Acknowledgment",
  ACK: "Line Item Acknowledgment",
  // 856 Ship Notice/Manifest
  BSN: "Beginning Segment for Ship Notice",
  HL: "Hierarchical Level",
  PRF: "Purchase Order Reference",
  LIN: "Item Identification",
  SN1: "Item Detail (Shipment)",
  MAN: "Marks and Numbers",
  // 846 Inventory Inquiry/Advice
  BIA: "Beginning Segment for Inventory Inquiry/Advice",
  QTY: "Quantity",
  SDQ: "Destination Quantity",
  // 810 Invoice
  BIG: "Beginning Segment for Invoice",
  IT1: "Baseline Item Data (Invoice)",
  TDS: "Total Monetary Value Summary",
  TXI: "Tax Information",
  CAD: "Carrier Detail",
  ISS: "Invoice Shipment Summary",
  // 997 Functional Acknowledgment
  AK1: "Functional Group Response Header",
  AK2: "Transaction Set Response Header",
  AK3: "Data Segment Note",
  AK4: "Data Element Note",
  AK5: "Transaction Set Response Trailer",
  AK9: "Functional Group Response Trailer",
};

/** A segment's name, or null for one not listed. */
export const segmentName = (id: string): string | null => SEGMENT_NAMES[id.toUpperCase()] ?? null;
