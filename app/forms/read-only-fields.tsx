// A form's read-only fields: each a disabled TextField showing its value as
// text, with the id field-<name>. An array of elements, not a component, so
// that FormLayout spaces them as its own items.
import { TextField } from "@shopify/polaris";

export function readOnlyFields(names: readonly string[], values: Record<string, unknown>, label: (name: string) => string) {
  return names.map((name) => (
    <TextField key={name} id={`field-${name}`} label={label(name)} autoComplete="off" value={String(values[name] ?? "")} readOnly disabled />
  ));
}
