/**
 * `#sdk/documents`: the text of documents (PDF, DOCX, TXT, MD, CSV, HTML), with pages and
 * rows where the format has them, a size cap and builder-readable reasons for files that
 * cannot be read (DocumentError). Server only.
 */
export {
  extractText,
  documentKindOf,
  DocumentError,
  DEFAULT_MAX_DOCUMENT_BYTES,
  SUPPORTED_DOCUMENT_KINDS,
  type DocumentKind,
  type ExtractedText,
  type ExtractOptions,
} from '../services/documents/extract_text.js'
