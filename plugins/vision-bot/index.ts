import { definePlugin, field } from '#sdk/plugin'

export const VISION_DEFAULT_BASE_URL = 'https://api.openai.com/v1'
export const VISION_DEFAULT_MODEL = 'gpt-4o-mini'

/**
 * Vision Bot: a vision model looks at an image, follows the builder's instructions and
 * fills the mapped variables (one value each, asked by variable name). Any
 * OpenAI-compatible server with a vision model will do.
 */
export default definePlugin({
  id: 'vision-bot',
  name: 'Vision Bot',
  fullName: 'Vision Bot (image understanding)',
  tags: ['ai', 'image', 'vision', 'ocr'],
  description: 'Read an image into variables with a vision model',
  category: 'integration',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://platform.openai.com/docs/guides/vision',
  serves: ['bot'],
  credentials: {
    apiKey: field.string({
      label: 'API key',
      placeholder: 'sk-...',
      secret: true,
      required: true,
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: VISION_DEFAULT_BASE_URL,
      helperText: 'Change it to use another OpenAI-compatible server.',
    }),
    model: field.string({
      label: 'Model',
      defaultValue: VISION_DEFAULT_MODEL,
      helperText: 'A model that accepts images.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'vision-bot',
      required: true,
    }),
    image: field.string({
      label: 'Image URL',
      placeholder: 'https://...',
      required: true,
      allowVariables: true,
    }),
    text: field.string({
      label: 'Instructions',
      placeholder: 'Read the total and the date of this receipt',
      multiline: true,
      required: true,
      allowVariables: true,
    }),
    responseMapping: field.list(
      { variableId: field.variable({ label: 'Variable', writes: true }) },
      {
        label: 'Save the answer in',
        itemLabel: 'variable',
        helperText: "Each variable gets the model's answer for its name.",
      }
    ),
  },
})
