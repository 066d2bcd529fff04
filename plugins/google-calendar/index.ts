import { definePlugin, field } from '#sdk/plugin'
import { googleOAuth, googleOAuthCredentials } from '#sdk/google_fields'

export const CALENDAR_DEFAULT_BASE_URL = 'https://www.googleapis.com'
export const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar.events'
export const CALENDAR_MAX_RESULTS = 250
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$'

function eventFields(required: boolean) {
  return {
    summary: field.string({ label: 'Title', allowVariables: true, required }),
    start: field.string({
      label: 'Start',
      allowVariables: true,
      required,
      placeholder: '2026-03-02T10:00:00+01:00',
      helperText: 'A date and time (ISO 8601), or a date (2026-03-02) for an all-day event.',
    }),
    end: field.string({
      label: 'End',
      allowVariables: true,
      required,
      placeholder: '2026-03-02T11:00:00+01:00',
    }),
    timeZone: field.string({
      label: 'Time zone',
      allowVariables: true,
      placeholder: 'Europe/Paris',
      helperText: "Empty: the calendar's.",
    }),
    description: field.string({ label: 'Description', allowVariables: true, multiline: true }),
    location: field.string({ label: 'Location', allowVariables: true }),
    attendees: field.list(
      {
        email: field.string({
          label: 'E-mail',
          allowVariables: true,
          required: true,
          pattern: EMAIL_PATTERN,
          patternMessage: 'Enter a valid e-mail address',
        }),
      },
      { label: 'Attendees', itemLabel: 'attendee' }
    ),
    sendUpdates: field.enum({
      label: 'Notify attendees',
      options: [
        { label: 'No one', value: 'none' },
        { label: 'Everyone', value: 'all' },
        { label: 'Guests outside the organisation', value: 'externalOnly' },
      ],
      defaultValue: 'none',
    }),
  }
}

/**
 * Google Calendar in workflows: list the events of a calendar, create, update and delete
 * one. Signs in with the builder's Google account (OAuth, calendar.events scope), Calendar
 * API v3.
 */
export default definePlugin({
  id: 'google-calendar',
  name: 'Google Calendar',
  fullName: 'Google Calendar events',
  tags: ['calendar', 'google', 'meeting', 'schedule'],
  description: 'List, create, update and delete events of a Google calendar',
  category: 'action',
  scope: 'workspace',
  icon: 'calendar',
  version: 1,
  docsUrl: 'https://developers.google.com/calendar/api/v3/reference/events',
  serves: ['workflow'],
  credentials: googleOAuthCredentials(CALENDAR_DEFAULT_BASE_URL),
  oauth: googleOAuth([CALENDAR_SCOPE]),
  options: {
    credentialsId: field.credentials({
      label: 'Google account',
      credentialType: 'google-calendar',
      required: true,
    }),
    calendarId: field.string({
      label: 'Calendar',
      allowVariables: true,
      defaultValue: 'primary',
      helperText: "The calendar's ID (its e-mail-like address); primary: the account's own.",
    }),
  },
  actions: {
    'List events': {
      label: 'List events',
      options: {
        maxResults: field.number({
          label: 'At most',
          min: 1,
          max: CALENDAR_MAX_RESULTS,
          step: 1,
          defaultValue: CALENDAR_MAX_RESULTS,
          allowVariables: true,
        }),
        timeMin: field.string({
          label: 'Ending after',
          allowVariables: true,
          placeholder: '2026-03-01T00:00:00Z',
          helperText: 'Empty: from now.',
        }),
        timeMax: field.string({
          label: 'Starting before',
          allowVariables: true,
          placeholder: '2026-04-01T00:00:00Z',
        }),
        query: field.string({ label: 'Search text', allowVariables: true }),
      },
    },
    'Create event': { label: 'Create event', options: eventFields(true) },
    'Update event': {
      label: 'Update event',
      options: {
        eventId: field.string({ label: 'Event ID', allowVariables: true, required: true }),
        ...eventFields(false),
      },
    },
    'Delete event': {
      label: 'Delete event',
      options: {
        eventId: field.string({ label: 'Event ID', allowVariables: true, required: true }),
      },
    },
  },
})
