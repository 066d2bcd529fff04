import { definePlugin, field } from '#sdk/plugin'

/**
 * Text bubble. The v6 format keeps bubble settings in `content`; the editor writes
 * richText (Slate nodes), imports may carry html or plainText instead.
 */
export default definePlugin({
  id: 'text',
  name: 'Text',
  fullName: 'Text bubble',
  tags: ['message', 'markdown', 'say', 'content'],
  description: 'Send a text message',
  category: 'bubble',
  scope: 'user',
  icon: 'message-square',
  version: 1,
  serves: ['bot'],
  storedIn: 'content',
  showsStreamedText: true,
  options: {
    richText: field.json({ translatable: true, label: 'Text' }),
    html: field.string({ label: 'HTML', multiline: true, hidden: true }),
    plainText: field.string({ label: 'Plain text', multiline: true, hidden: true }),
  },
})
