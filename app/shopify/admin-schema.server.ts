// Shopify's published Admin API schema (./schema/, SOURCE.md), loaded once per
// process: graphql-js's schema for validating and executing documents, and the
// access each type and field requires (`requiredAccess`), which graphql-js does
// not keep. The stand-in and the contract tests read it; the app never does.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

/** The version whose published schema the stand-in speaks. */
export const ADMIN_SCHEMA_VERSION = "2026-10";
const SCHEMA_FILE = path.join("app", "shopify", "schema", `admin_${ADMIN_SCHEMA_VERSION}.json.gz`);

export interface AdminSchema {
  schema: GraphQLSchema;
  /** Type name → its requiredAccess sentence (applies to every field returning the type). */
  typeAccess: ReadonlyMap<string, string>;
  /** `Type.field` → the field's own requiredAccess sentence. */
  fieldAccess: ReadonlyMap<string, string>;
}

/**
 * The file from the repository: found upwards from this module (app/shopify/ under tsx and vitest,
 * build/processes/ or its chunks/ when local mode runs the built server) or from the working directory.
 */
export function adminSchemaFile(): string {
  const starts = [path.dirname(fileURLToPath(import.meta.url)), process.cwd()];
  for (const start of starts) {
    for (let folder = start; ; folder = path.dirname(folder)) {
      const candidate = path.join(folder, SCHEMA_FILE);
      if (existsSync(candidate)) return candidate;
      if (path.dirname(folder) === folder) break;
    }
  }
  throw new Error(`Shopify's Admin schema ${SCHEMA_FILE} was not found above ${starts.join(" or ")}: the stand-in cannot answer without it`);
}

interface RawType {
  name: string;
  requiredAccess?: string | null;
  fields?: Array<{ name: string; requiredAccess?: string | null }> | null;
}

declare global {
  var __adminSchema: AdminSchema | undefined;
}

/** Loaded at first use (about half a second), then kept for the process. */
export function adminSchema(): AdminSchema {
  return (globalThis.__adminSchema ??= (() => {
    const introspection = JSON.parse(gunzipSync(readFileSync(adminSchemaFile())).toString("utf8")) as { data: IntrospectionQuery };
    const typeAccess = new Map<string, string>();
    const fieldAccess = new Map<string, string>();
    for (const type of introspection.data.__schema.types as unknown as RawType[]) {
      if (type.requiredAccess) typeAccess.set(type.name, type.requiredAccess);
      for (const field of type.fields ?? []) if (field.requiredAccess) fieldAccess.set(`${type.name}.${field.name}`, field.requiredAccess);
    }
    return { schema: buildClientSchema(introspection.data), typeAccess, fieldAccess };
  })());
}
