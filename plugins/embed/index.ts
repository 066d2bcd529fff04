import { definePlugin, field } from '#sdk/plugin'

/** Embed bubble: an iframe, optionally holding the flow until the page sends an event. */
export default definePlugin({
  id: 'embed',
  name: 'Embed',
  fullName: 'Embed (iframe)',
  tags: ['iframe', 'website', 'pdf', 'map'],
  description: 'Embed a web page, a PDF, a calendar...',
  category: 'bubble',
  scope: 'user',
  icon: 'code-xml',
  version: 1,
  serves: ['bot'],
  storedIn: 'content',
  options: {
    url: field.string({
      label: 'URL',
      placeholder: 'Paste the link or code...',
      allowVariables: true,
    }),
    height: field.number({ label: 'Height', min: 0, defaultValue: 400, allowVariables: true }),
    waitForEvent: field.object(
      {
        isEnabled: field.boolean({ label: 'Wait for an event', defaultValue: false }),
        name: field.string({
          label: 'Event name',
          placeholder: 'My event',
          showIf: { field: 'isEnabled', equals: true },
        }),
        saveDataInVariableId: field.variable({
          label: 'Save the event data in',
          writes: true,
          showIf: { field: 'isEnabled', equals: true },
        }),
      },
      { label: 'Wait for event' }
    ),
  },
})
