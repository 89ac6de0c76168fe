// What an MLmodel file (MLflow's model descriptor, YAML) says, in the shape the model view shows:
// flavours with their details, the signature's inputs and outputs, the input example's file.

export interface SignatureColumn {
  name: string;
  type: string;
  /** "required", "optional", or a tensor's shape. */
  detail: string;
}

export interface MlModel {
  flavors: Array<{ name: string; details: Array<[string, string]> }>;
  inputs: SignatureColumn[] | undefined;
  outputs: SignatureColumn[] | undefined;
  params: SignatureColumn[] | undefined;
  /** Path of the input example, relative to the MLmodel file's folder. */
  inputExample: { path: string; type: string } | undefined;
  /** Top-level facts: run id, model UUID, creation time, MLflow version, ... */
  facts: Array<[string, string]>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string =>
  typeof value === "string" ? value : value === null || value === undefined ? "" : JSON.stringify(value);

/** A signature part: MLflow stores it as a JSON string inside the YAML (older files: as YAML). */
export function signatureColumns(value: unknown): SignatureColumn[] | undefined {
  if (value === undefined || value === null) return undefined;
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return [{ name: "", type: value, detail: "" }];
    }
  }
  if (!Array.isArray(parsed)) return undefined;
  return parsed.filter(isRecord).map((column) => {
    const tensor = isRecord(column["tensor-spec"]) ? column["tensor-spec"] : undefined;
    const type = tensor ? `tensor of ${text(tensor.dtype)}` : text(column.type);
    const detail = tensor
      ? `shape ${text(tensor.shape)}`
      : "default" in column
        ? `default ${text(column.default)}`
        : column.required === false
          ? "optional"
          : "required";
    return { name: text(column.name), type, detail };
  });
}

const FACTS = [
  "run_id",
  "model_uuid",
  "model_id",
  "artifact_path",
  "utc_time_created",
  "mlflow_version",
  "model_size_bytes",
];

/** The model view of a parsed MLmodel document; throws when it is not a mapping. */
export function describeMlModel(doc: unknown): MlModel {
  if (!isRecord(doc)) throw new Error("The MLmodel file is not a YAML mapping");
  const flavors = isRecord(doc.flavors)
    ? Object.entries(doc.flavors).map(([name, details]) => ({
        name,
        details: isRecord(details) ? Object.entries(details).map(([k, v]): [string, string] => [k, text(v)]) : [],
      }))
    : [];
  const signature = isRecord(doc.signature) ? doc.signature : {};
  const example = isRecord(doc.saved_input_example_info) ? doc.saved_input_example_info : undefined;
  return {
    flavors,
    inputs: signatureColumns(signature.inputs),
    outputs: signatureColumns(signature.outputs),
    params: signatureColumns(signature.params),
    inputExample:
      example && typeof example.artifact_path === "string"
        ? { path: example.artifact_path, type: text(example.type) }
        : undefined,
    facts: FACTS.filter((key) => doc[key] !== undefined).map((key) => [key, text(doc[key])]),
  };
}

/** An input example as a table when it is a pandas "split" frame ({columns, data}); undefined otherwise. */
export function exampleTable(example: unknown): { columns: string[]; rows: string[][] } | undefined {
  const frame = isRecord(example) && isRecord(example.dataframe_split) ? example.dataframe_split : example;
  if (!isRecord(frame) || !Array.isArray(frame.columns) || !Array.isArray(frame.data)) return undefined;
  return {
    columns: frame.columns.map(text),
    rows: frame.data.filter(Array.isArray).map((row: unknown[]) => row.map(text)),
  };
}
