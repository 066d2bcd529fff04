/** `#sdk/documents`: the SDK's `@flowcraft/sdk/documents`, the text of documents. Server only. */
export * from '../../packages/sdk/src/documents.js'
