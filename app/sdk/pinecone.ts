/**
 * `#sdk/pinecone`: Pinecone's REST API (indexes, stats and namespaces, record search and
 * upsert, hosted embeddings) with the guarded HTTP client a runner is given. Server only.
 */
export * from '../services/pinecone.js'
