// The fields of a valid New Drop-ship Request form (POST /api/dropship_request)
// besides the assignment and the SKU, which each test names: two to ship to
// Jane Roe in Evanston, the country as a user might type it.
export const REQUEST_SHIP_TO_FIELDS = {
  qty: "2",
  ship_name_first: "Jane",
  ship_name_last: "Roe",
  ship_address: "1 Main St",
  ship_city: "Evanston",
  ship_state: "IL",
  ship_zip: "60201",
  country_id: "us",
};
