import { definePlugin, field } from '#sdk/plugin'

export const FILE_LOADER_FORMATS = ['auto', 'pdf', 'docx', 'txt', 'md', 'csv', 'html'] as const
export const FILE_LOADER_DEFAULT_MAX_MB = 25
export const FILE_LOADER_MAX_MB = 50

/**
 * Loads a document and outputs its text: from any http(s) URL, or from a file this app
 * stored (a visitor's upload, a file an earlier node saved), read from storage directly
 * so private files of the workspace work too.
 */
export default definePlugin({
  id: 'file-loader',
  name: 'File loader',
  fullName: 'File loader (read a document)',
  tags: ['document', 'pdf', 'text', 'extract'],
  description: 'Read the text of a PDF, Word, text, Markdown, CSV or HTML file',
  category: 'action',
  scope: 'workspace',
  icon: 'file-text',
  version: 1,
  serves: ['workflow'],
  options: {
    url: field.string({
      label: 'File URL',
      placeholder: 'https://example.com/guide.pdf or {{$input.file}}',
      allowVariables: true,
      required: true,
      helperText:
        "An http(s) address, the URL of a file stored here (a visitor's upload, a file an earlier node saved) or a data: URL.",
    }),
    format: field.enum({
      label: 'Format',
      options: [
        { label: 'Detect from the file', value: 'auto' },
        { label: 'PDF', value: 'pdf' },
        { label: 'Word (DOCX)', value: 'docx' },
        { label: 'Text', value: 'txt' },
        { label: 'Markdown', value: 'md' },
        { label: 'CSV', value: 'csv' },
        { label: 'HTML', value: 'html' },
      ],
      defaultValue: 'auto',
    }),
    maxSizeMb: field.number({
      label: 'Maximum size (MB)',
      min: 1,
      max: FILE_LOADER_MAX_MB,
      step: 1,
      defaultValue: FILE_LOADER_DEFAULT_MAX_MB,
    }),
  },
})
