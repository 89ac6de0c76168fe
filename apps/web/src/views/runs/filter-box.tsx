// biome-ignore-all lint/a11y/noNoninteractiveElementToInteractiveRole: the suggestions are a combobox's listbox and options
// biome-ignore-all lint/a11y/useFocusableInteractive: the options are not focused; the input keeps focus (aria-activedescendant)
import { useRef, useState, type KeyboardEvent } from "react";
import type { KeyKind } from "./columns";
import { applyCompletion, completeFilter, type Completion } from "./filter-completion";

/** The filter input: search grammar with key completion (arrows + Enter/Tab), applied on Enter. */
export function FilterBox({
  value,
  keys,
  onApply,
}: {
  value: string;
  keys: Record<KeyKind, readonly string[]>;
  onApply: (filter: string) => void;
}) {
  const [text, setText] = useState(value);
  const [completion, setCompletion] = useState<Completion | undefined>();
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  const update = (next: string, cursor: number) => {
    setText(next);
    setCompletion(completeFilter(next, cursor, keys));
    setActive(0);
  };
  const choose = (option: string) => {
    if (!completion) return;
    const next = applyCompletion(text, completion, option);
    setText(next.text);
    setCompletion(undefined);
    requestAnimationFrame(() => input.current?.setSelectionRange(next.cursor, next.cursor));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (completion?.options.length) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const n = completion.options.length;
        setActive((a) => (a + (event.key === "ArrowDown" ? 1 : n - 1)) % n);
        return;
      }
      if (event.key === "Tab" || (event.key === "Enter" && completion)) {
        event.preventDefault();
        choose(completion.options[active]!);
        return;
      }
      if (event.key === "Escape") {
        setCompletion(undefined);
        return;
      }
    }
    if (event.key === "Enter") {
      event.preventDefault();
      onApply(text.trim());
    }
  };
  return (
    <div className="filter-box">
      <input
        ref={input}
        type="text"
        role="combobox"
        aria-label="Filter runs"
        aria-expanded={Boolean(completion)}
        aria-controls="filter-suggestions"
        aria-autocomplete="list"
        placeholder="metrics.accuracy > 0.9 AND params.model = 'cnn'   (Enter to apply)"
        value={text}
        onChange={(e) => update(e.target.value, e.target.selectionStart ?? e.target.value.length)}
        onKeyDown={onKeyDown}
        onBlur={() => setCompletion(undefined)}
        spellCheck={false}
      />
      {completion ? (
        <ul className="suggestions" id="filter-suggestions" role="listbox" aria-label="Key suggestions">
          {completion.options.map((option, i) => (
            <li
              key={option}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(option);
              }}
            >
              {option}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
