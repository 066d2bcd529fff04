import { definePlugin, field } from '#sdk/plugin'

/** Audio bubble: an uploaded or linked MP3 or WAV file. */
export default definePlugin({
  id: 'audio',
  name: 'Audio',
  fullName: 'Audio bubble',
  tags: ['media', 'sound', 'voice', 'mp3'],
  description: 'Send an audio file (MP3 or WAV)',
  category: 'bubble',
  scope: 'user',
  icon: 'audio-lines',
  version: 1,
  serves: ['bot'],
  storedIn: 'content',
  options: {
    url: field.string({
      label: 'Audio URL',
      placeholder: 'Paste the audio file link...',
      allowVariables: true,
    }),
    isAutoplayEnabled: field.boolean({ label: 'Autoplay', defaultValue: true }),
  },
})
