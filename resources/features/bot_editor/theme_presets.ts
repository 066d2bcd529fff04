import { defaultTheme, type BotTheme, type ElementTheme } from '#shared/bot/types'

/**
 * The built-in theme templates of the Templates gallery. Their ids are stored in
 * `selectedThemeTemplateId` when applied; workspace templates use generated ids instead.
 */

export interface ThemePreset {
  id: string
  /** Key under theme.presets in the locale files. */
  labelKey: string
  theme: BotTheme
}

interface Palette {
  font: string
  background: string
  container: ElementTheme
  host: ElementTheme
  guest: ElementTheme
  buttons: ElementTheme
  inputs: ElementTheme
  progress: string
  progressTrack: string
}

function themeOf(palette: Palette): BotTheme {
  return {
    general: {
      font: { type: 'Google', family: palette.font },
      background: { type: 'Color', content: palette.background },
      progressBar: {
        isEnabled: false,
        color: palette.progress,
        backgroundColor: palette.progressTrack,
        placement: 'Top',
        thickness: 4,
        position: 'absolute',
      },
    },
    chat: {
      container: { maxWidth: '800px', width: '100%', ...palette.container },
      hostAvatar: { isEnabled: true },
      guestAvatar: { isEnabled: false },
      hostBubbles: palette.host,
      guestBubbles: palette.guest,
      buttons: palette.buttons,
      inputs: palette.inputs,
    },
  }
}

export const THEME_PRESETS: readonly ThemePreset[] = [
  { id: 'default', labelKey: 'default', theme: defaultTheme() },
  {
    id: 'dark',
    labelKey: 'dark',
    theme: themeOf({
      font: 'Inter',
      background: '#0b1120',
      container: { backgroundColor: '#0b1120', color: '#e2e8f0' },
      host: { backgroundColor: '#1e293b', color: '#f1f5f9' },
      guest: { backgroundColor: '#7c3aed', color: '#ffffff' },
      buttons: { backgroundColor: '#7c3aed', color: '#ffffff' },
      inputs: { backgroundColor: '#1e293b', color: '#f8fafc', placeholderColor: '#94a3b8' },
      progress: '#a78bfa',
      progressTrack: '#1e293b',
    }),
  },
  {
    id: 'minimal',
    labelKey: 'minimal',
    theme: themeOf({
      font: 'DM Sans',
      background: '#fafafa',
      container: { backgroundColor: '#fafafa', color: '#171717' },
      host: {
        backgroundColor: '#ffffff',
        color: '#171717',
        border: { thickness: 1, color: '#e5e5e5', roundeness: 'medium' },
      },
      guest: { backgroundColor: '#171717', color: '#fafafa', border: { roundeness: 'medium' } },
      buttons: { backgroundColor: '#171717', color: '#fafafa', border: { roundeness: 'none' } },
      inputs: {
        backgroundColor: '#ffffff',
        color: '#171717',
        placeholderColor: '#a3a3a3',
        shadow: 'none',
        border: { thickness: 1, color: '#d4d4d4', roundeness: 'none' },
      },
      progress: '#171717',
      progressTrack: '#e5e5e5',
    }),
  },
  {
    id: 'rounded-pastel',
    labelKey: 'roundedPastel',
    theme: themeOf({
      font: 'Nunito',
      background: '#fdf4ff',
      container: { backgroundColor: '#fdf4ff', color: '#4a044e' },
      host: { backgroundColor: '#ede9fe', color: '#3b0764', border: { roundeness: 'large' } },
      guest: { backgroundColor: '#fbcfe8', color: '#831843', border: { roundeness: 'large' } },
      buttons: {
        backgroundColor: '#c4b5fd',
        color: '#2e1065',
        shadow: 'sm',
        border: { roundeness: 'large' },
      },
      inputs: {
        backgroundColor: '#ffffff',
        color: '#4a044e',
        placeholderColor: '#c084fc',
        border: { thickness: 1, color: '#f5d0fe', roundeness: 'large' },
      },
      progress: '#f472b6',
      progressTrack: '#fce7f3',
    }),
  },
  {
    id: 'corporate',
    labelKey: 'corporate',
    theme: themeOf({
      font: 'Roboto',
      background: '#eef2f6',
      container: { backgroundColor: '#ffffff', color: '#0f172a', shadow: 'md' },
      host: { backgroundColor: '#e2e8f0', color: '#0f172a', border: { roundeness: 'medium' } },
      guest: { backgroundColor: '#0b4f8a', color: '#ffffff', border: { roundeness: 'medium' } },
      buttons: { backgroundColor: '#0b4f8a', color: '#ffffff', border: { roundeness: 'medium' } },
      inputs: {
        backgroundColor: '#ffffff',
        color: '#0f172a',
        placeholderColor: '#64748b',
        border: { thickness: 1, color: '#cbd5e1', roundeness: 'medium' },
      },
      progress: '#0b4f8a',
      progressTrack: '#dbe4ee',
    }),
  },
  {
    id: 'neon',
    labelKey: 'neon',
    theme: themeOf({
      font: 'Space Grotesk',
      background: '#050508',
      container: { backgroundColor: '#050508', color: '#e0e0ff' },
      host: {
        backgroundColor: '#0d0d14',
        color: '#3dff8f',
        border: { thickness: 1, color: '#3dff8f', roundeness: 'medium' },
      },
      guest: { backgroundColor: '#ff2bd6', color: '#0a0010' },
      buttons: { backgroundColor: '#14e1ff', color: '#00131a', shadow: 'lg' },
      inputs: {
        backgroundColor: '#0d0d14',
        color: '#e0e0ff',
        placeholderColor: '#6b6b99',
        border: { thickness: 1, color: '#14e1ff', roundeness: 'medium' },
      },
      progress: '#ff2bd6',
      progressTrack: '#1a1a26',
    }),
  },
]

/** Common families of the Google catalogue (the chat names the family; nothing is fetched). */
export const GOOGLE_FONTS = [
  'Poppins',
  'Inter',
  'Roboto',
  'Open Sans',
  'Lato',
  'Montserrat',
  'Nunito',
  'Raleway',
  'Source Sans 3',
  'Work Sans',
  'Rubik',
  'DM Sans',
  'Manrope',
  'Space Grotesk',
  'IBM Plex Sans',
  'Noto Sans',
  'Quicksand',
  'Josefin Sans',
  'Karla',
  'Merriweather',
  'Playfair Display',
  'Fira Sans',
] as const
