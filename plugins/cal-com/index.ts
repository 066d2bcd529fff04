import { definePlugin, field } from '#sdk/plugin'

export const CAL_DEFAULT_BASE_URL = 'https://app.cal.com'
/** The layouts the booking widget offers, and Cal.com's names for them. */
export const CAL_LAYOUTS = { Month: 'month_view', Weekly: 'week_view', Columns: 'column_view' }

/**
 * Calendar booking (Cal.com): shows a Cal.com booking page inside the chat, prefilled
 * with what the bot knows, and waits until the visitor books; the booked date goes in a
 * variable and the chat goes on. The widget runs in the visitor's browser (a `calBooking`
 * client-side action the chat page draws).
 */
export default definePlugin({
  id: 'cal-com',
  name: 'Cal.com',
  fullName: 'Cal.com booking',
  tags: ['calendar', 'booking', 'meeting', 'schedule'],
  description: 'Let the visitor book a meeting in the chat',
  category: 'integration',
  scope: 'user',
  icon: 'calendar-check',
  version: 1,
  docsUrl: 'https://cal.com/docs/core-features/embed/set-up-your-embed',
  serves: ['bot'],
  options: {
    baseUrl: field.string({
      label: 'Cal.com URL',
      defaultValue: CAL_DEFAULT_BASE_URL,
      helperText: 'Your own address if you host Cal.com yourself.',
    }),
    link: field.string({
      label: 'Event link',
      placeholder: 'e.g. ada/30min',
      helperText: 'The end of your booking page address: cal.com/ada/30min gives ada/30min.',
      allowVariables: true,
      required: true,
    }),
    layout: field.enum({
      label: 'Layout',
      options: Object.keys(CAL_LAYOUTS) as (keyof typeof CAL_LAYOUTS)[],
      defaultValue: 'Month',
    }),
    name: field.string({ label: 'Name', allowVariables: true }),
    email: field.string({ label: 'E-mail', allowVariables: true }),
    additionalNotes: field.string({ label: 'Additional notes', allowVariables: true }),
    phone: field.string({ label: 'Phone number', allowVariables: true }),
    saveBookedDateInVariableId: field.variable({
      label: 'Save the booked date in',
      writes: true,
    }),
  },
})
