/**
 * Embeddings as stored in knowledge_chunks.embedding: float32 little-endian, the blob
 * layout sqlite-vec reads, so the same bytes serve sqlite-vec and the JavaScript fallback.
 */
export function toBlob(vector: number[]): Buffer {
  const buffer = Buffer.alloc(vector.length * 4)
  for (let index = 0; index < vector.length; index++) buffer.writeFloatLE(vector[index], index * 4)
  return buffer
}

export function fromBlob(blob: Uint8Array | null | undefined): Float32Array | null {
  if (!blob || blob.byteLength === 0 || blob.byteLength % 4 !== 0) return null
  const copy = new Uint8Array(blob.byteLength)
  copy.set(blob)
  return new Float32Array(copy.buffer)
}

/** Cosine similarity in [-1, 1]; 0 when either vector is empty or their sizes differ. */
export function cosine(a: number[] | Float32Array, b: number[] | Float32Array) {
  if (a.length === 0 || a.length !== b.length) return 0
  let dot = 0
  let normA = 0
  let normB = 0
  for (const [index, element] of a.entries()) {
    dot += element * b[index]
    normA += element * element
    normB += b[index] * b[index]
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB)
}
