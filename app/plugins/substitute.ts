/** Moved to the SDK package (packages/sdk): the app uses the same code plugins build against. */
export * from '../../packages/sdk/src/substitute.js'
