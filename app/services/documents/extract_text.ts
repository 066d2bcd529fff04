import { parse as parseCsv } from 'csv-parse/sync'
import { convert as htmlToText } from 'html-to-text'
import {
  DEFAULT_MAX_DOCUMENT_BYTES,
  DocumentError,
  documentKindOf,
  type ExtractedText,
  type ExtractOptions,
} from '#sdk/documents'

// The kind and the error are the SDK's; callers of the parsers find them here too.
export { DocumentError, documentKindOf } from '#sdk/documents'

/**
 * The text of a document (PDF, DOCX, TXT, MD, CSV, HTML), for the file loader node (through the
 * SDK's DocumentsPort) and the knowledge stores' FILE sources. Server only. The kinds, the size
 * cap and DocumentError are the SDK's (`@flowcraft/sdk/documents`); the parsers are the app's.
 */

function formatBytes(bytes: number) {
  return bytes >= 1024 * 1024
    ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
    : `${Math.ceil(bytes / 1024)} KB`
}

/** Text files: UTF-8 (a BOM is dropped); bytes that are not UTF-8 mean it is no text file. */
function decodeText(data: Uint8Array, label: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data)
  } catch {
    throw new DocumentError(`The ${label} file is not UTF-8 text`)
  }
}

/** Lines trimmed at their end, runs of blank lines collapsed, no blank start or end. */
function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

async function extractPdf(data: Uint8Array): Promise<ExtractedText> {
  // The legacy build runs in Node without a DOM; loaded on first use (it is large).
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  let document: Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>
  try {
    document = await pdfjs.getDocument({
      // pdf.js takes ownership of (and detaches) the buffer it is given: pass a copy.
      data: new Uint8Array(data),
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
      verbosity: 0,
    }).promise
  } catch (error) {
    const name = (error as Error)?.name
    if (name === 'PasswordException') {
      throw new DocumentError('The PDF is protected by a password', { cause: error })
    }
    throw new DocumentError('The PDF is damaged or not a PDF', { cause: error })
  }
  try {
    const pages: string[] = []
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number)
      const content = await page.getTextContent()
      let text = ''
      for (const item of content.items) {
        if (!('str' in item)) continue
        text += item.str
        if (item.hasEOL) text += '\n'
        else if (item.str && !item.str.endsWith(' ')) text += ' '
      }
      pages.push(tidy(text))
      page.cleanup()
    }
    return { text: pages.filter(Boolean).join('\n\n'), pages }
  } catch (error) {
    throw new DocumentError('The PDF is damaged: its pages could not be read', { cause: error })
  } finally {
    await document.destroy()
  }
}

async function extractDocx(data: Uint8Array): Promise<ExtractedText> {
  const mammoth = (await import('mammoth')).default
  try {
    const result = await mammoth.extractRawText({ buffer: Buffer.from(data) })
    return { text: tidy(result.value) }
  } catch (error) {
    throw new DocumentError('The DOCX file is damaged or not a Word document', { cause: error })
  }
}

function extractCsv(data: Uint8Array): ExtractedText {
  const source = decodeText(data, 'CSV')
  let records: string[][]
  try {
    records = parseCsv(source, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }) as string[][]
  } catch (error) {
    throw new DocumentError(`The CSV file could not be read: ${(error as Error).message}`, {
      cause: error,
    })
  }
  if (records.length === 0) return { text: '', rows: [] }
  // Header cells name the columns; blank or repeated ones get their position instead.
  const seen = new Set<string>()
  const header = records[0].map((cell, index) => {
    let name = cell.trim() || `column ${index + 1}`
    if (seen.has(name)) name = `${name} (${index + 1})`
    seen.add(name)
    return name
  })
  const rows = records.slice(1).map((record) => {
    const row: Record<string, string> = {}
    header.forEach((name, index) => (row[name] = record[index] ?? ''))
    return row
  })
  // One line per row, "column: value" pairs: it reads well and chunks well.
  const text = rows
    .map((row) =>
      header
        .filter((name) => row[name] !== '')
        .map((name) => `${name}: ${row[name]}`)
        .join(', ')
    )
    .filter(Boolean)
    .join('\n')
  return { text, rows }
}

function extractHtml(data: Uint8Array): ExtractedText {
  const source = decodeText(data, 'HTML')
  const text = htmlToText(source, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'nav', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
      { selector: 'h4', options: { uppercase: false } },
      { selector: 'h5', options: { uppercase: false } },
      { selector: 'h6', options: { uppercase: false } },
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    ],
  })
  return { text: tidy(text) }
}

/**
 * The text of a document. Refuses files above the size cap, kinds it does not read, damaged
 * files, and documents without any text (a scanned PDF has none: it would need OCR).
 */
export async function extractText(data: Uint8Array, options: ExtractOptions = {}) {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES
  if (data.byteLength > maxBytes) {
    throw new DocumentError(
      `The file is too large (${formatBytes(data.byteLength)}); the limit is ${formatBytes(maxBytes)}`
    )
  }
  if (data.byteLength === 0) throw new DocumentError('The file is empty')
  const kind = documentKindOf(data, options)
  if (!kind) {
    const name = options.filename ? `"${options.filename}"` : 'The file'
    throw new DocumentError(
      `${name} is not a supported document: use PDF, DOCX, TXT, MD, CSV or HTML`
    )
  }
  let result: ExtractedText
  switch (kind) {
    case 'pdf':
      result = await extractPdf(data)
      break
    case 'docx':
      result = await extractDocx(data)
      break
    case 'csv':
      result = extractCsv(data)
      break
    case 'html':
      result = extractHtml(data)
      break
    default:
      result = { text: tidy(decodeText(data, kind.toUpperCase())) }
  }
  if (!result.text.trim()) {
    throw new DocumentError(
      kind === 'pdf'
        ? 'The PDF has no text to read (a scanned document needs OCR first)'
        : 'The document has no text'
    )
  }
  return result
}
