/** `#sdk/data`: the SDK's `@flowcraft/sdk/data`, what database plugins share. Server only. */
export * from '../../packages/sdk/src/data.js'
