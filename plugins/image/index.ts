import { definePlugin, field } from '#sdk/plugin'

/** Image bubble: a link or an upload, optionally clickable. */
export default definePlugin({
  id: 'image',
  name: 'Image',
  fullName: 'Image bubble',
  tags: ['media', 'picture', 'gif', 'photo'],
  description: 'Send an image',
  category: 'bubble',
  scope: 'user',
  icon: 'image',
  version: 1,
  serves: ['bot'],
  storedIn: 'content',
  options: {
    url: field.string({
      label: 'Image URL',
      placeholder: 'Paste the image link...',
      allowVariables: true,
    }),
    clickLink: field.object(
      {
        url: field.string({
          label: 'Link',
          placeholder: 'https://example.com',
          allowVariables: true,
        }),
        alt: field.string({
          label: 'Alternative text',
          placeholder: 'Image description',
          allowVariables: true,
        }),
      },
      { label: 'On click' }
    ),
  },
})
