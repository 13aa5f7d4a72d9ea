// The Stores screen's paths, shared by the server's grid links and the pages.
export const STORES_PATH = "/stores";
export const STORE_FORM_PATH = "/stores/edit";
