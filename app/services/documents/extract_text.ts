/**
 * The text of a document (a knowledge source, a loaded file). This version reads the text
 * formats (TXT, MD, CSV, HTML); PDF and DOCX are refused with a reason until the document
 * extractor of the AI nodes lands here with the same signature.
 */

export interface ExtractedText {
  text: string
  /** One entry per page, where the format has pages. */
  pages?: string[]
  /** One record per row (the header names the keys), where the format has rows. */
  rows?: Record<string, string>[]
}

export class DocumentError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DocumentError'
  }
}

type Kind = 'pdf' | 'docx' | 'csv' | 'html' | 'text'

function kindOf(filename: string, mimeType: string | undefined): Kind {
  const extension = filename.toLowerCase().split('.').pop() ?? ''
  const mime = (mimeType ?? '').toLowerCase().split(';')[0].trim()
  if (extension === 'pdf' || mime === 'application/pdf') return 'pdf'
  if (
    extension === 'docx' ||
    mime === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
  ) {
    return 'docx'
  }
  if (extension === 'csv' || mime === 'text/csv') return 'csv'
  if (['html', 'htm'].includes(extension) || mime === 'text/html') return 'html'
  return 'text'
}

function decodeUtf8(data: Uint8Array) {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(data)
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** A file that is text has no NUL bytes in its first kilobytes. */
function looksBinary(data: Uint8Array) {
  const end = Math.min(data.length, 8192)
  for (let index = 0; index < end; index++) if (data[index] === 0) return true
  return false
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
}

function decodeEntities(text: string) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1].toLowerCase() === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1))
      return Number.isFinite(code) && code > 0 && code < 0x110000
        ? String.fromCodePoint(code)
        : whole
    }
    return ENTITIES[name.toLowerCase()] ?? whole
  })
}

/** The visible text of a page: scripts, styles and tags out, blocks as line breaks. */
export function htmlToText(html: string) {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(
      /<\/?(p|div|section|article|li|ul|ol|h[1-6]|tr|table|blockquote|pre|header|footer|main|nav)\b[^>]*>/gi,
      '\n\n'
    )
    .replace(/<[^>]+>/g, ' ')
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** RFC 4180 CSV: quoted fields with commas, quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          cell += '"'
          index++
        } else quoted = false
      } else cell += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      row.push(cell)
      cell = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
    } else cell += char
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell)
    rows.push(row)
  }
  return rows.filter((cells) => cells.some((value) => value.trim() !== ''))
}

function csvRows(text: string) {
  const [header, ...body] = parseCsv(text)
  if (!header) return []
  const keys = header.map((name, index) => name.trim() || `column ${index + 1}`)
  return body.map((cells) =>
    Object.fromEntries(keys.map((key, index) => [key, (cells[index] ?? '').trim()]))
  )
}

export async function extractText(
  data: Uint8Array,
  { filename, mimeType }: { filename: string; mimeType?: string }
): Promise<ExtractedText> {
  const kind = kindOf(filename, mimeType)
  if (kind === 'pdf') {
    if (decodeUtf8(data.subarray(0, 5)) !== '%PDF-') {
      throw new DocumentError('The file is not a valid PDF (it does not start with %PDF-)')
    }
    throw new DocumentError('PDF text extraction is not available on this server yet')
  }
  if (kind === 'docx') {
    if (data[0] !== 0x50 || data[1] !== 0x4b) {
      throw new DocumentError('The file is not a valid DOCX document (it is not a ZIP archive)')
    }
    throw new DocumentError('DOCX text extraction is not available on this server yet')
  }
  if (looksBinary(data)) {
    throw new DocumentError(`"${filename}" is not a text file`)
  }
  const raw = decodeUtf8(data)
  if (kind === 'html') return { text: htmlToText(raw) }
  if (kind === 'csv') {
    const rows = csvRows(raw)
    const text = rows
      .map((row) =>
        Object.entries(row)
          .filter(([, value]) => value !== '')
          .map(([key, value]) => `${key}: ${value}`)
          .join('\n')
      )
      .join('\n\n')
    return { text, rows }
  }
  return { text: raw.replace(/\r\n?/g, '\n').trim() }
}
