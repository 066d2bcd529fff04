/** `#sdk/inputs`: the SDK's `@flowcraft/sdk/inputs`, matching answers to choices. Server only. */
export * from '../../packages/sdk/src/inputs.js'
