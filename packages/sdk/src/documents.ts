import { extname } from 'node:path'
import { appPort } from './port.js'

/**
 * `@flowcraft/sdk/documents` (server; `#sdk/documents` in the app): the text of documents
 * (PDF, DOCX, TXT, MD, CSV, HTML), with pages and rows where the format has them, a size cap
 * and builder-readable reasons for files that cannot be read. Failures are DocumentErrors whose
 * message is meant for the builder ("The PDF is damaged or not a PDF"): callers show it as it
 * is. The parsers are the app's: extracting asks it through the port.
 */

export type DocumentKind = 'pdf' | 'docx' | 'txt' | 'md' | 'csv' | 'html'

export interface ExtractedText {
  text: string
  /** PDFs: the text of each page, in order. */
  pages?: string[]
  /** CSVs: one record per data row, keyed by the header row. */
  rows?: Record<string, string>[]
}

export interface ExtractOptions {
  filename?: string
  mimeType?: string
  /** Bytes above this are refused before parsing (default DEFAULT_MAX_DOCUMENT_BYTES). */
  maxBytes?: number
}

/** 25 MB: well above a long report, well below what would stall a worker. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 25 * 1024 * 1024

export class DocumentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'DocumentError'
  }
}

const MIME_KINDS: Record<string, DocumentKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/x-markdown': 'md',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
}

const EXTENSION_KINDS: Record<string, DocumentKind> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.txt': 'txt',
  '.text': 'txt',
  '.md': 'md',
  '.markdown': 'md',
  '.csv': 'csv',
  '.html': 'html',
  '.htm': 'html',
}

export const SUPPORTED_DOCUMENT_KINDS: DocumentKind[] = ['pdf', 'docx', 'txt', 'md', 'csv', 'html']

/**
 * What the bytes are: the file's signature first (a PDF or a zip cannot be mistaken), then
 * the content type, then the file name's extension. Undefined when none says.
 */
export function documentKindOf(
  data: Uint8Array,
  { filename, mimeType }: { filename?: string; mimeType?: string }
): DocumentKind | undefined {
  const head = Buffer.from(data.subarray(0, 5)).toString('latin1')
  if (head === '%PDF-') return 'pdf'
  const mime = mimeType?.split(';')[0].trim().toLowerCase()
  if (mime && MIME_KINDS[mime]) return MIME_KINDS[mime]
  const extension = filename ? extname(filename.split(/[?#]/)[0]).toLowerCase() : ''
  if (EXTENSION_KINDS[extension]) return EXTENSION_KINDS[extension]
  return undefined
}

/** The app's side of `@flowcraft/sdk/documents` (see port.ts). */
export interface DocumentsPort {
  extractText(data: Uint8Array, options?: ExtractOptions): Promise<ExtractedText>
}

/**
 * The text of a document. Refuses files above the size cap, kinds it does not read, damaged
 * files, and documents without any text (a scanned PDF has none: it would need OCR).
 */
export async function extractText(
  data: Uint8Array,
  options: ExtractOptions = {}
): Promise<ExtractedText> {
  return appPort('documents').extractText(data, options)
}
