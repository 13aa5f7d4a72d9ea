// A GraphQL request checked as Shopify checks it before running anything:
// parsed, validated against the published schema, its variables coerced. A
// request that fails is answered with top-level `errors` and no `data`, in the
// words and `extensions` of Shopify's answers (graphql-ruby's), where known:
//   Parse error on ")" (RPAREN) at [1, 28]
//   Field 'files' doesn't exist on type 'QueryRoot'          undefinedField
//   Field 'inventoryItems' doesn't accept argument 'quer'      argumentNotAccepted
//   Variable $input of type X! was provided invalid value for a.b (Field is not defined on Y)   INVALID_VARIABLE
// Other rules keep graphql-js's words, with the rule's name as the code.
import {
  coerceInputValue,
  getLocation,
  GraphQLError,
  isEnumType,
  isNonNullType,
  Kind,
  Lexer,
  parse,
  print,
  Source,
  specifiedRules,
  TokenKind,
  typeFromAST,
  validate,
  valueFromAST,
  visit,
  type ASTNode,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from "graphql";

/** One entry of a GraphQL answer's `errors`. */
export interface ShopifyError {
  message: string;
  locations?: Array<{ line: number; column: number }>;
  path?: Array<string | number>;
  extensions?: Record<string, unknown>;
}

export type CheckedRequest =
  { ok: true; document: DocumentNode; operation: OperationDefinitionNode; variables: Record<string, unknown> } | { ok: false; errors: ShopifyError[] };

type ParsedDocument = { ok: true; document: DocumentNode } | { ok: false; errors: ShopifyError[] };

/**
 * A document's parse and validation, kept by its text: the app sends the same few documents
 * thousands of times, and validating against a schema of this size costs (KnownTypeNamesRule
 * lists every type). Bounded: a test's one-off documents cannot grow it without end.
 */
const checkedDocuments = new Map<string, { schema: GraphQLSchema; parsed: ParsedDocument }>();
const CHECKED_DOCUMENTS_KEPT = 500;
function parsedDocument(schema: GraphQLSchema, query: string): ParsedDocument {
  const kept = checkedDocuments.get(query);
  if (kept?.schema === schema) return kept.parsed;
  const parsed = parseAndValidate(schema, query);
  if (checkedDocuments.size >= CHECKED_DOCUMENTS_KEPT) checkedDocuments.delete(checkedDocuments.keys().next().value!);
  checkedDocuments.set(query, { schema, parsed });
  return parsed;
}

function parseAndValidate(schema: GraphQLSchema, query: string): ParsedDocument {
  let document: DocumentNode;
  try {
    document = parse(new Source(query));
  } catch (error) {
    return { ok: false, errors: [parseError(query, error as GraphQLError)] };
  }
  const validationErrors = validationErrorsOf(schema, document);
  return validationErrors.length ? { ok: false, errors: validationErrors } : { ok: true, document };
}

export function checkRequest(schema: GraphQLSchema, query: string, operationName: string | undefined, variables: Record<string, unknown>): CheckedRequest {
  const parsed = parsedDocument(schema, query);
  if (!parsed.ok) return parsed;
  const { document } = parsed;
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((each) => each.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  if (!operation) {
    const message = operationName ? `No operation named "${operationName}"` : "An operation name is required";
    return { ok: false, errors: [{ message, extensions: { code: "OPERATION_NOT_FOUND" } }] };
  }
  const variableErrors = variableErrorsOf(schema, operation, variables);
  if (variableErrors.length) return { ok: false, errors: variableErrors };
  return { ok: true, document, operation, variables };
}

// ---------------------------------------------------------------------------
// Syntax

const TOKEN_NAMES: Partial<Record<string, string>> = {
  [TokenKind.BRACE_L]: "LCURLY",
  [TokenKind.BRACE_R]: "RCURLY",
  [TokenKind.PAREN_L]: "LPAREN",
  [TokenKind.PAREN_R]: "RPAREN",
  [TokenKind.BRACKET_L]: "LBRACKET",
  [TokenKind.BRACKET_R]: "RBRACKET",
  [TokenKind.COLON]: "COLON",
  [TokenKind.DOLLAR]: "VAR_SIGN",
  [TokenKind.BANG]: "BANG",
  [TokenKind.EQUALS]: "EQUALS",
  [TokenKind.AT]: "DIR_SIGN",
  [TokenKind.SPREAD]: "ELLIPSIS",
  [TokenKind.PIPE]: "PIPE",
  [TokenKind.AMP]: "AMP",
  [TokenKind.NAME]: "IDENTIFIER",
  [TokenKind.INT]: "INT",
  [TokenKind.FLOAT]: "FLOAT",
  [TokenKind.STRING]: "STRING",
  [TokenKind.BLOCK_STRING]: "STRING",
};

/** Shopify names the token where parsing stopped: `Parse error on ")" (RPAREN) at [1, 28]`. */
function parseError(query: string, error: GraphQLError): ShopifyError {
  const location = error.locations?.[0];
  const position = error.positions?.[0];
  if (!location || position === undefined) return { message: `Parse error: ${error.message}` };
  let token;
  try {
    const lexer = new Lexer(new Source(query));
    token = lexer.advance();
    while (token.kind !== TokenKind.EOF && token.end <= position) token = lexer.advance();
  } catch {
    token = undefined; // the lexer itself stopped there (an unterminated string): graphql-js's words
  }
  const at = `at [${location.line}, ${location.column}]`;
  const message = !token
    ? `Parse error: ${error.message.replace(/^Syntax Error: /, "")} ${at}`
    : token.kind === TokenKind.EOF
      ? "Unexpected end of document"
      : `Parse error on ${JSON.stringify(token.value ?? token.kind)} (${TOKEN_NAMES[token.kind] ?? token.kind}) ${at}`;
  return { message, locations: [location] };
}

// ---------------------------------------------------------------------------
// Validation

interface NodeContext {
  /** graphql-ruby's path: "query Name" (or "mutation Name"), then field names, and an argument's name. */
  path: string[];
  field?: string;
  argument?: string;
  directive?: string;
  operation?: string;
  /** Inside a variable's definition: its name. */
  variable?: string;
}

/** Where each node of the document sits, for the paths and names of Shopify's validation errors. */
function nodeContexts(document: DocumentNode): Map<ASTNode, NodeContext> {
  const contexts = new Map<ASTNode, NodeContext>();
  visit(document, {
    enter(node, _key, parent, _path, ancestors) {
      const context: NodeContext = { path: [] };
      // graphql-js gives the parent apart from the other ancestors.
      for (const ancestor of [...ancestors, parent, node]) {
        if (!ancestor || Array.isArray(ancestor) || !("kind" in ancestor)) continue;
        const each = ancestor as ASTNode;
        if (each.kind === Kind.OPERATION_DEFINITION) {
          context.operation = each.name?.value;
          context.path.push(each.name ? `${each.operation} ${each.name.value}` : each.operation);
        } else if (each.kind === Kind.FRAGMENT_DEFINITION) context.path.push(`fragment ${each.name.value}`);
        else if (each.kind === Kind.INLINE_FRAGMENT) context.path.push(`... on ${each.typeCondition?.name.value ?? ""}`.trim());
        else if (each.kind === Kind.FIELD) {
          context.path.push(each.name.value);
          context.field = each.name.value;
        } else if (each.kind === Kind.ARGUMENT) {
          context.path.push(each.name.value);
          context.argument = each.name.value;
        } else if (each.kind === Kind.DIRECTIVE) context.directive = each.name.value;
        else if (each.kind === Kind.VARIABLE_DEFINITION) context.variable = each.variable.name.value;
      }
      contexts.set(node, context);
    },
  });
  return contexts;
}

type Translate = (error: GraphQLError, context: NodeContext) => Omit<ShopifyError, "locations" | "path"> | null;

const quoted = (message: string) => [...message.matchAll(/"([^"]*)"/g)].map((match) => match[1]);

// graphql-js rule → Shopify's words for it (null: keep graphql-js's).
const TRANSLATIONS = new Map<ValidationRule, Translate>();
function translate(ruleName: string, translation: Translate) {
  const rule = specifiedRules.find((each) => each.name === ruleName);
  if (rule) TRANSLATIONS.set(rule, translation);
}
translate("FieldsOnCorrectTypeRule", (error) => {
  const [fieldName, typeName] = quoted(error.message);
  return { message: `Field '${fieldName}' doesn't exist on type '${typeName}'`, extensions: { code: "undefinedField", typeName, fieldName } };
});
translate("KnownArgumentNamesRule", (error, context) => {
  const [argumentName] = quoted(error.message);
  if (context.directive) {
    return {
      message: `Directive '${context.directive}' doesn't accept argument '${argumentName}'`,
      extensions: { code: "argumentNotAccepted", name: context.directive, typeName: "Directive", argumentName },
    };
  }
  return {
    message: `Field '${context.field}' doesn't accept argument '${argumentName}'`,
    extensions: { code: "argumentNotAccepted", name: context.field, typeName: "Field", argumentName },
  };
});
translate("ProvidedRequiredArgumentsRule", (error) => {
  const [name, argument] = quoted(error.message);
  const className = name.startsWith("@") ? "Directive" : "Field";
  return {
    message: `${className} '${name.replace(/^@/, "")}' is missing required arguments: ${argument}`,
    extensions: { code: "missingRequiredArguments", className, name: name.replace(/^@/, ""), arguments: argument },
  };
});
translate("ValuesOfCorrectTypeRule", (error, context) => {
  const node = error.nodes?.[0];
  const expected = /type "([^"]+)"/.exec(error.message)?.[1] ?? /^(\w+) cannot represent/.exec(error.message)?.[1] ?? "the argument's type";
  return {
    message:
      `Argument '${context.argument}' on ${context.directive ? `Directive '${context.directive}'` : `Field '${context.field}'`} ` +
      `has an invalid value (${node ? print(node) : "?"}). Expected type '${expected}'.`,
    extensions: { code: "argumentLiteralsIncompatible", typeName: context.directive ? "Directive" : "Field", argumentName: context.argument },
  };
});
translate("ScalarLeafsRule", (error) => {
  const [fieldName, typeName] = quoted(error.message);
  if (/must have a selection/.test(error.message)) {
    return {
      message: `Field must have selections (field '${fieldName}' returns ${typeName} but has no selections. Did you mean '${fieldName} { ... }'?)`,
      extensions: { code: "selectionMismatch", nodeName: `field '${fieldName}'`, typeName },
    };
  }
  return {
    message: `Selections can't be made on scalars (field '${fieldName}' returns ${typeName} but has selections)`,
    extensions: { code: "selectionMismatch", nodeName: `field '${fieldName}'`, typeName },
  };
});
translate("NoUndefinedVariablesRule", (error, context) => {
  const [variable] = quoted(error.message);
  return {
    message: `Variable ${variable} is used by ${context.operation ?? "anonymous query"} but not declared`,
    extensions: { code: "variableNotDefined", variableName: variable.replace(/^\$/, "") },
  };
});
translate("NoUnusedVariablesRule", (error, context) => {
  const [variable] = quoted(error.message);
  return {
    message: `Variable ${variable} is declared by ${context.operation ?? "anonymous query"} but not used`,
    extensions: { code: "variableNotUsed", variableName: variable.replace(/^\$/, "") },
  };
});
translate("VariablesInAllowedPositionRule", (error, context) => {
  const [variable, given, expected] = quoted(error.message);
  const nullability = given.replace(/!$/, "") === expected.replace(/!$/, "");
  return {
    message: `${nullability ? "Nullability" : "Type"} mismatch on variable ${variable} and argument ${context.argument} (${given} / ${expected})`,
    extensions: { code: "variableMismatch", variableName: variable.replace(/^\$/, ""), typeName: given, argumentName: context.argument },
  };
});
translate("KnownTypeNamesRule", (error, context) => {
  const [typeName] = quoted(error.message);
  return context.variable
    ? {
        message: `${typeName} isn't a defined input type (on $${context.variable})`,
        extensions: { code: "variableRequiresValidType", typeName, variableName: context.variable },
      }
    : { message: `No such type ${typeName}, so it can't be a fragment condition`, extensions: { code: "undefinedType", typeName } };
});
translate("KnownDirectivesRule", (error) => {
  const [directive] = quoted(error.message);
  return /Unknown directive/.test(error.message)
    ? { message: `Directive ${directive} is not defined`, extensions: { code: "undefinedDirective", directiveName: directive.replace(/^@/, "") } }
    : null;
});
translate("PossibleFragmentSpreadsRule", (error) => {
  const [parentType, fragmentType] = quoted(error.message).slice(-2);
  return { message: `Fragment on ${fragmentType} can't be spread inside ${parentType}`, extensions: { code: "cannotSpreadFragment" } };
});

