import { Alert } from "../alert.tsx";
import type { FormErrorsState } from "./use-form-errors.ts";

/** The non-field error of a form; it stays until dismissed or the next submission. */
export function FormAlert({ state }: { state: FormErrorsState }) {
  if (!state.errors.general) return null;
  return <Alert key={state.attempt} type="error" message={state.errors.general} timeout={0} />;
}
