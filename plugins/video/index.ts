import { definePlugin, field } from '#sdk/plugin'

/**
 * Video bubble. `id` and `type` are derived from the URL by the editor (YouTube, Vimeo,
 * TikTok and Gumlet links are embedded, other URLs play in a video element).
 */
export default definePlugin({
  id: 'video',
  name: 'Video',
  fullName: 'Video bubble',
  tags: ['media', 'youtube', 'vimeo', 'movie'],
  description: 'Send a video',
  category: 'bubble',
  scope: 'user',
  icon: 'film',
  version: 1,
  serves: ['bot'],
  storedIn: 'content',
  options: {
    url: field.string({
      label: 'Video URL',
      placeholder: 'Paste the video link...',
      allowVariables: true,
    }),
    id: field.string({ label: 'Video id', hidden: true }),
    type: field.enum({
      label: 'Provider',
      options: ['url', 'youtube', 'vimeo', 'tiktok', 'gumlet'],
      hidden: true,
    }),
    height: field.number({ label: 'Height', min: 0, defaultValue: 400, allowVariables: true }),
    aspectRatio: field.string({
      label: 'Aspect ratio',
      placeholder: '16/9',
      defaultValue: '16/9',
      pattern: '^\\s*\\d+(\\.\\d+)?\\s*/\\s*\\d+(\\.\\d+)?\\s*$',
      patternMessage: 'Aspect ratio must look like 16/9',
    }),
    maxWidth: field.string({
      label: 'Maximum width',
      placeholder: '100%',
      defaultValue: '100%',
      pattern: '^\\s*\\d+(\\.\\d+)?(px|%)\\s*$',
      patternMessage: 'Maximum width must look like 300px or 100%',
    }),
    queryParamsStr: field.string({ label: 'Query parameters', placeholder: 'start=10&end=30' }),
    areControlsDisplayed: field.boolean({ label: 'Display controls', defaultValue: true }),
    isAutoplayEnabled: field.boolean({ label: 'Autoplay', defaultValue: true }),
  },
})
