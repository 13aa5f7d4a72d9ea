// CSV documents for vendors whose edi_format is 0: see docs/edi-csv.md.
export * from "./headers";
export * from "./read";
export * from "./write";
export * from "./recognise";
