// What Shopify's published schema says a field needs of the app's access
// scopes, and which fields of a document the granted scopes do not cover. The
// stand-in refuses those fields as Shopify does (ACCESS_DENIED), and the
// contract tests check every operation of ./operations.ts against APP_SCOPES.
import { getNamedType, Kind, TypeInfo, visit, visitWithTypeInfo, type ASTNode, type DocumentNode, type GraphQLNamedType } from "graphql";
import { expandScopes } from "./access-scopes";
import type { AdminSchema } from "./admin-schema.server";

/** A requiredAccess sentence and the scopes it accepts (any one of them suffices). */
export interface AccessRequirement {
  requiredAccess: string;
  scopes: string[];
}

/**
 * The scopes a requiredAccess sentence names: "`read_orders` access scope, `read_marketplace_orders` access scope
 * or `read_quick_sale` access scope. Also: The user must have ... permission." The "Also:" part is about the staff
 * member's permissions (or the kind of token), not the app's scopes, so it is not read. A sentence naming no scope
 * (a shop feature, a private programme, staff permissions only) is not a matter of scopes: nothing to check.
 */
export function requirementOf(requiredAccess: string): AccessRequirement {
  const aboutScopes = requiredAccess.split(/\bAlso:/)[0];
  return { requiredAccess, scopes: [...aboutScopes.matchAll(/`([a-z0-9_]+)`/g)].map((match) => match[1]) };
}

/** A field's own requirement and its return type's (a type's requirement applies to every field returning it). */
export function requirementsOfField(admin: AdminSchema, parentType: string, field: string, returnType: GraphQLNamedType): AccessRequirement[] {
  const sentences = [admin.fieldAccess.get(`${parentType}.${field}`), admin.typeAccess.get(returnType.name)];
  return sentences.filter((sentence): sentence is string => Boolean(sentence)).map(requirementOf);
}

/** The first requirement the scopes (already expanded: a write scope grants its read) do not meet, if any. */
export function unmetRequirement(requirements: AccessRequirement[], covered: ReadonlySet<string>): AccessRequirement | undefined {
  return requirements.find((requirement) => requirement.scopes.length > 0 && !requirement.scopes.some((scope) => covered.has(scope)));
}

/** Shopify's refusal of one field: the words of its answers ("Access denied for order field. Required access: ..."). */
export function accessDeniedError(field: string, requirement: AccessRequirement) {
  return {
    message: `Access denied for ${field} field. Required access: ${requirement.requiredAccess}`,
    extensions: { code: "ACCESS_DENIED", documentation: "https://shopify.dev/api/usage/access-scopes", requiredAccess: requirement.requiredAccess },
  };
}

export interface DeniedField {
  /** Response keys from the operation's root, e.g. ["order", "fulfillmentOrders", "nodes"]. */
  path: string[];
  /** `Type.field` as the schema names it. */
  field: string;
  requirement: AccessRequirement;
}

/**
 * Every field the document selects that `granted` does not cover, found without running anything (fields under a
 * denied one are not listed: Shopify never reaches them). Fragments are walked where they are defined.
 */
export function deniedFields(admin: AdminSchema, document: DocumentNode, granted: Iterable<string>): DeniedField[] {
  const covered = expandScopes(granted);
  const typeInfo = new TypeInfo(admin.schema);
  const path: string[] = [];
  const denied: DeniedField[] = [];
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          const parent = typeInfo.getParentType();
          const field = typeInfo.getFieldDef();
          path.push(node.alias?.value ?? node.name.value);
          if (!parent || !field) return undefined;
          const unmet = unmetRequirement(requirementsOfField(admin, parent.name, field.name, getNamedType(field.type)), covered);
          if (!unmet) return undefined;
          denied.push({ path: [...path], field: `${parent.name}.${field.name}`, requirement: unmet });
          path.pop();
          return false; // not walked further
        },
        leave() {
          path.pop();
        },
      },
    }),
  );
  return denied;
}

/** The root fields of the document's operations (`fulfillmentCreate`, `currentAppInstallation`), by name. */
export function rootFieldNames(node: ASTNode): string[] {
  if (node.kind !== Kind.OPERATION_DEFINITION) return [];
  return node.selectionSet.selections.flatMap((selection) => (selection.kind === Kind.FIELD ? [selection.name.value] : []));
}
