import { definePlugin, field } from '#sdk/plugin'

export const SEGMENT_DEFAULT_HOST = 'https://api.segment.io'

const userId = (required: boolean) =>
  field.string({ label: 'User ID', allowVariables: true, required })
const properties = (label: string) =>
  field.keyValue({ label, keyLabel: 'Name', valueLabel: 'Value', allowVariables: true })

/**
 * Segment: sends Identify, Track, Alias and Page calls with the official Node SDK
 * (`@segment/analytics-node`), flushed before the block ends. Calls missing their required
 * ids, names or the write key are skipped, as Segment would drop them anyway.
 */
export default definePlugin({
  id: 'segment',
  name: 'Segment',
  fullName: 'Segment analytics',
  tags: ['analytics', 'tracking', 'identify', 'event'],
  description: 'Send identify, track, alias and page calls to Segment',
  category: 'integration',
  scope: 'user',
  icon: 'chart-no-axes-combined',
  version: 1,
  docsUrl: 'https://segment.com/docs/connections/sources/catalog/libraries/server/node/',
  serves: ['bot', 'workflow'],
  credentials: {
    apiKey: field.string({
      label: 'Write key',
      secret: true,
      required: true,
      helperText: 'In Segment: Connections > Sources > your Node.js source > Settings > API keys.',
    }),
    host: field.string({
      label: 'API host',
      defaultValue: SEGMENT_DEFAULT_HOST,
      helperText: 'For a workspace in the EU region: https://events.eu1.segmentapis.com',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'segment',
      required: true,
    }),
  },
  actions: {
    Identify: {
      label: 'Identify',
      options: {
        userId: userId(true),
        email: field.string({ label: 'E-mail', allowVariables: true }),
        traits: properties('Traits'),
      },
    },
    Track: {
      label: 'Track',
      options: {
        eventName: field.string({ label: 'Event name', allowVariables: true, required: true }),
        userId: userId(true),
        properties: properties('Properties'),
      },
    },
    Alias: {
      label: 'Alias',
      options: {
        userId: userId(true),
        previousId: field.string({
          label: 'Previous ID',
          allowVariables: true,
          required: true,
          helperText: 'The anonymous or former id that becomes this user.',
        }),
      },
    },
    Page: {
      label: 'Page',
      options: {
        userId: userId(true),
        name: field.string({ label: 'Page name', allowVariables: true }),
        category: field.string({ label: 'Category', allowVariables: true }),
        properties: properties('Properties'),
      },
    },
  },
})
