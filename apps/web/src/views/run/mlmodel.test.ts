import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { describeMlModel, exampleTable, signatureColumns } from "./mlmodel";

const MLMODEL = `artifact_path: model
flavors:
  python_function:
    env:
      conda: conda.yaml
    loader_module: mlflow.sklearn
    python_version: 3.11.9
  sklearn:
    pickled_model: model.pkl
    sklearn_version: 1.5.2
mlflow_version: 2.17.0
model_uuid: 7d1c
run_id: abc
saved_input_example_info:
  artifact_path: input_example.json
  pandas_orient: split
  type: dataframe
signature:
  inputs: '[{"type": "double", "name": "amount", "required": true}, {"type": "string", "name": "country", "required": false}]'
  outputs: '[{"type": "tensor", "tensor-spec": {"dtype": "float64", "shape": [-1]}}]'
  params: null
utc_time_created: '2026-11-20 09:00:00.000000'
`;

describe("MLmodel view", () => {
  it("reads flavours, the signature (JSON inside YAML) and the input example's file", () => {
    const model = describeMlModel(parse(MLMODEL));
    expect(model.flavors.map((f) => f.name)).toEqual(["python_function", "sklearn"]);
    expect(model.flavors[0]?.details).toContainEqual(["loader_module", "mlflow.sklearn"]);
    expect(model.flavors[0]?.details).toContainEqual(["env", '{"conda":"conda.yaml"}']);
    expect(model.inputs).toEqual([
      { name: "amount", type: "double", detail: "required" },
      { name: "country", type: "string", detail: "optional" },
    ]);
    expect(model.outputs).toEqual([{ name: "", type: "tensor of float64", detail: "shape [-1]" }]);
    expect(model.params).toBeUndefined();
    expect(model.inputExample).toEqual({ path: "input_example.json", type: "dataframe" });
    expect(model.facts).toContainEqual(["mlflow_version", "2.17.0"]);
  });

  it("refuses a document that is not a mapping, and tolerates a model without signature", () => {
    expect(() => describeMlModel("just text")).toThrow(/not a YAML mapping/);
    expect(describeMlModel({ flavors: { onnx: {} } })).toMatchObject({ inputs: undefined, outputs: undefined });
    expect(signatureColumns("not json")).toEqual([{ name: "", type: "not json", detail: "" }]);
  });

  it("turns a split-oriented example into a table", () => {
    expect(exampleTable({ columns: ["a", "b"], data: [[1, "x"]] })).toEqual({
      columns: ["a", "b"],
      rows: [["1", "x"]],
    });
    expect(exampleTable({ dataframe_split: { columns: ["a"], data: [[2]] } })).toEqual({
      columns: ["a"],
      rows: [["2"]],
    });
    expect(exampleTable([1, 2])).toBeUndefined();
  });
});
