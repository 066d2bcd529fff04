import { definePlugin, field } from '#sdk/plugin'

/**
 * Google Analytics: sends an event to the Google Analytics (gtag.js) of the page the bot is
 * shown on. A client-side action: the viewer, or the embed script on the host page, calls
 * `gtag('event', action, { event_category, event_label, value, send_to })`, loading gtag.js
 * with the measurement id when the page has none.
 */
export default definePlugin({
  id: 'Google Analytics',
  name: 'Google Analytics',
  fullName: 'Google Analytics event',
  tags: ['analytics', 'tracking', 'google', 'event'],
  description: "Send an event to the page's Google Analytics",
  category: 'integration',
  scope: 'user',
  icon: 'chart-line',
  version: 1,
  docsUrl: 'https://developers.google.com/analytics/devguides/collection/ga4/events',
  serves: ['bot'],
  // gtag.js, loaded when the page has no gtag of its own.
  hostScripts: ['https://www.googletagmanager.com'],
  options: {
    trackingId: field.string({
      label: 'Measurement ID',
      placeholder: 'G-123456789',
      helperText: 'Used to load Google Analytics when the page does not already have it.',
      pattern: '^[A-Za-z]{1,3}-[A-Za-z0-9-]+$',
      patternMessage: 'Measurement ID looks like G-XXXXXXX',
    }),
    action: field.string({
      label: 'Event action',
      placeholder: 'e.g. sign_up',
      allowVariables: true,
      required: true,
    }),
    category: field.string({ label: 'Event category', allowVariables: true }),
    label: field.string({ label: 'Event label', allowVariables: true }),
    value: field.string({
      label: 'Event value',
      placeholder: 'A number, e.g. 42',
      allowVariables: true,
    }),
    sendTo: field.string({
      label: 'Send to',
      helperText: 'Another destination than the measurement ID (a group or tag id).',
      allowVariables: true,
    }),
  },
})
