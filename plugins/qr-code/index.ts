import { definePlugin, field } from '#sdk/plugin'

/**
 * QR code: encodes a text (usually with variables) into a PNG kept with the workspace's
 * files. A bot saves the image's public URL in a variable (for an image bubble); a workflow
 * node's output carries it. Nothing leaves the server: the image is drawn here.
 */
export default definePlugin({
  id: 'qr-code',
  name: 'QR code',
  fullName: 'QR code generator',
  tags: ['qr', 'image', 'barcode', 'link'],
  description: 'Turn a text or a link into a QR code image',
  category: 'integration',
  scope: 'user',
  icon: 'qr-code',
  version: 1,
  serves: ['bot', 'workflow'],
  actions: {
    'Generate a QR code': {
      label: 'Generate a QR code',
      options: {
        data: field.string({
          label: 'Data',
          placeholder: 'https://example.com/order/{{Order id}}',
          multiline: true,
          allowVariables: true,
          required: true,
          helperText: 'The text or link the code holds.',
        }),
        saveUrlInVariableId: field.variable({
          label: 'Save the image URL in',
          helperText: "Needed in a bot; a workflow node's output carries the URL.",
          writes: true,
        }),
      },
    },
  },
})
