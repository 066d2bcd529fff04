import { definePlugin, field } from '#sdk/plugin'

export const DEFAULT_VIDEO_FIELD = 'video_path'

/**
 * Text to Video: asks the brain service (BRAIN_SERVICE_URL, `#sdk/brain`) to make a video
 * from a topic (POST /generate-video with mode, language, topic, background_music) and
 * saves fields of its answer in variables, `video_path` by default.
 */
export default definePlugin({
  id: 'text-to-video',
  name: 'Text to Video',
  fullName: 'Text to video generator',
  tags: ['ai', 'video', 'generate', 'media'],
  description: 'Make a short video from a topic and save where it is',
  category: 'integration',
  scope: 'user',
  icon: 'clapperboard',
  version: 1,
  serves: ['bot', 'workflow'],
  options: {
    videoMode: field.string({
      label: 'Video mode',
      placeholder: 'e.g. short',
      helperText: 'The kind of video the brain service makes (its modes, e.g. short or long).',
      allowVariables: true,
      required: true,
    }),
    language: field.string({
      label: 'Language',
      placeholder: 'e.g. en',
      allowVariables: true,
      required: true,
    }),
    scriptPrompt: field.string({
      label: 'Topic',
      placeholder: 'What the video is about',
      multiline: true,
      allowVariables: true,
      required: true,
    }),
    backgroundMusic: field.string({
      label: 'Background music',
      placeholder: 'A track name or URL (optional)',
      allowVariables: true,
    }),
    responseMapping: field.responseMapping({
      label: 'Save in variables',
      key: 'field',
      helperText: 'Fields of the answer; an empty one is video_path.',
    }),
  },
})
