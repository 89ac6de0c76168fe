import type { InputHTMLAttributes } from "react";

/**
 * A text box of a form, named for assistive technology by `label` (forms whose boxes show no
 * label of their own), that reports its text to `onValue`.
 */
export function TextInput({
  label,
  onValue,
  ...rest
}: { label: string; value: string; onValue: (value: string) => void } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "aria-label" | "value" | "onChange"
>) {
  return <input aria-label={label} onChange={(e) => onValue(e.target.value)} {...rest} />;
}
