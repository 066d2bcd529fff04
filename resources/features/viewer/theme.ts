import type { CSSProperties } from 'react'
import type { BorderTheme, BotTheme, ElementTheme, FontTheme } from '#shared/bot/types'

/**
 * The bot's theme as CSS custom properties on the chat root: components read
 * var(--fc-*) so that a dynamic theme or a live edit in the editor re-renders one style
 * object instead of every bubble.
 */

const ROUNDNESS: Record<string, string> = { none: '0px', medium: '6px', large: '20px' }

const SHADOWS: Record<string, string> = {
  'none': 'none',
  'sm': '0 1px 2px 0 rgb(0 0 0 / 0.05)',
  'md': '0 4px 6px -1px rgb(0 0 0 / 0.1), 0 2px 4px -2px rgb(0 0 0 / 0.1)',
  'lg': '0 10px 15px -3px rgb(0 0 0 / 0.1), 0 4px 6px -4px rgb(0 0 0 / 0.1)',
  'xl': '0 20px 25px -5px rgb(0 0 0 / 0.1), 0 8px 10px -6px rgb(0 0 0 / 0.1)',
  '2xl': '0 25px 50px -12px rgb(0 0 0 / 0.25)',
}

const SYSTEM_FONTS =
  "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"

/** A colour faded by `opacity` without knowing its notation (hex, rgb(), a name). */
export function withOpacity(color: string | undefined, opacity: number | undefined) {
  if (!color) return undefined
  if (opacity === undefined || opacity === null || opacity >= 1) return color
  const percent = Math.max(0, Math.min(1, opacity)) * 100
  return `color-mix(in srgb, ${color} ${percent}%, transparent)`
}

function roundness(border: BorderTheme | undefined, fallback: string) {
  const kind = border?.roundeness
  if (kind === 'custom' && typeof border?.customRoundeness === 'number') {
    return `${Math.max(0, border.customRoundeness)}px`
  }
  return (kind && ROUNDNESS[kind]) ?? fallback
}

function borderValue(border: BorderTheme | undefined, fallback = 'none') {
  if (!border || (border.thickness === undefined && !border.color)) return fallback
  const thickness = border.thickness ?? 1
  if (thickness <= 0) return 'none'
  return `${thickness}px solid ${withOpacity(border.color ?? 'currentColor', border.opacity)}`
}

interface ElementDefaults {
  radius: string
  shadow?: string
  /** When the theme says nothing about the border. */
  border?: string
}

function elementVars(prefix: string, element: ElementTheme | undefined, defaults: ElementDefaults) {
  const vars: Record<string, string | undefined> = {
    [`--fc-${prefix}-bg`]: withOpacity(element?.backgroundColor, element?.opacity),
    [`--fc-${prefix}-color`]: element?.color,
    [`--fc-${prefix}-radius`]: roundness(element?.border, defaults.radius),
    [`--fc-${prefix}-border`]: borderValue(element?.border, defaults.border),
    [`--fc-${prefix}-shadow`]: SHADOWS[element?.shadow ?? ''] ?? defaults.shadow ?? 'none',
    [`--fc-${prefix}-blur`]: element?.blur ? `blur(${element.blur}px)` : 'none',
  }
  if (element?.placeholderColor) vars[`--fc-${prefix}-placeholder`] = element.placeholderColor
  return vars
}

/** The family name only: fonts are never fetched from a remote host. */
export function fontFamily(font: FontTheme | undefined) {
  const family = typeof font === 'string' ? font : font?.family
  const clean = family?.replace(/["';{}\\<>]/g, '').trim()
  return clean ? `"${clean}", ${SYSTEM_FONTS}` : SYSTEM_FONTS
}

function cssUrl(url: string) {
  return `url(${JSON.stringify(url)})`
}

/** The page background: a colour, an image (cover) or nothing. */
export function backgroundStyle(theme: BotTheme): CSSProperties {
  const background = theme.general?.background
  if (!background || background.type === 'None') return { background: 'transparent' }
  if (background.type === 'Image' && background.content) {
    return {
      backgroundImage: cssUrl(background.content),
      backgroundSize: 'cover',
      backgroundPosition: 'center',
      backgroundRepeat: 'no-repeat',
    }
  }
  return { backgroundColor: background.content || '#ffffff' }
}

/** The CSS variables of a resolved theme (call resolveTheme first). */
export function themeVariables(theme: BotTheme): CSSProperties {
  const chat = theme.chat ?? {}
  const container = chat.container ?? {}
  const progress = theme.general?.progressBar ?? {}
  const vars: Record<string, string | undefined> = {
    '--fc-font': fontFamily(theme.general?.font),
    '--fc-container-max-width': container.maxWidth || '800px',
    '--fc-container-max-height': container.maxHeight || '100%',
    '--fc-container-width': container.width || '100%',
    ...elementVars('container', container, { radius: '0px' }),
    ...elementVars('host', chat.hostBubbles, { radius: '6px' }),
    ...elementVars('guest', chat.guestBubbles, { radius: '6px' }),
    ...elementVars('button', chat.buttons, { radius: '6px' }),
    // A white field on a white chat would vanish without an edge.
    ...elementVars('input', chat.inputs, {
      radius: '6px',
      shadow: SHADOWS.sm,
      border: '1px solid rgb(0 0 0 / 0.12)',
    }),
    '--fc-progress-color': progress.color,
    '--fc-progress-bg': progress.backgroundColor,
    '--fc-progress-thickness': `${progress.thickness ?? 4}px`,
  }
  for (const key of Object.keys(vars)) if (vars[key] === undefined) delete vars[key]
  return vars as CSSProperties
}

/**
 * The builder's CSS, nested under the chat root so that it styles this chat only and not
 * the editor around a preview. `</style` is cut so the text cannot close its tag.
 */
export function scopedCustomCss(css: string | undefined, rootSelector: string) {
  const text = (css ?? '').replace(/<\/style/gi, '').trim()
  return text ? `${rootSelector} {\n${text}\n}` : ''
}
