/**
 * Plugins shipped as npm packages (docs/plugins.md, "Plugins as packages"). A package the
 * app's package.json depends on is a plugin when its own package.json has a
 * `flowcraft.plugin` entry; the packages named here are loaded too (installed some other way,
 * e.g. `npm install --no-save`), and one that is missing or declares no plugin stops the boot.
 * PLUGIN_PACKAGES (names separated by commas) adds to the list without editing this file, as
 * an image or a host's environment does; the build and the server must both see it.
 * The Vite config reads this file as well, so keep it free of imports.
 */
const fromEnvironment = (process.env.PLUGIN_PACKAGES ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '')

const pluginsConfig: { packages: string[] } = {
  packages: [...new Set(fromEnvironment)],
}

export default pluginsConfig
