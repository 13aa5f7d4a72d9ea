// Products and their tags (the product sync feed). Every SKU the catalog knows
// is one product with a stable gid; tags live in memory like fulfilments.
import type { Handler } from "../stand-in.server";
import { hashedNumber, variantGid, variantSearchPage } from "./common.server";

const productGid = (sku: string) => `gid://shopify/Product/${hashedNumber(`product:${sku}`)}`;

/** Shopify keeps one of each tag, ignoring case, and answers them sorted. */
function mergedTags(current: string[], added: string[]): string[] {
  const byKey = new Map(current.map((tag) => [tag.toLowerCase(), tag]));
  for (const tag of added) if (!byKey.has(tag.toLowerCase())) byKey.set(tag.toLowerCase(), tag);
  return [...byKey.values()].sort((a, b) => a.localeCompare(b));
}

export const productHandlers: Record<string, Handler> = {
  ProductsBySku: async (variables, { state, catalog, document }) => {
    const { pageInfo, nodes } = await variantSearchPage(catalog, variables, document);
    return {
      productVariants: {
        pageInfo,
        nodes: nodes.map((sku) => {
          state.products.skuOfGid.set(productGid(sku), sku);
          return { id: variantGid(sku), sku, product: { id: productGid(sku), tags: state.products.tags.get(sku) ?? [] } };
        }),
      },
    };
  },

  ProductTagsAdd: (variables, { state }) => {
    const id = String(variables.id ?? "");
    const tags = Array.isArray(variables.tags) ? variables.tags.map((tag) => String(tag).trim()).filter(Boolean) : [];
    const sku = state.products.skuOfGid.get(id);
    const failed = (field: string[], message: string) => ({ tagsAdd: { node: null, userErrors: [{ field, message }] } });
    if (!sku) return failed(["id"], "Product does not exist");
    if (tags.length === 0) return failed(["tags"], "Tags can't be blank");
    if (tags.some((tag) => tag.length > 255)) return failed(["tags"], "Tags is too long (maximum is 255 characters)");
    const merged = mergedTags(state.products.tags.get(sku) ?? [], tags);
    if (merged.length > 250) return failed(["tags"], "Tags cannot be more than 250");
    state.products.tags.set(sku, merged);
    return { tagsAdd: { node: { id, tags: merged }, userErrors: [] } };
  },
};
