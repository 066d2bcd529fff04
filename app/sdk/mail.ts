/** `#sdk/mail`: the SDK's `@flowcraft/sdk/mail`, outgoing e-mail. Server only. */
export * from '../../packages/sdk/src/mail.js'
