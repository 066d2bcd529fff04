/** The Settings and Theme tabs of the bot editor (their sections live in settings_* and theme_*). */
export { SettingsPanel } from './settings_panel'
export { ThemePanel } from './theme_panel'
