import type { ChunkingMethod } from '#shared/knowledge'

/**
 * Splits a document into chunks of at most `size` characters, each repeating the last
 * `overlap` characters of the one before so a sentence cut at a boundary is still found
 * whole in one of them (docs/knowledge.md, "Chunking").
 *
 * - recursive: paragraphs are kept whole when they fit; a longer one is split at sentence
 *   ends, then at spaces, and only a word longer than a chunk is cut.
 * - fixed: windows of `size` characters, moved by `size - overlap`.
 */
export interface ChunkingOptions {
  method: ChunkingMethod
  size: number
  overlap: number
}

const SEPARATORS = [/\n{2,}/, /\n/, /(?<=[.!?。！？])\s+/, /\s+/]

function normalise(text: string) {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** Pieces no longer than `size`, split at the coarsest separator that works. */
function pieces(text: string, size: number, level = 0): string[] {
  if (text.length <= size) return [text]
  if (level >= SEPARATORS.length) {
    const cut: string[] = []
    for (let start = 0; start < text.length; start += size)
      cut.push(text.slice(start, start + size))
    return cut
  }
  const parts = text.split(SEPARATORS[level]).filter((part) => part.trim() !== '')
  if (parts.length <= 1) return pieces(text, size, level + 1)
  return parts.flatMap((part) => pieces(part, size, level + 1))
}

function joinerOf(level: string) {
  return level.includes('\n') ? level : ' '
}

/** The tail of a chunk, starting at a word boundary, at most `overlap` characters. */
function tail(text: string, overlap: number) {
  if (overlap <= 0) return ''
  if (text.length <= overlap) return text
  const slice = text.slice(text.length - overlap)
  const space = slice.search(/\s/)
  return space >= 0 && space < slice.length - 1 ? slice.slice(space + 1) : slice
}

function recursive(text: string, size: number, overlap: number) {
  const chunks: string[] = []
  let current = ''
  const paragraphs = text.split(/\n{2,}/)
  for (const paragraph of paragraphs) {
    for (const piece of pieces(paragraph.trim(), size)) {
      if (!piece.trim()) continue
      const joiner = current ? (piece === paragraph.trim() ? '\n\n' : joinerOf(' ')) : ''
      if (current && current.length + joiner.length + piece.length > size) {
        chunks.push(current)
        const carried = tail(current, Math.min(overlap, size - piece.length - 1))
        current = carried ? `${carried} ${piece}` : piece
      } else {
        current = current + joiner + piece
      }
    }
  }
  if (current.trim()) chunks.push(current)
  return chunks.map((chunk) => chunk.trim()).filter(Boolean)
}

function fixed(text: string, size: number, overlap: number) {
  const step = Math.max(1, size - Math.min(overlap, size - 1))
  const chunks: string[] = []
  for (let start = 0; start < text.length; start += step) {
    const chunk = text.slice(start, start + size).trim()
    if (chunk) chunks.push(chunk)
    if (start + size >= text.length) break
  }
  return chunks
}

export function chunkText(text: string, options: ChunkingOptions): string[] {
  const clean = normalise(text)
  if (!clean) return []
  const size = Math.max(1, options.size)
  const overlap = Math.max(0, Math.min(options.overlap, size - 1))
  return options.method === 'fixed' ? fixed(clean, size, overlap) : recursive(clean, size, overlap)
}
