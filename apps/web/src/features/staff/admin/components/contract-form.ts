import { schemaResolver, type FormErrors } from '@mantine/form';

type Schema = Parameters<typeof schemaResolver>[0];

/**
 * `validate` of an admin form (`useForm` of @mantine/form): the form's values, turned into the request's
 * body by `toBody`, are checked with the contract's zod schema, the same one the server checks them
 * with; a field the schema refuses gets `say(field, body)`, the desk's words for it (zod's own are
 * English), which may tell a missing value (`isBlank`) from a wrong one.
 * `shown` names the fields the form draws an error on: a refusal elsewhere (a rule across fields) is
 * left to the server, whose answer the form shows, rather than blocking a save without a word.
 */
export function validateWith<V>(
  schema: Schema,
  toBody: (values: V) => unknown,
  say: (field: string, body: unknown) => string,
  shown: RegExp = /^[^.]+$/,
) {
  const resolve = schemaResolver(schema, { sync: true });
  return (values: V): FormErrors => {
    const body = toBody(values);
    return Object.fromEntries(
      Object.keys(resolve(body))
        .filter((field) => shown.test(field))
        .map((field) => [field, say(field, body)]),
    );
  };
}

/** Whether the value at a dotted `path` of `body` is missing: null, undefined or blank text. */
export function isBlank(body: unknown, path: string): boolean {
  const value = path
    .split('.')
    .reduce<unknown>(
      (at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined),
      body,
    );
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** `onSave` of an EditorCard: the form's values go to `save` once they validate (the errors show otherwise). */
export const saveWhenValid =
  <V>(form: { validate: () => { hasErrors: boolean }; getValues: () => V }, save: (values: V) => void) =>
  () => {
    if (!form.validate().hasErrors) save(form.getValues());
  };

/** The desk's words for a refused field: "required" where it is blank, "check the fields" otherwise. */
export const requiredOrInvalid =
  (t: (key: 'auth.requiredField' | 'newTicket.invalid') => string) => (field: string, body: unknown) =>
    isBlank(body, field) ? t('auth.requiredField') : t('newTicket.invalid');

/**
 * Errors of a body's fields moved to the form's fields that hold them (`fieldOf`: the form's field of
 * a body path, undefined: none shows it), where the form's shape is not the body's; the first error of
 * a field is kept.
 */
export const atFormFields = (
  errors: FormErrors,
  fieldOf: (path: string) => string | undefined,
): FormErrors => {
  const moved: FormErrors = {};
  for (const [path, error] of Object.entries(errors)) {
    const field = fieldOf(path);
    if (field !== undefined && !(field in moved)) moved[field] = error;
  }
  return moved;
};