function validationErrorsOf(schema: GraphQLSchema, document: DocumentNode): ShopifyError[] {
  if (validate(schema, document).length === 0) return [];
  // Rule by rule, to know which rule each error comes from (graphql-js does not say).
  const contexts = nodeContexts(document);
  return specifiedRules.flatMap((rule) =>
    validate(schema, document, [rule]).map((error): ShopifyError => {
      // The last node is the one in question (a variable's use, not its definition).
      const context = contexts.get(error.nodes?.at(-1) as ASTNode) ?? { path: [] };
      const translated = TRANSLATIONS.get(rule)?.(error, context) ?? {
        message: error.message,
        extensions: { code: rule.name.replace(/Rule$/, "").replace(/^./, (first) => first.toLowerCase()) },
      };
      return {
        message: translated.message,
        locations: error.locations ? [...error.locations] : undefined,
        path: context.path,
        extensions: translated.extensions,
      };
    }),
  );
}

// ---------------------------------------------------------------------------
// Variables

interface Problem {
  path: Array<string | number>;
  explanation: string;
}

/** graphql-js's explanation of a coercion failure in graphql-ruby's words. */
function problemOf(schema: GraphQLSchema, path: ReadonlyArray<string | number>, error: GraphQLError, invalidValue: unknown): Problem {
  const message = error.message;
  const undefinedField = /^Field "([^"]+)" is not defined by type "([^"]+)"/.exec(message);
  if (undefinedField) return { path: [...path, undefinedField[1]], explanation: `Field is not defined on ${undefinedField[2]}` };
  const missingField = /^Field "([^"]+)" of required type "[^"]+" was not provided/.exec(message);
  if (missingField) return { path: [...path, missingField[1]], explanation: "Expected value to not be null" };
  if (/^Expected non-nullable type "[^"]+" not to be null/.test(message)) return { path: [...path], explanation: "Expected value to not be null" };
  const enumValue = /^Value "?([^"]*)"? does not exist in "([^"]+)" enum/.exec(message);
  const enumType = enumValue ? schema.getType(enumValue[2]) : undefined;
  if (enumType && isEnumType(enumType)) {
    const values = enumType.getValues().map((value) => value.name);
    return { path: [...path], explanation: `Expected ${JSON.stringify(invalidValue)} to be one of: ${values.join(", ")}` };
  }
  const scalar = /^(\w+) cannot represent/.exec(message);
  if (scalar) return { path: [...path], explanation: `Could not coerce value ${JSON.stringify(invalidValue)} to ${scalar[1]}` };
  return { path: [...path], explanation: message.replace(/\.$/, "") };
}

/** One error per variable that fails, with every problem Shopify lists for it (D47's `extensions.problems`). */
function variableErrorsOf(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown>): ShopifyError[] {
  const errors: ShopifyError[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) continue; // validation has refused it already
    const problems: Problem[] = [];
    const given = Object.prototype.hasOwnProperty.call(variables, name);
    if (!given || variables[name] === null) {
      const hasDefault = !given && definition.defaultValue !== undefined && valueFromAST(definition.defaultValue, type) !== undefined;
      if (isNonNullType(type) && !hasDefault) problems.push({ path: [], explanation: "Expected value to not be null" });
    } else {
      coerceInputValue(variables[name], type, (path, invalidValue, error) => problems.push(problemOf(schema, path, error, invalidValue)));
    }
    if (problems.length === 0) continue;
    // An object's own unknown or missing fields before those of the objects inside it, as graphql-ruby lists them.
    problems.sort((a, b) => a.path.length - b.path.length);
    const located = problems.filter((problem) => problem.path.length > 0);
    const listed = located.map((problem) => `${problem.path.join(".")} (${problem.explanation})`).join(", ");
    const location = definition.loc ? getLocation(definition.loc.source, definition.loc.start) : undefined;
    errors.push({
      message: `Variable $${name} of type ${print(definition.type)} was provided invalid value${listed ? ` for ${listed}` : ""}`,
      locations: location ? [location] : undefined,
      extensions: { code: "INVALID_VARIABLE", value: given ? variables[name] : null, problems },
    });
  }
  return errors;
}
