import { definePlugin, field } from '#sdk/plugin'

/** Sends the visitor to a URL, here or in a new tab. */
export default definePlugin({
  id: 'Redirect',
  name: 'Redirect',
  fullName: 'Redirect to a URL',
  tags: ['link', 'url', 'navigate', 'open'],
  description: 'Send the visitor to a web page',
  category: 'logic',
  scope: 'user',
  icon: 'external-link',
  version: 1,
  serves: ['bot'],
  options: {
    url: field.string({ label: 'URL', placeholder: 'Type a URL...', allowVariables: true }),
    isNewTab: field.boolean({ label: 'Open in new tab', defaultValue: false }),
  },
})
