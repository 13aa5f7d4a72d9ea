// Exports no other file uses: `node scripts/unused-exports.mjs` (about two
// minutes: it type-checks the whole project). Each line is file:line, the
// name, and UNUSED (nothing uses it: delete it) or used-in-file (only its own
// file does: it need not be exported). Conservative: a module loaded by
// `import()` or `typeof import()` counts as wholly used, and the exports
// Remix reads from routes, root and entry files are left out. Tests count as
// users. Not part of any check; a help for keeping exports honest (D99).
import path from "node:path";
import ts from "typescript";

const root = process.cwd();
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const checker = program.getTypeChecker();
const ours = program
  .getSourceFiles()
  .filter((file) => file.fileName.startsWith(root) && !file.fileName.includes("node_modules") && !file.fileName.includes("/generated/"));

const REMIX_EXPORTS = new Set([
  "loader",
  "action",
  "default",
  "meta",
  "links",
  "handle",
  "ErrorBoundary",
  "headers",
  "shouldRevalidate",
  "clientLoader",
  "clientAction",
  "HydrateFallback",
  "Layout",
  "handleError",
  "streamTimeout",
]);
const usedFrom = new Map(); // symbol → files that name it
const wholeModules = new Set();
const exportSymbol = (symbol) => checker.getExportSymbolOfSymbol(symbol);
const moduleFile = (specifier) => checker.getSymbolAtLocation(specifier)?.declarations?.[0]?.getSourceFile().fileName;
const isDeclarationName = (node) =>
  node.parent?.name === node &&
  (ts.isFunctionDeclaration(node.parent) ||
    ts.isClassDeclaration(node.parent) ||
    ts.isInterfaceDeclaration(node.parent) ||
    ts.isTypeAliasDeclaration(node.parent) ||
    ts.isEnumDeclaration(node.parent) ||
    ts.isVariableDeclaration(node.parent));

for (const file of ours) {
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      wholeModules.add(moduleFile(node.arguments[0]));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      wholeModules.add(moduleFile(node.argument.literal));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.exportClause) {
      wholeModules.add(moduleFile(node.moduleSpecifier));
    } else if (ts.isIdentifier(node) && !isDeclarationName(node)) {
      const symbol = checker.getSymbolAtLocation(node);
      const named = symbol ? [symbol] : [];
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) {
        try {
          named.push(checker.getImmediateAliasedSymbol(symbol), checker.getAliasedSymbol(symbol));
        } catch {
          // an alias of nothing (a broken import): tsc reports it
        }
      }
      for (const each of named.filter(Boolean)) {
        const key = exportSymbol(each);
        if (!usedFrom.has(key)) usedFrom.set(key, new Set());
        usedFrom.get(key).add(file.fileName);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

for (const file of ours) {
  const relative = path.relative(root, file.fileName);
  // Tests, and the set-up files vitest and Playwright load by name.
  if (
    /\.(test|spec)\.tsx?$/.test(relative) ||
    relative.startsWith("tests/support/vitest-") ||
    relative.startsWith("tests/e2e/") ||
    wholeModules.has(file.fileName)
  )
    continue;
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) continue;
  const remixModule = relative.startsWith("app/routes/") || relative === "app/root.tsx" || relative.startsWith("app/entry.") || relative.endsWith("config.ts");
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    if (remixModule && REMIX_EXPORTS.has(exported.getName())) continue;
    let target = exported;
    if (exported.flags & ts.SymbolFlags.Alias) target = checker.getAliasedSymbol(exported);
    const users = new Set([...(usedFrom.get(exportSymbol(exported)) ?? []), ...(usedFrom.get(exportSymbol(target)) ?? [])]);
    const inFile = users.delete(file.fileName);
    if (users.size) continue;
    const declaration = exported.declarations?.[0];
    const line = declaration ? file.getLineAndCharacterOfPosition(declaration.getStart()).line + 1 : 0;
    console.log(`${relative}:${line}\t${exported.getName()}\t${inFile ? "used-in-file" : "UNUSED"}`);
  }
}
