// Paths of the Products area shared by the server's grid links and the pages.
export const MAPPINGS_PATH = "/product/category_tags_mapping";
export const MAPPING_FORM_PATH = "/product/category_tags_mapping/edit";
