// The stand-in server ships in the SDK package, for plugin packages' tests as for the app's.
export * from '../../packages/sdk/src/testing/stand_in.js'
