import { schemaResolver, type FormErrors } from '@mantine/form';

type Schema = Parameters<typeof schemaResolver>[0];

/**
 * `validate` of an admin form (`useForm` of @mantine/form): the form's values, turned into the request's
 * body by `toBody`, are checked with the contract's zod schema, the same one the server checks them
 * with; a field the schema refuses gets `say(field)`, the desk's words for it (zod's own are English).
 * `shown` names the fields the form draws an error on: a refusal elsewhere (a rule across fields) is
 * left to the server, whose answer the form shows, rather than blocking a save without a word.
 */
export function validateWith<V>(
  schema: Schema,
  toBody: (values: V) => unknown,
  say: (field: string) => string,
  shown: RegExp = /^[^.]+$/,
) {
  const resolve = schemaResolver(schema, { sync: true });
  return (values: V): FormErrors =>
    Object.fromEntries(
      Object.keys(resolve(toBody(values)))
        .filter((field) => shown.test(field))
        .map((field) => [field, say(field)]),
    );
}

/** `onSave` of an EditorCard: the form's values go to `save` once they validate (the errors show otherwise). */
export const saveWhenValid =
  <V>(form: { validate: () => { hasErrors: boolean }; getValues: () => V }, save: (values: V) => void) =>
  () => {
    if (!form.validate().hasErrors) save(form.getValues());
  };
