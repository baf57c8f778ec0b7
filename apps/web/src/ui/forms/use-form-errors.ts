import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { type FormErrors, readFormErrors } from "../../api/form-errors.ts";

const NO_ERRORS: FormErrors = { fields: {}, general: null };

export interface FormErrorsState {
  errors: FormErrors;
  /** Changes on every submission, so a dismissed general alert shows again for a new failure. */
  attempt: number;
  reset: () => void;
  showError: (error: unknown) => void;
  showGeneral: (message: string) => void;
}

export function useFormErrors(fieldNames: readonly string[]): FormErrorsState {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [attempt, setAttempt] = useState(0);
  const names = fieldNames.join(",");

  const reset = useCallback(() => {
    setErrors(NO_ERRORS);
    setAttempt((value) => value + 1);
  }, []);

  const showError = useCallback(
    (error: unknown) => setErrors(readFormErrors(error, names.split(","), t("errors.server"))),
    [names, t],
  );

  const showGeneral = useCallback((message: string) => setErrors({ fields: {}, general: message }), []);

  return { errors, attempt, reset, showError, showGeneral };
}
