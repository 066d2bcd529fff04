import { definePlugin, field } from '#sdk/plugin'

export const ELEVENLABS_DEFAULT_BASE_URL = 'https://api.elevenlabs.io'

/**
 * ElevenLabs, the text-to-speech service: the block turns a text into an MP3, stores it
 * and saves its public URL (for an audio bubble); as a workflow action, its output carries
 * the URL. Voices and models are listed live from the builder's account.
 */
export default definePlugin({
  id: 'elevenlabs',
  name: 'ElevenLabs',
  fullName: 'ElevenLabs text to speech',
  tags: ['ai', 'voice', 'speech', 'audio', 'tts'],
  description: 'Turn a text into natural-sounding speech',
  category: 'integration',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://elevenlabs.io/docs/api-reference',
  serves: ['bot', 'workflow'],
  // Workflows saved before the two ElevenLabs plugins became one store this id.
  aliases: ['workflow-elevenlabs'],
  credentials: {
    apiKey: field.string({
      label: 'API key',
      secret: true,
      required: true,
      helperText: 'Find it in your ElevenLabs profile settings.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: ELEVENLABS_DEFAULT_BASE_URL,
      helperText: 'Change it only to reach another server speaking the same API.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'elevenlabs',
      required: true,
    }),
  },
  actions: {
    'Convert text to speech': {
      label: 'Convert text to speech',
      options: {
        text: field.string({
          label: 'Text',
          multiline: true,
          allowVariables: true,
          required: true,
        }),
        voiceId: field.string({
          label: 'Voice',
          required: true,
          optionsFrom: { fetcher: 'voices', dependsOn: ['credentialsId'] },
        }),
        modelId: field.string({
          label: 'Model',
          helperText: "Empty uses the service's default model.",
          optionsFrom: { fetcher: 'models', dependsOn: ['credentialsId'] },
        }),
        saveUrlInVariableId: field.variable({
          label: 'Save the audio URL in',
          helperText: "Needed in a bot; a workflow node's output carries the URL.",
          writes: true,
        }),
      },
    },
  },
})
