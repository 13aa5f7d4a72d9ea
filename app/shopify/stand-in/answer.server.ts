// The stand-in's handlers compute plain data; this shapes it through the
// request's document with graphql-js's own execution over Shopify's published
// schema. So only what the document selects is answered, a field the granted
// scopes do not cover is refused as Shopify refuses it (ACCESS_DENIED, null
// there, propagated by GraphQL's null rules), and anything the schema does not
// allow (an enum value it does not list, a null for a non-null field, a wrong
// shape, an abstract type that cannot be resolved, a field the handler does not
// answer) is the stand-in's own bug: StandInAnswerViolation, answered loudly.
import {
  execute,
  getNamedType,
  isAbstractType,
  type DocumentNode,
  type GraphQLAbstractType,
  type GraphQLError,
  type GraphQLFieldResolver,
  type GraphQLTypeResolver,
  type OperationDefinitionNode,
} from "graphql";
import { accessDeniedError, requirementsOfField, unmetRequirement, type AccessRequirement } from "../admin-access.server";
import type { AdminSchema } from "../admin-schema.server";
import type { ShopifyError } from "./request.server";

/** A field refused for the scopes: Shopify's answer, not a fault. */
class AccessDenied extends Error {
  readonly extensions: Record<string, unknown>;
  constructor(field: string, requirement: AccessRequirement) {
    const { message, extensions } = accessDeniedError(field, requirement);
    super(message);
    this.extensions = extensions;
  }
}

/** The handler answered something Shopify's schema does not allow: a bug of the stand-in, never an answer. */
export class StandInAnswerViolation extends Error {
  constructor(readonly violations: string[]) {
    super(`The Shopify stand-in answered what the 2026-10 schema does not allow: ${violations.join("; ")}`);
    this.name = "StandInAnswerViolation";
  }
}

/** The type a node names: its `__typename`, else its gid's (gid://shopify/Order/1 is an Order). */
const typeResolver: GraphQLTypeResolver<unknown, unknown> = (value, _context, info, abstractType: GraphQLAbstractType) => {
  const named = (value as { __typename?: unknown } | null)?.__typename ?? /^gid:\/\/shopify\/(\w+)\//.exec(String((value as { id?: unknown } | null)?.id))?.[1];
  if (typeof named !== "string") return undefined;
  const type = info.schema.getType(named);
  return type && !isAbstractType(type) && info.schema.isSubType(abstractType, type as never) ? named : undefined;
};

export interface ShapedAnswer {
  data: unknown;
  /** ACCESS_DENIED for the fields refused; absent when none was. */
  errors?: ShopifyError[];
}

/**
 * `data` (the handler's answer, keyed by field name or alias) shaped by the document for `covered` scopes
 * (expanded: a write scope grants its read). Throws StandInAnswerViolation when the answer breaks the schema.
 */
export function shapeAnswer(options: {
  admin: AdminSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown>;
  data: unknown;
  covered: ReadonlySet<string>;
}): ShapedAnswer {
  const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, _args, _context, info) => {
    const unmet = unmetRequirement(requirementsOfField(options.admin, info.parentType.name, info.fieldName, getNamedType(info.returnType)), options.covered);
    if (unmet) throw new AccessDenied(info.fieldName, unmet);
    if (source === null || typeof source !== "object" || Array.isArray(source)) {
      throw new Error(`${info.parentType.name} is answered with ${JSON.stringify(source)}, not an object`);
    }
    const key = String(info.path.key);
    if (key in source) return (source as Record<string, unknown>)[key];
    if (info.fieldName in source) return (source as Record<string, unknown>)[info.fieldName];
    throw new Error(`the stand-in does not answer ${info.parentType.name}.${info.fieldName}`);
  };
  const result = execute({
    schema: options.admin.schema,
    document: options.document,
    operationName: options.operation.name?.value,
    rootValue: options.data,
    variableValues: options.variables,
    fieldResolver,
    typeResolver,
  });
  if ("then" in result) throw new StandInAnswerViolation(["an answer resolved asynchronously"]); // handlers answer plain data
  const denied: ShopifyError[] = [];
  const violations: string[] = [];
  for (const error of (result.errors ?? []) as GraphQLError[]) {
    if (error.originalError instanceof AccessDenied) {
      denied.push({
        message: error.message,
        locations: error.locations ? [...error.locations] : undefined,
        path: error.path ? [...error.path] : undefined,
        extensions: error.originalError.extensions,
      });
    } else violations.push(`${(error.path ?? []).join(".") || "(root)"}: ${error.message}`);
  }
  if (violations.length) throw new StandInAnswerViolation(violations);
  return denied.length ? { data: result.data, errors: denied } : { data: result.data };
}
