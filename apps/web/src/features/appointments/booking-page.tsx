import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCalendarCheck, IconCalendarOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { AppointmentBooking, AppointmentLink, AppointmentSlot } from '@sportello/contracts';
// The codes and limits without the schemas: the booking page loads no zod.
import { APPOINTMENT_DURATION_STEP, appointmentErrorCodes } from '@sportello/contracts/appointment-codes';
import { isLanguage } from '../../i18n';
import { ApiRequestError } from '../../lib/api-client';
import { useFirstAnswerTimeSliced } from '../../lib/time-sliced';
import { setDisplayTimeZone } from '../../lib/time-zone';
import { ListError } from '../../ui/list-states';
import { PublicFrame, PublicNotFound, usePublicPortal } from '../../ui/public-frame';
import { useAppointmentLink } from './api/appointment-link';
import { useBookAppointment } from './api/book-appointment';
import { SummaryList } from '../../ui/summary-list';
import { durationText, useWhenText } from './components/appointment-summary';
import {
  BookingForm,
  emptyFields,
  validateFields,
  type BookingFields,
  type FieldErrors,
} from './components/booking-form';
import { SlotNotice, SlotPicker } from './components/slot-picker';
import { usePageTitle } from '../../ui/page-title';

/** The hours offered: up to 8, or more when the link's default is longer. */
const MAX_HOURS = 8;

/**
 * `/appointments/{company}/{eventkey}` (SPEC A2), open without sign-in: choose a duration, a day with
 * free slots and a time (in the portal's zone, named on the page), fill in who you are, check the
 * summary, confirm.
 */
export default function BookingPage() {
  const { company = '', eventkey = '' } = useParams();
  const portal = usePublicPortal(company);
  const { t } = useTranslation();
  return (
    <PublicFrame portal={portal}>
      {company && eventkey ? (
        <BookingContent company={company} eventKey={eventkey} />
      ) : (
        <PublicNotFound
          title={t('appointments.notFoundTitle')}
          text={t('appointments.notFoundText')}
          icon={<IconCalendarOff size={48} aria-hidden stroke={1.5} />}
        />
      )}
    </PublicFrame>
  );
}

function BookingContent({ company, eventKey }: { company: string; eventKey: string }) {
  const { t } = useTranslation();
  // Its first answer drawn in a time-sliced render (lib/time-sliced); on a first load asked for by
  // app/early-data.ts.
  const link = useFirstAnswerTimeSliced(useAppointmentLink(company, eventKey));
  const timeZone = link.data?.timeZone;
  useEffect(() => {
    if (timeZone) setDisplayTimeZone(timeZone);
  }, [timeZone]);
  usePageTitle(
    link.data ? `${link.data.title} · ${t('appointments.pageTitle')}` : t('appointments.pageTitle'),
  );

  if (link.isPending)
    return (
      <Stack gap="md" role="status" aria-label={t('common.loading')}>
        <Skeleton height={32} width="50%" />
        <Skeleton height={320} />
      </Stack>
    );
  if (link.isError) {
    if (link.error instanceof ApiRequestError && link.error.status === 404)
      return (
        <PublicNotFound
          title={t('appointments.notFoundTitle')}
          text={t('appointments.notFoundText')}
          icon={<IconCalendarOff size={48} aria-hidden stroke={1.5} />}
        />
      );
    return <ListError onRetry={() => void link.refetch()} />;
  }
  return <Booking company={company} eventKey={eventKey} link={link.data} />;
}

type Step = 'choose' | 'confirm' | 'done';

