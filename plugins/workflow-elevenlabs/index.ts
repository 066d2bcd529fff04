import { definePlugin, field } from '#sdk/plugin'

/**
 * ElevenLabs as a workflow action (spec 03 lists it among the workflow actions): the text
 * becomes an MP3, stored with the workspace's files; the node's output carries its public
 * URL for the next nodes. Same credentials as the ElevenLabs bot block.
 */
export default definePlugin({
  id: 'workflow-elevenlabs',
  name: 'ElevenLabs',
  description: 'Turn a text into speech (MP3)',
  category: 'action',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://elevenlabs.io/docs/api-reference',
  serves: ['workflow'],
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'elevenlabs',
      required: true,
    }),
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
  },
})
