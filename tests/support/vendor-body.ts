// What the tests' vendor bodies for POST /api/dropship_vendor share: files
// read in name order and archived, no cost, 997s on, no 846 or 810. Each test
// adds the vendor's name, store, server and EDI identity.
export const VENDOR_DOCUMENT_FLAGS = {
  sort_files_by_file_contents: 0,
  is_archiving_files: 1,
  use_cost: 0,
  "997_enabled": 1,
  "846_enabled": 0,
  unwrap_846: 0,
  "810_enabled": 0,
};
