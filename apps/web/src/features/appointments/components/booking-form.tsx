import { SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  APPOINTMENT_NOTES_MAX,
  APPOINTMENT_REQUIRED_FIELDS,
  APPOINTMENT_TEXT_MAX,
  appointmentEmailPattern,
} from '@sportello/contracts/appointment-codes';

export interface BookingFields {
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  companyName: string;
  notes: string;
}

export const emptyFields: BookingFields = {
  firstName: '',
  lastName: '',
  phone: '',
  email: '',
  companyName: '',
  notes: '',
};

export type FieldErrors = Partial<Record<keyof BookingFields, 'required' | 'invalidEmail'>>;

/** The same rules the server applies: required fields not blank, and an e-mail that looks like one. */
export function validateFields(f: BookingFields): FieldErrors {
  const errors: FieldErrors = {};
  for (const k of APPOINTMENT_REQUIRED_FIELDS) if (f[k].trim() === '') errors[k] = 'required';
  if (!errors.email && !appointmentEmailPattern.test(f.email.trim())) errors.email = 'invalidEmail';
  return errors;
}

export function BookingForm({
  fields,
  errors,
  onChange,
}: {
  fields: BookingFields;
  errors: FieldErrors;
  onChange: (f: BookingFields) => void;
}) {
  const { t } = useTranslation();
  const message = (k: keyof BookingFields) =>
    errors[k] === 'required'
      ? t('appointments.fieldRequired')
      : errors[k] === 'invalidEmail'
        ? t('appointments.invalidEmail')
        : undefined;
  const text = (k: keyof BookingFields, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={label}
      value={fields[k]}
      onChange={(e) => onChange({ ...fields, [k]: e.currentTarget.value })}
      withAsterisk={(APPOINTMENT_REQUIRED_FIELDS as readonly string[]).includes(k)}
      required={(APPOINTMENT_REQUIRED_FIELDS as readonly string[]).includes(k)}
      error={message(k)}
      maxLength={APPOINTMENT_TEXT_MAX}
      {...extra}
    />
  );
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('appointments.yourDetails')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {text('firstName', t('appointments.firstName'), { autoComplete: 'given-name' })}
        {text('lastName', t('appointments.lastName'), { autoComplete: 'family-name' })}
        {text('phone', t('appointments.phone'), { autoComplete: 'tel', type: 'tel', maxLength: 40 })}
        {text('email', t('appointments.email'), {
          autoComplete: 'email',
          type: 'email',
          maxLength: 254,
          description: t('appointments.emailHint'),
        })}
      </SimpleGrid>
      {text('companyName', t('appointments.companyName'), { autoComplete: 'organization' })}
      <Textarea
        label={t('appointments.notes')}
        value={fields.notes}
        onChange={(e) => onChange({ ...fields, notes: e.currentTarget.value })}
        rows={3}
        resize="vertical"
        maxLength={APPOINTMENT_NOTES_MAX}
      />
    </Stack>
  );
}
