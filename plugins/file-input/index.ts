import { answerVariableField, definePlugin, field, retryMessageField } from '#sdk/plugin'

/** File upload; the URLs of the uploaded files are saved in the variable. */
export default definePlugin({
  id: 'file input',
  name: 'File',
  fullName: 'File upload',
  tags: ['upload', 'attachment', 'document', 'image'],
  description: 'Ask for one or several files',
  category: 'input',
  scope: 'user',
  icon: 'paperclip',
  version: 1,
  serves: ['bot'],
  // Not on every plan (the Plans page lists "File upload" per plan).
  planFeature: 'fileUpload',
  // Any file sent on a messaging channel answers it; an album, when several are allowed
  // (docs/channels.md).
  receivesFiles: (options) => ({
    visibility: options.visibility,
    sizeLimitMb: Number(options.sizeLimit) > 0 ? Number(options.sizeLimit) : undefined,
    filesOnly: true,
    multiple: options.isMultipleAllowed === true,
  }),
  options: {
    isRequired: field.boolean({ label: 'Required', defaultValue: true }),
    isMultipleAllowed: field.boolean({ label: 'Allow multiple files', defaultValue: false }),
    visibility: field.enum({
      label: 'Visibility',
      options: ['Auto', 'Public', 'Private'],
      defaultValue: 'Auto',
      helperText: 'Private files are only reachable by signed-in members of the workspace',
    }),
    sizeLimit: field.number({
      label: 'Size limit (MB)',
      min: 0,
      helperText: 'Only read by bots of version 5; newer bots use the server limit',
      hidden: true,
    }),
    labels: field.object({
      placeholder: field.string({
        translatable: true,
        label: 'Placeholder',
        multiline: true,
        defaultValue: '<strong>Click to upload</strong> or drag and drop<br>(size limit: 10MB)',
      }),
      button: field.string({ translatable: true, label: 'Button label', defaultValue: 'Upload' }),
      clear: field.string({
        translatable: true,
        label: 'Clear button label',
        defaultValue: 'Clear',
      }),
      skip: field.string({ translatable: true, label: 'Skip button label', defaultValue: 'Skip' }),
      success: field.object(
        {
          single: field.string({
            translatable: true,
            label: 'Single file success',
            defaultValue: 'File uploaded',
          }),
          multiple: field.string({
            translatable: true,
            label: 'Multiple files success',
            defaultValue: '{total} files uploaded',
            helperText: '{total} is replaced by the number of files',
          }),
        },
        { label: 'Success labels' }
      ),
    }),
    retryMessageContent: retryMessageField(),
    variableId: answerVariableField(),
  },
})