function Booking({ company, eventKey, link }: { company: string; eventKey: string; link: AppointmentLink }) {
  const { t, i18n } = useTranslation();
  const whenText = useWhenText();
  const [step, setStep] = useState<Step>('choose');
  const [duration, setDuration] = useState(link.defaultDurationMinutes);
  const [day, setDay] = useState<string | null>(null);
  const [slot, setSlot] = useState<AppointmentSlot | null>(null);
  const [fields, setFields] = useState<BookingFields>(emptyFields);
  // Errors show after the first Continue and then follow the fields as they are typed.
  const [hasTriedContinue, setHasTriedContinue] = useState(false);
  const [serverAlert, setServerAlert] = useState<string | null>(null);
  const [slotAlert, setSlotAlert] = useState<string | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [booking, setBooking] = useState<AppointmentBooking | null>(null);
  const book = useBookAppointment(company, eventKey);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const isFirstRender = useRef(true);

  // Each step change moves focus to that step's heading, so a screen reader hears where it is.
  useEffect(() => {
    if (isFirstRender.current) {
      isFirstRender.current = false;
      return;
    }
    stepHeading.current?.focus();
  }, [step]);

  const hours = Math.floor(duration / 60);
  const minutes = duration % 60;
  const setDurationParts = (h: number, m: number) => {
    setDuration(h * 60 + m);
    setSlot(null);
  };

  const errors: FieldErrors = hasTriedContinue ? validateFields(fields) : {};
  const isMissing = Object.values(errors).includes('required') || (hasTriedContinue && !slot);
  const formAlert = isMissing
    ? [t('appointments.fillRequired'), slot ? '' : t('appointments.chooseSlot')].filter(Boolean).join('. ')
    : errors.email
      ? t('appointments.invalidEmail')
      : serverAlert;

  const next = () => {
    setHasTriedContinue(true);
    setServerAlert(null);
    const found = validateFields(fields);
    if (Object.keys(found).length > 0 || !slot) return;
    setSubmitError(null);
    setStep('confirm');
  };

  const confirm = async () => {
    if (!slot) return;
    setSubmitError(null);
    try {
      const answer = await book.mutateAsync({
        start: slot.start,
        durationMinutes: duration,
        ...trimmed(fields),
        // The confirmation e-mail is written in the language of this page.
        ...(isLanguage(i18n.language) ? { language: i18n.language } : {}),
      });
      setBooking(answer);
      setStep('done');
    } catch (err) {
      const code = err instanceof ApiRequestError ? err.code : '';
      if (code === appointmentErrorCodes.slotTaken || code === appointmentErrorCodes.slotNotOffered) {
        setSlot(null);
        // The details were fine; only a new time is needed, which the notice above the calendar says.
        setHasTriedContinue(false);
        setSlotAlert(
          code === appointmentErrorCodes.slotTaken ? t('appointments.slotTaken') : t('appointments.slotGone'),
        );
        setStep('choose');
      } else if (
        code === appointmentErrorCodes.fieldsRequired ||
        code === appointmentErrorCodes.invalidEmail ||
        code === appointmentErrorCodes.invalidName
      ) {
        setServerAlert(
          code === appointmentErrorCodes.invalidEmail
            ? t('appointments.invalidEmail')
            : code === appointmentErrorCodes.invalidName
              ? t('appointments.invalidName')
              : t('appointments.fillRequired'),
        );
        setStep('choose');
      } else if (err instanceof ApiRequestError && err.status === 429) {
        setSubmitError(t('appointments.tooMany'));
      } else {
        setSubmitError(t('appointments.createError'));
      }
    }
  };

  const summaryRows = (s: { start: string; end: string }) => [
    { label: t('appointments.when'), value: whenText(s.start, s.end) },
    { label: t('appointments.timeZone'), value: link.timeZone },
    { label: t('appointments.duration'), value: durationText(t, duration) },
    { label: t('appointments.with'), value: link.agentName },
    { label: t('appointments.name'), value: `${fields.firstName.trim()} ${fields.lastName.trim()}` },
    { label: t('appointments.phone'), value: fields.phone.trim() },
    { label: t('appointments.email'), value: fields.email.trim() },
    ...(fields.companyName.trim()
      ? [{ label: t('appointments.companyName'), value: fields.companyName.trim() }]
      : []),
    ...(fields.notes.trim() ? [{ label: t('appointments.notes'), value: fields.notes.trim() }] : []),
  ];

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {link.title}
        </Title>
        <Text c="dimmed">{t('appointments.withAgent', { name: link.agentName })}</Text>
      </div>

      {step === 'choose' && (
        <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
          <Stack gap="lg">
            <Title order={2} size="h3" ref={stepHeading} tabIndex={-1} style={{ outline: 'none' }}>
              {t('appointments.pageTitle')}
            </Title>
            <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
              <Text component="legend" fw={600} size="sm" mb={4}>
                {t('appointments.duration')}
              </Text>
              <Group gap="sm">
                <NativeSelect
                  label={t('appointments.hours')}
                  value={String(hours)}
                  onChange={(e) => setDurationParts(Number(e.currentTarget.value), minutes)}
                  data={Array.from(
                    { length: Math.max(MAX_HOURS, Math.ceil(link.defaultDurationMinutes / 60)) + 1 },
                    (_, h) => String(h),
                  )}
                  w={110}
                />
                <NativeSelect
                  label={t('appointments.minutes')}
                  value={String(minutes)}
                  onChange={(e) => setDurationParts(hours, Number(e.currentTarget.value))}
                  data={minuteOptions(link.defaultDurationMinutes)}
                  w={110}
                />
              </Group>
            </fieldset>
            {slotAlert && <SlotNotice text={slotAlert} />}
            {duration > 0 && (
              <SlotPicker
                company={company}
                eventKey={eventKey}
                link={link}
                duration={duration}
                day={day}
                slot={slot}
                onDayChange={(d) => {
                  setDay(d);
                  setSlotAlert(null);
                }}
                onSlotChange={setSlot}
              />
            )}
            <BookingForm fields={fields} errors={errors} onChange={setFields} />
            {formAlert && (
              <Alert color="red" variant="light" role="alert">
                {formAlert}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button onClick={next} disabled={duration <= 0}>
                {t('appointments.continue')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}

      {step === 'confirm' && slot && (
        <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" maw={720}>
          <Stack gap="md">
            <Title order={2} size="h3" ref={stepHeading} tabIndex={-1} style={{ outline: 'none' }}>
              {t('appointments.confirmTitle')}
            </Title>
            <SummaryList rows={summaryRows(slot)} keepLineBreaks />
            {submitError && (
              <Alert color="red" variant="light" role="alert">
                {submitError}
              </Alert>
            )}
            <Group justify="space-between">
              <Button variant="default" onClick={() => setStep('choose')} disabled={book.isPending}>
                {t('appointments.back')}
              </Button>
              <Button onClick={() => void confirm()} loading={book.isPending}>
                {t('appointments.confirm')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}

      {step === 'done' && booking && (
        <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" maw={720}>
          <Stack gap="md">
            <Group gap="sm" wrap="nowrap" role="status">
              <IconCalendarCheck size={32} aria-hidden color="var(--mantine-color-green-8)" />
              <Title order={2} size="h3" ref={stepHeading} tabIndex={-1} style={{ outline: 'none' }}>
                {t('appointments.confirmed')}
              </Title>
            </Group>
            <Text>{t('appointments.confirmationSent', { email: fields.email.trim() })}</Text>
            <SummaryList rows={summaryRows(booking)} keepLineBreaks />
            <Anchor component={Link} to={pathOf(booking.cancellationUrl)}>
              {t('appointments.cancelLink')}
            </Anchor>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

/** 0, 5 … 55, plus the minutes of the link's default when it is off that grid (the server accepts it). */
function minuteOptions(defaultMinutes: number): string[] {
  const steps = Array.from(
    { length: 60 / APPOINTMENT_DURATION_STEP },
    (_, i) => i * APPOINTMENT_DURATION_STEP,
  );
  return [...new Set([...steps, defaultMinutes % 60])].sort((a, b) => a - b).map(String);
}

function trimmed(f: BookingFields): BookingFields {
  return {
    firstName: f.firstName.trim(),
    lastName: f.lastName.trim(),
    phone: f.phone.trim(),
    email: f.email.trim(),
    companyName: f.companyName.trim(),
    notes: f.notes.trim(),
  };
}

/** The cancellation page on this origin, whatever PUBLIC_URL the server put in the link. */
function pathOf(url: string): string {
  try {
    return new URL(url, window.location.origin).pathname;
  } catch {
    return url;
  }
}
