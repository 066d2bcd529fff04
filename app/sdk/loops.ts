/** `#sdk/loops`: the SDK's `@flowcraft/sdk/loops`, the operator's bound on loops. Server only. */
export * from '../../packages/sdk/src/loops.js'
