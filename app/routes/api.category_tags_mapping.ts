// GET /api/category_tags_mapping: list params → the generic grid answer;
//   with ?id= → that mapping (the edit form's load; 404 when there is none).
// POST /api/category_tags_mapping: as400_category_id, shopify_tags (JSON or form),
//   with id to update one → { error: false, message: null, data }; 422 per field.
//   With _method=DELETE (or DELETE ?id=) and id: deletes the mapping.
import { apiRoute } from "~/http/route.server";
import { intendedMethod, parseInput, readBody } from "~/lib/validation.server";
import {
  deleteCategoryTagsMapping,
  getCategoryTagsMapping,
  listCategoryTagsMappings,
  mappingForm,
  mappingToSave,
  saveCategoryTagsMapping,
} from "~/products/products.server";
import type { RouteActivity } from "~/http/activity.server";

const MAPPING_ACTIVITY: RouteActivity = {
  action: ({ method }) =>
    ["POST", "PUT", "PATCH"].includes(method) ? "category_tags_mapping.save" : method === "DELETE" ? "category_tags_mapping.delete" : null,
  record: "category_tags_mapping",
  detail: ["as400_category_id"],
};

export const loader = apiRoute<unknown>(({ url }) =>
  url.searchParams.has("id") ? getCategoryTagsMapping(url.searchParams.get("id")) : listCategoryTagsMappings(url.searchParams),
);

export const action = apiRoute(async ({ request, url }) => {
  const body = await readBody(request);
  switch (intendedMethod(request, body)) {
    case "POST":
    case "PUT":
    case "PATCH": {
      const id = await mappingToSave(body.id ?? url.searchParams.get("id") ?? undefined);
      return saveCategoryTagsMapping(id, parseInput(mappingForm, body));
    }
    case "DELETE":
      return deleteCategoryTagsMapping(body.id ?? url.searchParams.get("id"));
    default:
      return Response.json({ error: true, message: "Use POST to save a mapping, or DELETE with its id" }, { status: 405 });
  }
}, MAPPING_ACTIVITY);
