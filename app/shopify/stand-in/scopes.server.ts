// The access scopes the stand-in's shop has granted the app: what its answers
// allow (ACCESS_DENIED for the rest), what token exchange reports, and what
// `currentAppInstallation { accessScopes }` lists. Tests change it through
// PUT /__scopes, as a merchant's older install or a declined update would.
import { z } from "zod";
import { expandScopes } from "../access-scopes";

/** PUT /__scopes body. */
export const scopesControl = z
  .object({ scopes: z.array(z.string().regex(/^(unauthenticated_)?(read|write)_[a-z0-9_]+$/, "not an access scope handle")) })
  .strict();

export function createGrant(initial: readonly string[]) {
  let scopes = [...initial];
  return {
    get scopes(): readonly string[] {
      return scopes;
    },
    /** What the grant covers: a write scope grants its read. */
    covered: () => expandScopes(scopes),
    set(next: readonly string[]) {
      scopes = [...new Set(next)];
    },
    reset() {
      scopes = [...initial];
    },
  };
}
export type Grant = ReturnType<typeof createGrant>;

/** Shopify's words for a scope, roughly ("Modify orders", "Read locations"). */
const describe = (handle: string) => {
  const [, unauthenticated, verb, resource] = /^(unauthenticated_)?(read|write)_(.+)$/.exec(handle) ?? [];
  return `${verb === "write" ? "Modify" : "Read"} ${(resource ?? handle).replace(/_/g, " ")}${unauthenticated ? " (unauthenticated)" : ""}`;
};

/** `currentAppInstallation` as Shopify lists it: the scopes granted, then the read scopes they imply. */
export function appInstallationAnswer(grant: Grant) {
  const handles = [...grant.scopes, ...[...grant.covered()].filter((scope) => !grant.scopes.includes(scope))];
  return { id: "gid://shopify/AppInstallation/1", accessScopes: handles.map((handle) => ({ handle, description: describe(handle) })) };
}
