/** `#sdk/chat`: the SDK's `@flowcraft/sdk/chat`, the chat's messages and rich text. Browser-safe. */
export * from '../../packages/sdk/src/chat.js'
