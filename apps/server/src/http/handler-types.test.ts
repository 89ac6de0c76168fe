import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

/**
 * Proof that the handlers are typed from the spec: the types of @tracker/types are generated afresh
 * (from the bundled spec/*.yaml, with openapi-typescript as packages/types does) into a temporary
 * folder, once as they are and once with response fields renamed, and the handler files that write
 * those fields are type-checked against them with the server's compiler options. The renamed
 * fields must fail to compile, right where they are written. Only the named files are checked (the
 * checker visits what they use), which keeps this to seconds.
 */

const require = createRequire(import.meta.url);
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DOCUMENTS = ["rev-a", "rev-b", "rev-c", "ext"] as const;
type DocumentName = (typeof DOCUMENTS)[number];

interface SchemaObject {
  properties?: Record<string, unknown>;
  required?: string[];
}

/** A response field renamed in one schema of one document. */
interface Rename {
  document: DocumentName;
  schema: string;
  from: string;
  to: string;
  /** The file (under apps/server/src) that writes the field and must fail to compile. */
  writtenIn: string;
}

const RENAMES: Rename[] = [
  // Top level of an answer, written by a handler.
  {
    document: "rev-c",
    schema: "CreateExperimentResponse",
    from: "experiment_id",
    to: "new_experiment_id",
    writtenIn: "http/handlers/experiments.ts",
  },
  {
    document: "ext",
    schema: "ServerInfo",
    from: "serve_artifacts",
    to: "serves",
    writtenIn: "http/handlers/server-info.ts",
  },
  // A nested schema, written by a shape function.
  { document: "rev-c", schema: "RunInfo", from: "artifact_uri", to: "artifact_url", writtenIn: "http/shapes.ts" },
];

function renameProperty(document: OpenAPI3, { schema, from, to }: Rename): void {
  const target = document.components?.schemas?.[schema] as SchemaObject | undefined;
  if (!target?.properties || !(from in target.properties)) throw new Error(`${schema} has no property ${from}`);
  target.properties[to] = target.properties[from];
  delete target.properties[from];
  target.required = target.required?.map((field) => (field === from ? to : field));
}

const folders: string[] = [];

/** Generates the four modules of @tracker/types into a fresh folder, with the given renames applied. */
async function generateTypes(renames: readonly Rename[]): Promise<Record<DocumentName, string>> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "tracker-handler-types-"));
  folders.push(folder);
  const modules = {} as Record<DocumentName, string>;
  for (const name of DOCUMENTS) {
    const document = JSON.parse(
      fs.readFileSync(require.resolve(`@tracker/spec/dist/${name}.json`), "utf8"),
    ) as OpenAPI3;
    for (const rename of renames) if (rename.document === name) renameProperty(document, rename);
    const ast = await openapiTS(document, { exportType: false, alphabetize: false, defaultNonNullable: false });
    modules[name] = path.join(folder, `${name}.ts`);
    fs.writeFileSync(modules[name], astToString(ast));
  }
  return modules;
}

/** Type errors of the given server files, with @tracker/types resolved to the generated modules. */
function typeErrors(files: readonly string[], modules: Record<DocumentName, string>): ts.Diagnostic[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(serverDir, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("cannot read apps/server/tsconfig.json");
  const paths = Object.fromEntries(DOCUMENTS.map((name) => [`@tracker/types/${name}`, [modules[name]]]));
  const roots = files.map((file) => path.join(serverDir, "src", file));
  const program = ts.createProgram(roots, { ...config.options, paths, noEmit: true });
  const global = program.getOptionsDiagnostics().concat(program.getGlobalDiagnostics());
  return global.concat(roots.flatMap((root) => program.getSemanticDiagnostics(program.getSourceFile(root))));
}

const render = (d: ts.Diagnostic) =>
  `${d.file ? path.relative(serverDir, d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;

describe("handlers typed from the spec", () => {
  afterAll(() => {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });

  const files = [...new Set(RENAMES.map((r) => r.writtenIn))];

  it("compile against the types generated from the spec as it is", { timeout: 120_000 }, async () => {
    expect(typeErrors(files, await generateTypes([]))).toEqual([]);
  });

  it("fail to compile where a response field they write was renamed in the spec", { timeout: 120_000 }, async () => {
    const errors = typeErrors(files, await generateTypes(RENAMES));
    for (const rename of RENAMES) {
      const inFile = errors.filter((d) => d.file?.fileName === path.join(serverDir, "src", rename.writtenIn));
      expect(inFile.map(render).join("\n"), `${rename.document} ${rename.schema}.${rename.from}`).toMatch(
        new RegExp(`\\b${rename.from}\\b|\\b${rename.to}\\b`),
      );
    }
    // Nothing else broke: every error is in a file that writes a renamed field.
    for (const d of errors) expect(files.map((f) => path.join(serverDir, "src", f))).toContain(d.file?.fileName);
  });
});
