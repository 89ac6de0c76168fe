import { useState } from "react";
import { useAsync } from "../../api/use-async";
import { CellTable } from "../../components/cell-table";
import { ErrorBox } from "../../components/error-box";
import { KeyValueTable } from "../../components/key-value-table";
import { TableHead } from "../../components/table-head";
import { fetchArtifact } from "./artifact-fetch";
import { describeMlModel, exampleTable, type MlModel, type SignatureColumn } from "./mlmodel";

function SignatureTable({ caption, columns }: { caption: string; columns: SignatureColumn[] | undefined }) {
  if (!columns) return null;
  return (
    <div className="table-scroll">
      <table className="grid" aria-label={`Signature ${caption.toLowerCase()}`}>
        <caption>{caption}</caption>
        <TableHead headings={["Name", "Type", "Details"]} />
        <tbody>
          {columns.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a signature column is its position (tensors have no name)
            <tr key={i}>
              <td>{c.name || <span className="muted">(unnamed)</span>}</td>
              <td>{c.type}</td>
              <td className="muted">{c.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function InputExample({ url }: { url: string }) {
  const example = useAsync(async () => JSON.parse(await (await fetchArtifact(url)).text()) as unknown, [url]);
  if (example.error) return <ErrorBox error={example.error} title="Input example" />;
  if (example.data === undefined) return <p className="muted">Loading the input example…</p>;
  const table = exampleTable(example.data);
  if (!table) return <pre className="pre">{JSON.stringify(example.data, null, 2)}</pre>;
  return (
    <div className="table-scroll">
      <CellTable columns={table.columns} rows={table.rows} label="Input example" />
    </div>
  );
}

/**
 * An MLmodel file as a model: flavours, signature tables and the input example, parsed with the
 * `yaml` package (loaded with this view); "Raw text" shows the file as it is.
 */
export function MlModelView({ text, fileUrl }: { text: string; fileUrl: (relative: string) => string }) {
  const [raw, setRaw] = useState(false);
  const model = useAsync(async (): Promise<MlModel> => {
    const { parse } = await import("yaml");
    return describeMlModel(parse(text));
  }, [text]);
  return (
    <div className="mlmodel">
      <div className="toolbar" role="group" aria-label="MLmodel display">
        <button type="button" aria-pressed={!raw} onClick={() => setRaw(false)}>
          Model view
        </button>
        <button type="button" aria-pressed={raw} onClick={() => setRaw(true)}>
          Raw text
        </button>
      </div>
      {raw || model.error ? (
        <>
          <ErrorBox error={model.error} title="Could not read the MLmodel file" />
          <pre className="pre">{text}</pre>
        </>
      ) : model.data ? (
        <>
          <h3>Flavors</h3>
          {model.data.flavors.map((f) => (
            <KeyValueTable
              key={f.name}
              caption={f.name}
              label={`Flavor ${f.name}`}
              rows={f.details.map(([key, value]) => ({ key, value }))}
            />
          ))}
          <h3>Signature</h3>
          {model.data.inputs || model.data.outputs ? null : <p className="muted">No signature.</p>}
          <SignatureTable caption="Inputs" columns={model.data.inputs} />
          <SignatureTable caption="Outputs" columns={model.data.outputs} />
          <SignatureTable caption="Params" columns={model.data.params} />
          {model.data.inputExample ? (
            <>
              <h3>Input example</h3>
              <InputExample url={fileUrl(model.data.inputExample.path)} />
            </>
          ) : null}
          {model.data.facts.length ? (
            <KeyValueTable
              caption="About"
              label="About the model"
              rows={model.data.facts.map(([key, value]) => ({ key, value }))}
            />
          ) : null}
        </>
      ) : (
        <p className="muted">Reading the model…</p>
      )}
    </div>
  );
}
