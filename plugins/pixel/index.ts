import { definePlugin, field } from '#sdk/plugin'

/** The standard events of the tracking pixel, then Custom. */
export const PIXEL_STANDARD_EVENTS = [
  'Lead',
  'Contact',
  'CompleteRegistration',
  'Schedule',
  'SubmitApplication',
  'ViewContent',
  'AddPaymentInfo',
  'AddToCart',
  'AddToWishlist',
  'CustomizeProduct',
  'Donate',
  'FindLocation',
  'InitiateCheckout',
  'Purchase',
  'Search',
  'StartTrial',
  'Subscribe',
] as const

/**
 * Tracking pixel (Meta pixel): tracks a standard or custom event with its parameters on the
 * page the bot is shown on. A client-side action: the viewer, or the embed script on the
 * host page, calls `fbq('track' | 'trackCustom', event, params)`, loading the pixel with
 * its id when the page has none.
 */
export default definePlugin({
  id: 'Pixel',
  name: 'Pixel',
  fullName: 'Meta (Facebook) Pixel',
  tags: ['analytics', 'tracking', 'facebook', 'meta', 'ads'],
  description: "Track a tracking pixel event on the visitor's page",
  category: 'integration',
  scope: 'user',
  icon: 'crosshair',
  version: 1,
  docsUrl: 'https://developers.facebook.com/docs/meta-pixel/reference',
  serves: ['bot'],
  // fbevents.js, loaded when the page has no fbq of its own.
  hostScripts: ['https://connect.facebook.net'],
  options: {
    pixelId: field.string({
      label: 'Pixel ID',
      placeholder: 'e.g. 123456789012345',
      helperText: 'Used to load the pixel when the page does not already have it.',
      pattern: '^\\d{5,20}$',
      patternMessage: 'Pixel ID is a number',
    }),
    eventType: field.enum({
      label: 'Event',
      options: [...PIXEL_STANDARD_EVENTS, 'Custom'],
      defaultValue: 'Lead',
    }),
    name: field.string({
      label: 'Event name',
      allowVariables: true,
      required: true,
      showIf: { field: 'eventType', equals: 'Custom' },
    }),
    params: field.keyValue({
      label: 'Parameters',
      keyLabel: 'Name',
      valueLabel: 'Value',
      allowVariables: true,
      helperText: 'e.g. value and currency for a Purchase.',
    }),
  },
})
