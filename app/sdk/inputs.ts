/**
 * `#sdk/inputs`: helpers for input blocks: matching a visitor's answer to choices, the
 * values of a list variable. Server only.
 */
export * from '../plugins/choices.js'
