/** `#sdk/ai`: the SDK's `@flowcraft/sdk/ai`, the provider plumbing AI plugins share. Server only. */
export * from '../../packages/sdk/src/ai.js'
