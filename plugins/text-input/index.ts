import { answerVariableField, definePlugin, field, retryMessageField } from '#sdk/plugin'

/** Free text answer, on one line or several, optionally with a voice clip or attachments. */
export default definePlugin({
  id: 'text input',
  name: 'Text',
  fullName: 'Text input',
  tags: ['text', 'question', 'answer', 'form'],
  description: 'Ask for a text answer',
  category: 'input',
  scope: 'user',
  icon: 'text-cursor-input',
  version: 1,
  serves: ['bot'],
  // On a messaging channel: any file with attachments allowed, voice notes with audio clips.
  receivesFiles: (options, kind) => {
    if (options.attachments?.isEnabled) return { visibility: options.attachments.visibility }
    if ((kind === 'voice' || kind === 'audio') && options.audioClip?.isEnabled) {
      return { visibility: options.audioClip.visibility }
    }
    return null
  },
  options: {
    labels: field.object({
      placeholder: field.string({
        translatable: true,
        label: 'Placeholder',
        defaultValue: 'Type your answer...',
      }),
      button: field.string({ translatable: true, label: 'Button label', defaultValue: 'Send' }),
    }),
    isLong: field.boolean({ label: 'Long text', defaultValue: false }),
    audioClip: field.object(
      {
        isEnabled: field.boolean({ label: 'Allow audio clip', defaultValue: false }),
        saveVariableId: field.variable({
          label: 'Save the audio clip URL in',
          writes: true,
          showIf: { field: 'isEnabled', equals: true },
        }),
        visibility: field.enum({
          label: 'Visibility',
          options: ['Auto', 'Public', 'Private'],
          defaultValue: 'Auto',
          showIf: { field: 'isEnabled', equals: true },
        }),
      },
      { label: 'Audio clip' }
    ),
    attachments: field.object(
      {
        isEnabled: field.boolean({ label: 'Allow attachments', defaultValue: false }),
        saveVariableId: field.variable({
          label: 'Save the attachment URLs in',
          writes: true,
          showIf: { field: 'isEnabled', equals: true },
        }),
        visibility: field.enum({
          label: 'Visibility',
          options: ['Auto', 'Public', 'Private'],
          defaultValue: 'Auto',
          showIf: { field: 'isEnabled', equals: true },
        }),
      },
      { label: 'Attachments' }
    ),
    retryMessageContent: retryMessageField(),
    variableId: answerVariableField(),
  },
})
